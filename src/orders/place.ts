/**
 * Placing a money action at the exchange, exactly once (SECURITY.md, rules 4 and 5):
 *
 * 1. the Confirm is claimed in the store (`Ledger.confirm`; skipped when the caller confirmed
 *    already, e.g. /send confirms on the card and posts after the 2FA code),
 * 2. the send claim is taken and `sent` recorded BEFORE the POST,
 * 3. the POST goes out through the client the kind needs (clients.ts). Account kinds: once, never
 *    retried (the account API has no idempotency key). Partner buy and sell: with the action's
 *    `idempotency_key`, fixed in the ledger when the action was recorded, so a lost answer
 *    (timeout, broken connection, 5xx) is asked again with the same key, a few times with
 *    backoff, until the exchange answers (the exchange's API reference: the same key is the same order),
 * 4. its answer decides: 2xx → `placed` (with the transaction id the partner API returns, or
 *    looked up), 4xx → `failed` with the exchange's reason (nothing happened), still no answer
 *    → `unknown` (reconciliation finds out later; see reconcile.ts).
 *
 * Send and withdraw go out only with a fresh 2FA code the user typed; a partner withdrawal only
 * after the user's PIN checked here (partner/pins.ts: five wrong lock withdrawals for 15 minutes).
 *
 * The POST, the secret step and whether a lost answer is asked again are the kind's descriptor's
 * (kinds/); the result is JSON-safe, so a conversation can run `placeOrder` inside
 * `conversation.external`.
 *
 * @example
 * const result = await placeOrder({ ledger, clients }, actionId, userId);
 * if (result.kind === "placed") await ctx.reply("Order placed");
 * // send / withdraw, after the user typed a fresh code (partner withdraw: the PIN):
 * const sent = await placeOrder({ ledger, clients }, actionId, userId, code);
 * if (sent.kind === "code-rejected") { ask for the code again, then placeOrder(…) again }
 */
import { setTimeout as delay } from "node:timers/promises";
import { ExchangeError, refusalOf } from "../exchange/errors.ts";
import type { PinCheck } from "../partner/pins.ts";
import { NotLoggedInError } from "../session/errors.ts";
import type { Logger } from "../support/logger.ts";
import type { OrderClients } from "./clients.ts";
import { type ActionKind, type ActionOf, kindOf } from "./kinds/index.ts";
import type { Receipt } from "./kinds/kind.ts";
import type { ConfirmRefusal, Ledger, MoneyAction } from "./ledger.ts";
import { findOrder } from "./match.ts";
import type { OrderClient } from "./order-client.ts";
import type { QuoteRefusal } from "./quote.ts";

export type { Receipt } from "./kinds/kind.ts";

/** The kind's POST (its descriptor's), for an action of that kind. */
function postAs<K extends ActionKind>(
  kind: K,
  client: OrderClient,
  action: ActionOf<K>,
  secret: string | undefined,
): Promise<Receipt | undefined> {
  return kindOf(kind).post(client, action, secret);
}

/** Attempts of a keyed POST before its outcome is left to reconciliation, and the first wait. */
export const KEYED_ATTEMPTS = 4;
const KEYED_BACKOFF_MS = 500;

export interface PlaceDeps {
  ledger: Ledger;
  clients: Pick<OrderClients, "use" | "pins">;
  log?: Pick<Logger, "warn" | "error" | "info">;
  /** The wait between keyed attempts (tests: none). */
  sleep?: (ms: number) => Promise<void>;
}

