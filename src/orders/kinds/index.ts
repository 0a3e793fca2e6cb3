/**
 * The registry of money kinds: the one list of descriptors (kind.ts), and the types every other
 * part of the pipeline reads from it. `ActionKind`, `OrderRequest` and `MoneyAction` are derived
 * from the list, so a new kind is its descriptor file and one line here; a descriptor that misses
 * a field, or sits under another kind's name, does not compile.
 *
 * @example
 * const descriptor = kindOf(action.kind); // its quote, POST, secret step, transaction types, facts
 * if (descriptor.secret !== "none") askForTheSecret();
 * if (descriptor.destination(request).to === "address") checkTheAllowlist();
 */

import { buy } from "./buy.ts";
import type { AnyKindDescriptor, Draft, KindDescriptor, KindFamily } from "./kind.ts";
import { partnerBuy } from "./partner-buy.ts";
import { partnerSell } from "./partner-sell.ts";
import { partnerWithdraw } from "./partner-withdraw.ts";
import { sell } from "./sell.ts";
import { send } from "./send.ts";
import { withdraw } from "./withdraw.ts";

const DESCRIPTORS = {
  buy,
  sell,
  send,
  withdraw,
  /** Partner mode (EXCHANGE_MODE=partner): the same orders, for a partner user, through the partner API. */
  "partner-buy": partnerBuy,
  "partner-sell": partnerSell,
  "partner-withdraw": partnerWithdraw,
} satisfies Record<string, AnyKindDescriptor>;

type Parts<D> = D extends KindDescriptor<string, infer R, infer A> ? { request: R; action: A } : never;

export type ActionKind = keyof typeof DESCRIPTORS;
/** Each kind's request: what the user asked for, before the exchange was asked; amounts as checked decimal text. */
export type RequestMap = { [K in ActionKind]: Parts<(typeof DESCRIPTORS)[K]>["request"] };
/** Each kind's recorded action, with its typed quote. */
export type ActionMap = { [K in ActionKind]: Parts<(typeof DESCRIPTORS)[K]>["action"] };
export type OrderRequest = RequestMap[ActionKind];
export type ActionOf<K extends ActionKind> = ActionMap[K];
/** A recorded money action: a union on `kind`, each with its own quote and terms. */
export type MoneyAction = ActionMap[ActionKind];
/** What the ledger is handed to record a new action, of any kind. */
export type DraftMap = { [K in ActionKind]: Draft<ActionMap[K]> };
export type MoneyDraft = DraftMap[ActionKind];
export type DescriptorOf<K extends ActionKind> = KindDescriptor<K, RequestMap[K], ActionMap[K], DraftMap[K]>;

/** Every kind's descriptor, under its own name. */
export const KINDS: { readonly [K in ActionKind]: DescriptorOf<K> } = DESCRIPTORS;

/** Every kind, in the registry's order. */
export const ACTION_KINDS = Object.keys(KINDS) as ActionKind[];

export function kindOf<K extends ActionKind>(kind: K): DescriptorOf<K> {
  return KINDS[kind];
}

/** True for a name of a kind (an old record's kind is checked before it is trusted). */
export function isActionKind(kind: unknown): kind is ActionKind {
  return typeof kind === "string" && Object.hasOwn(KINDS, kind);
}

/**
 * A kind's descriptor by its name, read as any kind's: its facts asked without knowing which kind
 * (safety/guards.ts; a test hands the guards a lookup that knows one kind more).
 */
export function descriptorOf(kind: string): AnyKindDescriptor {
  if (!isActionKind(kind)) throw new Error(`No money kind is called "${kind}".`);
  return KINDS[kind];
}

/** The kinds of one family, in the registry's order (a buy of either mode). */
export function kindsOf(family: KindFamily): ActionKind[] {
  return ACTION_KINDS.filter((kind) => KINDS[kind].family === family);
}
