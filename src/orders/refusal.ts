/**
 * Why no quote, below the kinds: a reason and its figures as raw decimals and codes (formatted by
 * the bot), and the shape a kind's quote answers in. Kept apart from the registry (kinds/index.ts)
 * so the kinds can build their refusals without importing the list they are part of.
 */

export type RefusalReason =
  /** Trading or sending the asset is closed at the exchange. */
  | "closed"
  /** Below the exchange's minimum. */
  | "minimum"
  /** A sell whose fee eats what it would bring. */
  | "fee"
  /** More than the balance (fees included). */
  | "balance"
  /** More than is left of the limit (`period` says which ceiling). */
  | "limit"
  /** withdraw: the bank account is gone, or not verified. */
  | "bank-gone"
  | "bank-pending"
  /** send with the allowlist on: the address is not saved (`currency`). */
  | "address-unsaved"
  /** send: the saved address is still cooling off, until `at` (ms since the epoch). */
  | "address-cooling"
  /** withdraw: the bank account added through the bot is still cooling off, until `at`. */
  | "bank-cooling"
  /** Over the user's own daily cap: `cap`, `left` and `currency` (safety/caps.ts). */
  | "own-limit"

  /** The user's money actions are frozen (safety/freezes.ts): refused at every stage until unfrozen. */
  | "frozen";

/**
 * Reasons no other amount fixes (the bot's own rules about the user, not the order): a flow that
 * asks for an amount says the refusal and ends instead of asking again.
 */
export const STANDING_REASONS: ReadonlySet<RefusalReason> = new Set<RefusalReason>(["frozen"]);

/** Why no quote for an order of kind `K`. */
export interface KindRefusal<K extends string> {
  kind: K;
  reason: RefusalReason;
  vars: Record<string, string>;
}

/** A kind's answer to a request: its quote, or why none. */
export type KindQuoteResult<Q, K extends string> =
  | { ok: true; quote: Q }
  | { ok: false; refusal: KindRefusal<K> };

export function refuse<K extends string>(kind: K, reason: RefusalReason, vars: Record<string, string> = {}) {
  return { ok: false as const, refusal: { kind, reason, vars } };
}