export type PlaceResult =
  /** Not sent: the Confirm was refused (already placed, expired, replaced, cancelled, not yours…). */
  | { kind: "refused"; reason: ConfirmRefusal; action?: MoneyAction }
  /** The exchange accepted the order; `action.transactionId` is set when its transaction was found. */
  | { kind: "placed"; action: MoneyAction }
  /**
   * The exchange refused it (or the session had ended): nothing was ordered. `retryAfterMs`: it
   * was a 429 (too many requests), so the same order may be asked again after that long.
   */
  | { kind: "failed"; action: MoneyAction; reason: string; loginNeeded: boolean; retryAfterMs?: number }
  /** send/withdraw: the exchange refused the 2FA code; the action is `confirmed` again — ask for a new code. */
  | { kind: "code-rejected"; action: MoneyAction; reason: string }
  /** partner withdraw: the PIN was wrong (the action stays `confirmed`), locked, or never set. Nothing sent. */
  | { kind: "pin-refused"; action: MoneyAction; check: Exclude<PinCheck, { ok: true }> }
  /** No answer (timeout, broken connection, 5xx): it may have happened; reconciliation will tell. */
  | { kind: "unknown"; action: MoneyAction }
  /** One of the bot's own rules refused it just before the send (OrderPipeline.place): cancelled, nothing sent. */
  | { kind: "guarded"; action: MoneyAction; refusal: QuoteRefusal };

/**
 * Confirms (if still `quoted`) and sends the action's order exactly once. `securityCode` is the
 * code the user just typed, for send and withdraw only.
 */
export async function placeOrder(
  deps: PlaceDeps,
  actionId: string,
  userId: number,
  securityCode?: string,
): Promise<PlaceResult> {
  const { ledger } = deps;
  let action = await ledger.get(actionId);
  if (action === undefined) return { kind: "refused", reason: "unknown" };
  if (action.userId !== userId) return { kind: "refused", reason: "not-yours", action };
  if (action.state === "quoted") {
    const confirmed = await ledger.confirm(actionId, userId);
    if (!confirmed.ok) return refused(confirmed.reason, confirmed.action);
    action = confirmed.action;
  }
  const { secret } = kindOf(action.kind);
  if (secret !== "none" && (securityCode === undefined || securityCode === "")) {
    throw new Error(`A ${action.kind} is sent only with a code or PIN the user typed.`);
  }
  if (secret === "pin" && action.state === "confirmed") {
    const pins = deps.clients.pins;
    if (pins === undefined) throw new Error("A partner withdrawal needs the PINs of partner mode.");
    const check = await pins.verify(userId, securityCode ?? "");
    if (!check.ok) return { kind: "pin-refused", action, check };
  }
  const sent = await ledger.markSent(actionId);
  if (sent === undefined) {
    const now = await ledger.get(actionId);
    return refused(now?.state === "cancelled" ? "cancelled" : "already", now);
  }

  let receipt: Receipt | undefined;
  try {
    receipt = await post(deps, sent, userId, securityCode);
  } catch (error) {
    return afterError(deps, sent, error);
  }

  let placed: MoneyAction;
  try {
    if (
      receipt?.transactionId !== undefined &&
      (await ledger.claimTransaction(receipt.transactionId, actionId))
    ) {
      return { kind: "placed", action: (await ledger.markPlaced(actionId, receipt.transactionId)) ?? sent };
    }
    placed = (await ledger.markPlaced(actionId)) ?? sent;
  } catch (error) {
    // The exchange took the order: that is what the user must hear, whatever the store does now.
    // The record stays `sent`, and reconciliation moves it on from the exchange's transactions.
    deps.log?.error({ err: error, actionId }, "order placed; recording it failed, reconciliation will");
    return { kind: "placed", action: { ...sent, state: "placed" } };
  }
  // Finding the transaction is a courtesy here; reconciliation does it if this fails.
  try {
    const tx = await deps.clients.use(userId, placed.kind, (client) => findOrder(client, ledger, placed));
    if (tx !== undefined) {
      return { kind: "placed", action: (await ledger.markPlaced(actionId, tx.id)) ?? placed };
    }
  } catch (error) {
    deps.log?.warn({ err: error, actionId }, "order placed; its transaction was not found yet");
  }
  return { kind: "placed", action: placed };
}

