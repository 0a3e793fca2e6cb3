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
 * The POST per kind is a table ({@link EXECUTORS}); the result is JSON-safe, so a conversation
 * can run `placeOrder` inside `conversation.external`.
 *
 * @example
 * const result = await placeOrder({ ledger, clients }, actionId, userId);
 * if (result.kind === "placed") await ctx.reply("Order placed");
 * // send / withdraw, after the user typed a fresh code (partner withdraw: the PIN):
 * const sent = await placeOrder({ ledger, clients }, actionId, userId, code);
 * if (sent.kind === "code-rejected") { ask for the code again, then placeOrder(…) again }
 */
import { setTimeout as delay } from "node:timers/promises";
import Big from "big.js";
import { ExchangeError } from "../exchange/errors.ts";
import type { Logger } from "../logger.ts";
import type { PinCheck } from "../partner/pins.ts";
import { NotLoggedInError } from "../session/errors.ts";
import { accountOf, type OrderClient, type OrderClients, partnerOf } from "./clients.ts";
import type { ActionKind, ConfirmRefusal, Ledger, MoneyAction } from "./ledger.ts";
import { findOrder } from "./match.ts";
import { decimalField, recordsOf } from "./partner-read.ts";
import { pairOf } from "./partner-trade-quote.ts";

/** What the exchange's answer to the POST told: the order's transaction, when it says. */
export interface Receipt {
  transactionId?: number;
}

/** Sends one action's order once. Throws what the client throws; retries are placeOrder's business. */
export type Executor = (
  client: OrderClient,
  action: MoneyAction,
  securityCode?: string,
) => Promise<Receipt | undefined>;

const none = async (sent: Promise<unknown>): Promise<undefined> => {
  await sent;
  return undefined;
};

/** The POST of each kind. Exported so a new kind is one entry here. */
export const EXECUTORS: Record<ActionKind, Executor> = {
  buy: (client, action) =>
    none(accountOf(client).buy({ amount: new Big(action.amount), currencyCode: action.currency })),
  sell: (client, action) =>
    none(accountOf(client).sell({ amount: new Big(action.amount), currencyCode: action.currency })),
  send: (client, action, securityCode) => {
    if (action.address === undefined) throw new Error("A send needs an address.");
    if (securityCode === undefined) throw new Error("A send needs a 2FA code typed by the user.");
    return none(
      accountOf(client).send({
        amount: new Big(action.amount),
        address: action.address,
        currencyCode: action.currency,
        securityCode,
      }),
    );
  },
  withdraw: (client, action, securityCode) => {
    if (action.referenceNumber === undefined) throw new Error("A withdrawal needs a reference number.");
    if (securityCode === undefined) throw new Error("A withdrawal needs a 2FA code typed by the user.");
    return none(
      accountOf(client).fiatWithdrawal({
        amount: new Big(action.amount),
        referenceNumber: action.referenceNumber,
        securityCode,
      }),
    );
  },
  "partner-buy": (client, action) => partnerTrade(client, action, "buy"),
  "partner-sell": (client, action) => partnerTrade(client, action, "sell"),
  // The API reference shows no withdraw body: the account by id and by reference, the EUR amount,
  // and the action's key (an exchange that ignores it loses nothing; the POST is never repeated).
  "partner-withdraw": async (client, action) => {
    const { api, partnerUserId } = partnerOf(client);
    const answer = await api.withdraw(partnerUserId, {
      amount: action.amount,
      bank_account_id: Number(action.quote.bankId),
      reference_number: action.referenceNumber,
      idempotency_key: action.idempotencyKey,
    });
    const id = decimalField(recordsOf(answer)[0], ["transaction_id", "id", "transaction.id"]);
    return id === undefined ? {} : { transactionId: id.toNumber() };
  },
};

async function partnerTrade(
  client: OrderClient,
  action: MoneyAction,
  side: "buy" | "sell",
): Promise<Receipt> {
  const { api, partnerUserId } = partnerOf(client);
  if (action.idempotencyKey === undefined) throw new Error("A partner order needs its idempotency key.");
  const order = {
    amount: new Big(action.amount),
    pair: action.quote.pair ?? pairOf(action.currency),
    idempotencyKey: action.idempotencyKey,
  };
  const receipt = await (side === "buy" ? api.buy(partnerUserId, order) : api.sell(partnerUserId, order));
  return { transactionId: receipt.transaction_id };
}

/** Kinds that need a fresh 2FA code with the POST. */
export const NEEDS_CODE: ReadonlySet<ActionKind> = new Set(["send", "withdraw"]);
/** Kinds that go out only after the user's PIN was checked (partner users have no 2FA). */
export const NEEDS_PIN: ReadonlySet<ActionKind> = new Set(["partner-withdraw"]);
/**
 * Kinds whose POST carries an idempotency key the exchange honours (its API reference: partner buy
 * and sell): a lost answer is asked again with the same key. The spec promises it for no other
 * POST, so the rest are sent once and left to reconciliation.
 */
export const RETRIED_WITH_KEY: ReadonlySet<ActionKind> = new Set(["partner-buy", "partner-sell"]);
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
  /** The exchange refused it (or the session had ended): nothing was ordered. */
  | { kind: "failed"; action: MoneyAction; reason: string; loginNeeded: boolean }
  /** send/withdraw: the exchange refused the 2FA code; the action is `confirmed` again — ask for a new code. */
  | { kind: "code-rejected"; action: MoneyAction; reason: string }
  /** partner withdraw: the PIN was wrong (the action stays `confirmed`), locked, or never set. Nothing sent. */
  | { kind: "pin-refused"; action: MoneyAction; check: Exclude<PinCheck, { ok: true }> }
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
  const secretNeeded = NEEDS_CODE.has(action.kind) || NEEDS_PIN.has(action.kind);
  if (secretNeeded && (securityCode === undefined || securityCode === "")) {
    throw new Error(`A ${action.kind} is sent only with a code or PIN the user typed.`);
  }
  if (NEEDS_PIN.has(action.kind) && action.state === "confirmed") {
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
  const attempts = RETRIED_WITH_KEY.has(sent.kind) ? KEYED_ATTEMPTS : 1;
  const sleep = deps.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.clients.use(userId, sent.kind, (client) =>
        EXECUTORS[sent.kind](client, sent, securityCode),
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
      return { kind: "failed", action: sent, reason: exchangeReason(error), loginNeeded: false };
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
