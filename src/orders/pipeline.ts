/**
 * The money pipeline: every kind of money action (buy, sell, send, withdraw) goes the same way,
 *
 *   request ──quote──▶ `quoted` (the card) ──Confirm──▶ `confirmed` ──[fresh 2FA code]──▶ place ──▶ reconcile
 *
 * and differs only in its quote ({@link quoteFor}) and its POST (`EXECUTORS`, place.ts). Built once
 * in the composition root (src/services.ts) around the one Ledger; the bot and the background
 * jobs get this object. A new kind is a new quote and executor here, a card formatter in
 * bot/ui/order-card.ts, and a thin feature that collects its input.
 *
 * Knows nothing of Telegram: users are numbers, sentences are the bot's business.
 *
 * @example
 * const quoted = await sessions.use(userId, (client) => orders.quote(client, userId, request));
 * if (quoted.ok) showCard(quoted.action);
 * // the card's Confirm, answered from the store (any instance, any time):
 * const confirmed = await orders.confirm(id, userId);
 * if (confirmed.ok && !orders.needsCode(confirmed.action)) await orders.place(id, userId);
 */
import type { Clock } from "../clock.ts";
import type { AccountSession } from "../exchange/account.ts";
import type { Logger } from "../logger.ts";
import type { Profiles } from "../session/profiles.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Store } from "../store/store.ts";
import {
  type ActionKind,
  type ConfirmResult,
  Ledger,
  type LedgerOptions,
  type MoneyAction,
} from "./ledger.ts";
import { EXECUTORS, NEEDS_CODE, type PlaceResult, placeOrder } from "./place.ts";
import type { OrderRequest, QuoteRefusal, QuoteResult } from "./quote.ts";
import { type OrderNotice, reconcileAll, reconcileUser } from "./reconcile.ts";
import { sendQuote } from "./send-quote.ts";
import { tradeQuote } from "./trade-quote.ts";
import { withdrawQuote } from "./withdraw-quote.ts";

/** The quote of each kind, asked of the exchange with the user's own session. A new kind: a new case. */
export function quoteFor(
  client: AccountSession,
  request: OrderRequest,
): Promise<QuoteResult<Record<string, string>>> {
  switch (request.kind) {
    case "buy":
    case "sell":
      return tradeQuote(client, request);
    case "send":
      return sendQuote(client, request);
    case "withdraw":
      return withdrawQuote(client, request);
  }
}

export type Quoted = { ok: true; action: MoneyAction } | { ok: false; refusal: QuoteRefusal };

export interface OrderPipelineDeps {
  store: Store;
  clock: Clock;
  sessions: Sessions;
  profiles: Profiles;
  log: Logger;
}

export class OrderPipeline {
  /** The one ledger of recorded states (exactly once lives there). */
  readonly ledger: Ledger;
  readonly #deps: OrderPipelineDeps;

  constructor(deps: OrderPipelineDeps, options: LedgerOptions = {}) {
    this.#deps = deps;
    this.ledger = new Ledger(deps.store, deps.clock, options);
  }

  /** Asks the exchange for the kind's quote and records it (`quoted`), or says why not (nothing recorded). */
  async quote(client: AccountSession, userId: number, request: OrderRequest): Promise<Quoted> {
    const result = await quoteFor(client, request);
    if (!result.ok) return result;
    const action = await this.ledger.quote({
      userId,
      kind: request.kind,
      currency: request.kind === "withdraw" ? "eur" : request.currency,
      amount: request.amount,
      ...(request.kind === "send" ? { address: request.address } : {}),
      ...(request.kind === "withdraw" ? { referenceNumber: request.referenceNumber } : {}),
      quote: result.quote,
    });
    return { ok: true, action };
  }

  /** The same order quoted again at today's numbers (a Confirm that came after the quote's TTL). */
  requote(action: MoneyAction): Promise<Quoted> {
    return this.#deps.sessions.use(action.userId, (client) =>
      this.quote(client, action.userId, requestOf(action)),
    );
  }

  /** The card's Confirm, exactly once across taps, redeliveries, restarts and instances. */
  confirm(id: string, userId: number): Promise<ConfirmResult> {
    return this.ledger.confirm(id, userId);
  }

  /** The card's Cancel (or Change amount), or /cancel while a code is awaited: nothing is sent after it. */
  cancel(id: string, userId: number): Promise<ConfirmResult> {
    return this.ledger.cancel(id, userId);
  }

  get(id: string): Promise<MoneyAction | undefined> {
    return this.ledger.get(id);
  }

  /** True exactly once per action and notice kind. */
  claimNotice(id: string, kind: string): Promise<boolean> {
    return this.ledger.claimNotice(id, kind);
  }

  /** Kinds whose order goes out only with a fresh 2FA code the user types (rule 9). */
  needsCode(action: MoneyAction): boolean {
    return NEEDS_CODE.has(action.kind);
  }

  /** Sends the confirmed order once (with the user's fresh code where the kind needs one). */
  place(id: string, userId: number, securityCode?: string): Promise<PlaceResult> {
    const { ledger } = this;
    const { sessions, log } = this.#deps;
    return placeOrder({ ledger, sessions, log }, id, userId, securityCode);
  }

  /**
   * /cancel: the user's latest quote of each kind that is still on a card (`quoted`) or waiting
   * for its code (`confirmed`) is cancelled. The number cancelled.
   */
  async cancelPending(userId: number): Promise<number> {
    let cancelled = 0;
    for (const kind of Object.keys(EXECUTORS) as ActionKind[]) {
      const action = await this.ledger.latest(userId, kind);
      if (action === undefined || (action.state !== "quoted" && action.state !== "confirmed")) continue;
      if ((await this.ledger.cancel(action.id, userId)).ok) cancelled++;
    }
    return cancelled;
  }

  /**
   * The user's newest action of any kind still on a card (`quoted`, whatever its TTL: a Confirm
   * past it re-quotes, as a tap would), for a Confirm or Cancel typed instead of tapped.
   */
  async latestQuoted(userId: number): Promise<MoneyAction | undefined> {
    let newest: MoneyAction | undefined;
    for (const kind of Object.keys(EXECUTORS) as ActionKind[]) {
      const action = await this.ledger.latest(userId, kind);
      if (action?.state === "quoted" && (newest === undefined || action.createdAt > newest.createdAt)) {
        newest = action;
      }
    }
    return newest;
  }

  /** The user's open orders, reconciled now (the user came back). */
  reconcileUser(userId: number): Promise<OrderNotice[]> {
    return reconcileUser(this.#reconcileDeps(), userId);
  }

  /** Everyone's open orders (the background tick, and at start). */
  reconcileAll(): Promise<OrderNotice[]> {
    return reconcileAll(this.#reconcileDeps());
  }

  #reconcileDeps() {
    const { sessions, profiles, clock, log } = this.#deps;
    return { ledger: this.ledger, sessions, profiles, clock, log };
  }
}

/** The request an action was quoted from (to quote it again). */
export function requestOf(action: MoneyAction): OrderRequest {
  switch (action.kind) {
    case "buy":
    case "sell":
      return { kind: action.kind, currency: action.currency, amount: action.amount };
    case "send":
      return {
        kind: "send",
        currency: action.currency,
        address: action.address ?? "",
        amount: action.amount,
      };
    case "withdraw":
      return { kind: "withdraw", amount: action.amount, referenceNumber: action.referenceNumber ?? "" };
  }
}