/**
 * The POST, once; a keyed kind's again with the same key while the answer is lost, with doubling
 * waits. Throws the last error when the outcome stays unknown (or the first that is not a loss).
 */
async function post(
  deps: PlaceDeps,
  sent: MoneyAction,
  userId: number,
  securityCode: string | undefined,
): Promise<Receipt | undefined> {
  const attempts = kindOf(sent.kind).retriedWithKey ? KEYED_ATTEMPTS : 1;
  const sleep = deps.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.clients.use(userId, sent.kind, (client) =>
        postAs(sent.kind, client, sent, securityCode),
      );
    } catch (error) {
      const lost = error instanceof ExchangeError && error.outcomeUnknown;
      if (!lost || attempt >= attempts) throw error;
      deps.log?.warn(
        { err: error, actionId: sent.id, attempt },
        "order answer lost; asking again with its key",
      );
      await sleep(KEYED_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
}

function refused(reason: ConfirmRefusal, action: MoneyAction | undefined): PlaceResult {
  return action ? { kind: "refused", reason, action } : { kind: "refused", reason };
}

/**
 * What the exchange said about a sent order is the user's answer; recording it is the Ledger's
 * business. A store failure here (after the POST) must not turn into "nothing was done, try again":
 * the record stays `sent`, reconciliation settles it, and the outcome known now is returned.
 */
async function afterError(deps: PlaceDeps, sent: MoneyAction, error: unknown): Promise<PlaceResult> {
  try {
    return await recordError(deps, sent, error);
  } catch (storeError) {
    deps.log?.error({ err: storeError, actionId: sent.id }, "recording an order's outcome failed");
    if (error instanceof NotLoggedInError) {
      return { kind: "failed", action: sent, reason: "session-expired", loginNeeded: true };
    }
    if (error instanceof ExchangeError && !error.outcomeUnknown && error.kind !== "bad-response") {
      return { kind: "failed", action: sent, reason: refusalOf(error).said, loginNeeded: false };
    }
    return { kind: "unknown", action: { ...sent, state: "unknown" } };
  }
}

async function recordError(deps: PlaceDeps, sent: MoneyAction, error: unknown): Promise<PlaceResult> {
  const { ledger } = deps;
  if (error instanceof NotLoggedInError) {
    // Either no token before the POST, or a 401 to it: the exchange did nothing either way.
    const action = (await ledger.markFailed(sent.id, "session-expired")) ?? sent;
    return { kind: "failed", action, reason: "session-expired", loginNeeded: true };
  }
  if (error instanceof ExchangeError && !error.outcomeUnknown && error.kind !== "bad-response") {
    const reason = refusalOf(error).said;
    const codeOnly =
      kindOf(sent.kind).secret === "code" &&
      error.kind === "validation" &&
      Object.keys(error.fieldErrors).length > 0 &&
      Object.keys(error.fieldErrors).every((field) => field === "security_code");
    if (codeOnly) {
      const reopened = await ledger.reopenForCode(sent.id);
      if (reopened !== undefined) return { kind: "code-rejected", action: reopened, reason };
    }
    const action = (await ledger.markFailed(sent.id, reason)) ?? sent;
    if (error.kind === "rate-limited") {
      return {
        kind: "failed",
        action,
        reason,
        loginNeeded: false,
        retryAfterMs: error.retryAfterMs ?? 1_000,
      };
    }
    return { kind: "failed", action, reason, loginNeeded: false };
  }
  // Timeout, network, 5xx, a garbled 2xx, or anything unexpected: it may have happened. Never re-send.
  deps.log?.warn({ err: error, actionId: sent.id }, "order outcome unknown; reconciliation will tell");
  const action = (await ledger.markUnknown(sent.id, describe(error))) ?? sent;
  return { kind: "unknown", action };
}

function describe(error: unknown): string {
  if (error instanceof ExchangeError) return error.kind;
  return error instanceof Error ? error.name : "error";
}
