/**
 * The recorded shape of a money action, common to every kind: its id, owner, amount, timing and
 * where it stands in the ledger's state machine (ledger.ts). What differs by kind (its quote, its
 * address or bank reference, its idempotency key) is added by the kind's descriptor (kinds/).
 */

export type ActionState =
  /** A quote was shown; nothing is decided. */
  | "quoted"
  /** The user confirmed; the order is about to be sent (send/withdraw: waiting for the 2FA code). */
  | "confirmed"
  /** Recorded BEFORE the POST: the order may be at the exchange now (rule 5). */
  | "sent"
  /** The exchange accepted the order; `transactionId` once found. */
  | "placed"
  /** The exchange's transaction ended in `success`. */
  | "settled"
  /** Refused by the exchange (nothing happened), or its transaction ended in `error`. */
  | "failed"
  /** The POST timed out or the connection broke: it may or may not have happened. Never re-sent. */
  | "unknown"
  /** Reconciliation proved a sent/unknown order never reached the exchange. */
  | "not-placed"
  /** The quote's TTL passed before Confirm. */
  | "expired"
  /** The user cancelled (or changed the amount) before anything was sent. */
  | "cancelled"
  /** A newer quote of the same kind was made for the same user. */
  | "replaced";

/** States in which the order may exist at the exchange and its outcome is not known yet. */
export const OPEN_STATES: readonly ActionState[] = ["sent", "unknown", "placed"];
/** States that never change again. */
export const FINAL_STATES: readonly ActionState[] = [
  "settled",
  "failed",
  "not-placed",
  "expired",
  "cancelled",
  "replaced",
];

/** What the ledger's transitions change (and nothing else: a kind's own fields are fixed at quote time). */
export interface ActionProgress {
  state: ActionState;
  confirmedAt?: number;
  sentAt?: number;
  placedAt?: number;
  finishedAt?: number;
  transactionId?: number;
  outcome?: "success" | "error";
  /** Why it failed, in the exchange's words when it gave any. */
  failure?: string;
  /** The fee the exchange reports having taken (decimal text), when its transaction names one. */
  feeTaken?: string;
  feeTakenCurrency?: string;
}

/** What a kind's request fixes of its action, beside the quote. */
export interface ActionTerms {
  /** Lower-case currency code of the crypto (buy, sell, send) or "eur" (withdraw). */
  currency: string;
  /** Decimal text, as sent to the exchange: EUR for buy and withdraw, the crypto for sell and send. */
  amount: string;
}

export interface ActionCore extends ActionTerms, ActionProgress {
  /** Random, url-safe, 12 characters: also the nonce in callback data. */
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  /**
   * Recorded by a scheduled run (a recurring plan, plans/runner.ts), never shown on a card: it
   * neither replaces the user's card of its kind nor is replaced by one.
   */
  scheduled?: true;
}

/**
 * One kind's action: the common core, the kind, what the card showed (`quote`, decimal strings,
 * for the card and the notices) and the kind's own terms `T` (send: the address…).
 */
export type KindAction<K extends string, Q, T = unknown> = ActionCore & { kind: K; quote: Q } & T;

/** Partner kinds: the `idempotency_key` of the order, fixed when the action is recorded (before any POST). */
export interface Keyed {
  idempotencyKey: string;
}
