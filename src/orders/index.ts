/**
 * The money-action core (knows nothing of Telegram): the quotes of each kind, the Ledger of
 * recorded states, placing an order exactly once, matching it to its exchange transaction, and
 * reconciliation, behind one OrderPipeline (pipeline.ts) built in the composition root.
 *
 * @example
 * import { OrderPipeline } from "../orders/index.ts";
 * const orders = new OrderPipeline({ store, clock, sessions, profiles, log });
 * const quoted = await sessions.use(userId, (client) => orders.quote(client, userId, request));
 * // … user taps Confirm (callback data carries the action id) …
 * const confirmed = await orders.confirm(id, userId);
 * // … send / withdraw: the user types a fresh 2FA code …
 * const result = await orders.place(id, userId, code);
 */
export * from "./action.ts";
export * from "./kinds/index.ts";
export * from "./ledger.ts";
export * from "./limit-left.ts";
export * from "./match.ts";
export * from "./pipeline.ts";
export * from "./place.ts";
export * from "./quote.ts";
export * from "./reconcile.ts";
