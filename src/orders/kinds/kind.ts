/**
 * What one kind of money action is, as data: everything that differs between a buy, a send or a
 * partner withdrawal, so the pipeline (pipeline.ts), placing (place.ts) and matching (match.ts)
 * look the kind up instead of branching on it. A kind is one file in this folder exporting one
 * {@link KindDescriptor}, listed once in the registry (index.ts); a descriptor that leaves a field
 * out does not compile (test/orders/kinds.test.ts).
 *
 * Its facts are what the rest of the code would otherwise ask by the kind's name: its family
 * (the words it reads like), where its money goes (the allowlist: safety/guards.ts), how it counts
 * against the user's own cap, the conversation that collects its input and the key of its card
 * words (bot/ui/order-card.ts). A kind name compared or listed outside this folder fails
 * test/orders/kind-names.test.ts.
 *
 * @example
 * export const send: KindDescriptor<"send", SendRequest, SendAction> = {
 *   kind: "send", family: "send", api: "account", secret: "code", retriedWithKey: false,
 *   transactionTypes: ["crypto_withdraw"], flow: "send", words: "send",
 *   destination: TO_ADDRESS, cap: sendCap, quote, draft, request, post,
 * };
 */
import Big from "big.js";
import type { ActionCore, ActionProgress } from "../action.ts";
import type { OrderClient } from "../order-client.ts";
import type { KindQuoteResult } from "../refusal.ts";

/** Who a kind's exchange calls go to: the user's own session, or the partner API (partner mode). */
export type KindApi = "account" | "partner";

/** What a kind does, as the user reads it: its refusals, its Freeze sentence, its notices. */
export type KindFamily = "buy" | "sell" | "send" | "withdraw";

/**
 * Where a kind's money goes: an outside address (the allowlist wants it saved and past its
 * cooling-off), a bank account (past its cooling-off when added through the bot), or nowhere
 * outside the user's account (a trade). `of` reads the destination off a request.
 */
export type Destination<R> =
  | { to: "nowhere" }
  | { to: "address"; of(request: R): { currency: string; address: string } }
  | { to: "bank-account"; of(request: R): { referenceNumber: string } };

/** The user's own daily cap a request counts against: one EUR cap per family, a send's per crypto. */
export type OwnCap = { family: "buy" | "sell" | "withdraw" } | { family: "send"; currency: string };

/** How a kind counts against the user's own daily cap (safety/caps.ts). */
export interface CapRule<R, A> {
  of(request: R): OwnCap;
  /** The amount in the cap's currency; undefined while it cannot be known (a sell's EUR value needs its quoted rate). */
  amount(request: R, action: A | undefined): Big | undefined;
}

/**
 * The key of a kind's sentences through the pipeline (`WORDS` in bot/ui/order-card.ts, typed
 * over every key): kinds that read alike share one.
 */
export type CardWords = "trade" | "send" | "withdraw" | "partner-trade" | "partner-withdraw";

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
  family: KindFamily;
  /** Who the exchange is asked as: the user's own session, or the partner API for the linked partner user. */
  api: KindApi;
  secret: SecretStep;
  /**
   * Whether a lost answer to the POST is asked again with the action's idempotency key (the API
   * reference promises it for partner buy and sell only); every other POST is sent once.
   */
  retriedWithKey: boolean;
  /** The exchange's `transaction_type`s of this kind's order, for reconciliation (match.ts). */
  transactionTypes: readonly string[];
  /**
   * The id of the conversation that collects its input (bot/features/); a kind whose money leaves
   * the account makes it a money flow (bot/flows/money-flows.ts).
   */
  flow: string;
  words: CardWords;
  destination: Destination<R>;
  cap: CapRule<R, A>;
  /** The exchange's numbers for the request, or why no quote (nothing recorded). */
  quote(client: OrderClient, request: R): Promise<KindQuoteResult<A["quote"], string>>;
  /** The action to record for a quoted request. */
  draft(request: R, quote: A["quote"]): D;
  /** The request an action was quoted from (to quote it again at today's numbers). */
  request(action: A): R;
  /** The order's one POST; throws what the client throws (placing decides what that means). */
  post(client: OrderClient, action: A, secret: string | undefined): Promise<Receipt | undefined>;
}

/** Any kind's descriptor (the registry's bound; method parameters are compared loosely, as TypeScript does). */
export type AnyKindDescriptor = KindDescriptor<string, { kind: string }, { kind: string; quote: unknown }>;

/** One of the user's EUR caps, counting the amount asked for (a buy's EUR, a withdrawal's). */
export function eurCap(family: "buy" | "withdraw"): CapRule<{ amount: string }, unknown> {
  return { of: () => ({ family }), amount: (request) => new Big(request.amount) };
}

/** The cap of the crypto sent, counting the amount sent. */
export const sendCap: CapRule<{ currency: string; amount: string }, unknown> = {
  of: ({ currency }) => ({ family: "send", currency }),
  amount: (request) => new Big(request.amount),
};

/** The sell cap counts EUR: the crypto amount at the quote's rate, so only once quoted. */
export const sellCap: CapRule<unknown, { amount: string; quote: { rate: string } }> = {
  of: () => ({ family: "sell" }),
  amount: (_request, action) =>
    action === undefined
      ? undefined
      : new Big(action.amount).times(action.quote.rate).round(2, Big.roundHalfUp),
};

/** Nothing leaves the user's account (a trade). */
export const NOWHERE: Destination<unknown> = { to: "nowhere" };

/** An outside address: the request's currency and address. */
export const TO_ADDRESS: Destination<{ currency: string; address: string }> = {
  to: "address",
  of: ({ currency, address }) => ({ currency, address }),
};

/** A bank account of the user's, by the request's RF reference. */
export const TO_BANK_ACCOUNT: Destination<{ referenceNumber: string }> = {
  to: "bank-account",
  of: ({ referenceNumber }) => ({ referenceNumber }),
};

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
