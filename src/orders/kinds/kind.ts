/**
 * What one kind of money action is, as data: everything that differs between a buy, a send or a
 * partner withdrawal, so the pipeline (pipeline.ts), placing (place.ts) and matching (match.ts)
 * look the kind up instead of branching on it. A kind is one file in this folder exporting one
 * {@link KindDescriptor}, listed once in the registry (index.ts); a descriptor that leaves a field
 * out does not compile (test/orders/kinds.test.ts).
 *
 * @example
 * export const send: KindDescriptor<"send", SendRequest, SendAction> = {
 *   kind: "send", api: "account", secret: "code", retriedWithKey: false,
 *   transactionTypes: ["crypto_withdraw"], quote, draft, request, post,
 * };
 */
import type { ActionCore, ActionProgress } from "../action.ts";
import type { OrderClient } from "../clients.ts";
import type { QuoteResult } from "../quote.ts";

/** What the exchange's answer to the POST told: the order's transaction, when it says. */
export interface Receipt {
  transactionId?: number;
}

/**
 * The secret the user types after Confirm before the order goes out: none, a fresh 2FA code sent
 * with the POST (rule 9), or the partner user's PIN, checked by the bot before the send claim.
 */
export type SecretStep = "none" | "code" | "pin";

/** What the ledger records of a new action beside what it adds itself (id, owner, times, state). */
export type Draft<A> = Omit<A, keyof ActionProgress | Exclude<keyof ActionCore, "currency" | "amount">>;

export interface KindDescriptor<
  K extends string,
  R extends { kind: string },
  A extends { kind: string; quote: unknown },
  /** The draft's type, as the registry names it (the default is the same type). */
  D = Draft<A>,
> {
  kind: K;
  /** Who the exchange is asked as: the user's own session, or the partner API for the linked partner user. */
  api: "account" | "partner";
  secret: SecretStep;
  /**
   * Whether a lost answer to the POST is asked again with the action's idempotency key (the API
   * reference promises it for partner buy and sell only); every other POST is sent once.
   */
  retriedWithKey: boolean;
  /** The exchange's `transaction_type`s of this kind's order, for reconciliation (match.ts). */
  transactionTypes: readonly string[];
  /** The exchange's numbers for the request, or why no quote (nothing recorded). */
  quote(client: OrderClient, request: R): Promise<QuoteResult<A["quote"]>>;
  /** The action to record for a quoted request. */
  draft(request: R, quote: A["quote"]): D;
  /** The request an action was quoted from (to quote it again at today's numbers). */
  request(action: A): R;
  /** The order's one POST; throws what the client throws (placing decides what that means). */
  post(client: OrderClient, action: A, secret: string | undefined): Promise<Receipt | undefined>;
}

/** Any kind's descriptor (the registry's bound; method parameters are compared loosely, as TypeScript does). */
export type AnyKindDescriptor = KindDescriptor<string, { kind: string }, { kind: string; quote: unknown }>;

/** A POST whose answer says nothing the ledger keeps. */
export async function noReceipt(sent: Promise<unknown>): Promise<undefined> {
  await sent;
  return undefined;
}

/** The secret a kind needs, or a programming error when the caller has none. */
export function secretOf(kind: string, secret: string | undefined): string {
  if (secret === undefined || secret === "")
    throw new Error(`A ${kind} is sent only with a secret the user typed.`);
  return secret;
}
