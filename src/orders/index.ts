/**
 * The money-action core (knows nothing of Telegram): the Ledger of recorded states, placing an
 * order exactly once, matching it to its exchange transaction, and reconciliation.
 *
 * @example
 * import { Ledger, placeOrder, reconcileUser } from "../orders/index.ts";
 * const ledger = new Ledger(deps.store, deps.clock);
 * const action = await ledger.quote({ userId, kind: "send", currency: "btc", amount: "0.01", address, quote: {} });
 * // … user taps Confirm (callback data carries action.id) …
 * const confirmed = await ledger.confirm(action.id, userId);
 * // … user types a fresh 2FA code …
 * const result = await placeOrder({ ledger, sessions: deps.sessions }, action.id, userId, code);
 */
export * from "./ledger.ts";
export * from "./match.ts";
export * from "./place.ts";
export * from "./reconcile.ts";
