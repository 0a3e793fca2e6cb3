/**
 * Placing a money action at the exchange, exactly once (SECURITY.md, rules 4 and 5):
 *
 * 1. the Confirm is claimed in the store (`Ledger.confirm`; skipped when the caller confirmed
 *    already, e.g. /send confirms on the card and posts after the 2FA code),
 * 2. the send claim is taken and `sent` recorded BEFORE the POST,
 * 3. the POST goes out once, through `sessions.use` — never retried,
 * 4. its answer decides: 2xx → `placed` (and its transaction is looked up), 4xx → `failed` with
 *    the exchange's reason (nothing happened), timeout / broken connection / 5xx → `unknown`
 *    (reconciliation finds out later; see reconcile.ts).
 *
 * The POST per kind is a table ({@link EXECUTORS}); the result is JSON-safe, so a conversation
 * can run `placeOrder` inside `conversation.external`.
 *
 * @example
 * const result = await placeOrder({ ledger, sessions }, actionId, userId);
 * if (result.kind === "placed") await ctx.reply("Order placed");
 * // send / withdraw, after the user typed a fresh code:
 * const sent = await placeOrder({ ledger, sessions }, actionId, userId, code);
 * if (sent.kind === "code-rejected") { ask for the code again, then placeOrder(…) again }
 */
import Big from "big.js";
import type { AccountSession } from "../exchange/account.ts";
import { ExchangeError } from "../exchange/errors.ts";
import type { Logger } from "../logger.ts";
import { NotLoggedInError } from "../session/errors.ts";
import type { Sessions } from "../session/sessions.ts";
import type { ActionKind, ConfirmRefusal, Ledger, MoneyAction } from "./ledger.ts";
import { findTransaction } from "./match.ts";

/** Sends one action's order. Throws what the client throws; must not retry. */
export type Executor = (client: AccountSession, action: MoneyAction, securityCode?: string) => Promise<void>;

/** The POST of each kind. Exported so a new kind is one entry here. */
export const EXECUTORS: Record<ActionKind, Executor> = {
  buy: (client, action) => client.buy({ amount: new Big(action.amount), currencyCode: action.currency }),
  sell: (client, action) => client.sell({ amount: new Big(action.amount), currencyCode: action.currency }),
  send: (client, action, securityCode) => {
    if (action.address === undefined) throw new Error("A send needs an address.");
    if (securityCode === undefined) throw new Error("A send needs a 2FA code typed by the user.");
    return client.send({
      amount: new Big(action.amount),
      address: action.address,
      currencyCode: action.currency,
      securityCode,
    });
  },
  withdraw: (client, action, securityCode) => {
    if (action.referenceNumber === undefined) throw new Error("A withdrawal needs a reference number.");
    if (securityCode === undefined) throw new Error("A withdrawal needs a 2FA code typed by the user.");
    return client.fiatWithdrawal({
      amount: new Big(action.amount),
      referenceNumber: action.referenceNumber,
      securityCode,
    });
  },
};

/** Kinds that need a fresh 2FA code with the POST. */
export const NEEDS_CODE: ReadonlySet<ActionKind> = new Set(["send", "withdraw"]);

export interface PlaceDeps {
  ledger: Ledger;
  sessions: Pick<Sessions, "use">;
  log?: Pick<Logger, "warn" | "error" | "info">;
}

export type PlaceResult =
  /** Not sent: the Confirm was refused (already placed, expired, replaced, cancelled, not yours…). */
  | { kind: "refused"; reason: ConfirmRefusal; action?: MoneyAction }
  /** The exchange accepted the order; `action.transactionId` is set when its transaction was found. */
  | { kind: "placed"; action: MoneyAction }
  /** The exchange refused it (or the session had ended): nothing was ordered. */
  | { kind: "failed"; action: MoneyAction; reason: string; loginNeeded: boolean }
  /** send/withdraw: the exchange refused the 2FA code; the action is `confirmed` again — ask for a new code. */
  | { kind: "code-rejected"; action: MoneyAction; reason: string }
  /** No answer (timeout, broken connection, 5xx): it may have happened; reconciliation will tell. */
  | { kind: "unknown"; action: MoneyAction };

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
  if (NEEDS_CODE.has(action.kind) && (securityCode === undefined || securityCode === "")) {
    throw new Error(`A ${action.kind} is sent only with a 2FA code the user typed.`);
  }
  const sent = await ledger.markSent(actionId);
  if (sent === undefined) {
    const now = await ledger.get(actionId);
    return refused(now?.state === "cancelled" ? "cancelled" : "already", now);
  }

  try {
    await deps.sessions.use(userId, (client) => EXECUTORS[sent.kind](client, sent, securityCode));
  } catch (error) {
    return afterError(deps, sent, error);
  }

  const placed = (await ledger.markPlaced(actionId)) ?? sent;
  // Finding the transaction is a courtesy here; reconciliation does it if this fails.
  try {
    const tx = await deps.sessions.use(userId, (client) => findTransaction(client, ledger, placed));
    if (tx !== undefined) {
      return { kind: "placed", action: (await ledger.markPlaced(actionId, tx.id)) ?? placed };
    }
  } catch (error) {
    deps.log?.warn({ err: error, actionId }, "order placed; its transaction was not found yet");
  }
  return { kind: "placed", action: placed };
}

function refused(reason: ConfirmRefusal, action: MoneyAction | undefined): PlaceResult {
  return action ? { kind: "refused", reason, action } : { kind: "refused", reason };
}

async function afterError(deps: PlaceDeps, sent: MoneyAction, error: unknown): Promise<PlaceResult> {
  const { ledger } = deps;
  if (error instanceof NotLoggedInError) {
    // Either no token before the POST, or a 401 to it: the exchange did nothing either way.
    const action = (await ledger.markFailed(sent.id, "session-expired")) ?? sent;
    return { kind: "failed", action, reason: "session-expired", loginNeeded: true };
  }
  if (error instanceof ExchangeError && !error.outcomeUnknown && error.kind !== "bad-response") {
    const reason = exchangeReason(error);
    const codeOnly =
      NEEDS_CODE.has(sent.kind) &&
      error.kind === "validation" &&
      Object.keys(error.fieldErrors).length > 0 &&
      Object.keys(error.fieldErrors).every((field) => field === "security_code");
    if (codeOnly) {
      const reopened = await ledger.reopenForCode(sent.id);
      if (reopened !== undefined) return { kind: "code-rejected", action: reopened, reason };
    }
    const action = (await ledger.markFailed(sent.id, reason)) ?? sent;
    return { kind: "failed", action, reason, loginNeeded: false };
  }
  // Timeout, network, 5xx, a garbled 2xx, or anything unexpected: it may have happened. Never re-send.
  deps.log?.warn({ err: error, actionId: sent.id }, "order outcome unknown; reconciliation will tell");
  const action = (await ledger.markUnknown(sent.id, describe(error))) ?? sent;
  return { kind: "unknown", action };
}

/** The exchange's own words for a refusal: the first field message, else its message, else the status. */
export function exchangeReason(error: ExchangeError): string {
  const fieldMessage = Object.values(error.fieldErrors).flat()[0];
  if (fieldMessage) return fieldMessage;
  const body = error.body as { message?: unknown } | undefined;
  if (typeof body?.message === "string" && body.message) return body.message;
  return `HTTP ${error.status ?? "?"}`;
}

function describe(error: unknown): string {
  if (error instanceof ExchangeError) return error.kind;
  return error instanceof Error ? error.name : "error";
}
