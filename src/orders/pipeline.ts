/**
 * The money pipeline: every kind of money action (buy, sell, send, withdraw) goes the same way,
 *
 *   request ──quote──▶ `quoted` (the card) ──Confirm──▶ `confirmed` ──[fresh 2FA code]──▶ place ──▶ reconcile
 *
 * and differs only in what its descriptor says (kinds/: its quote, its POST, its secret step, its
 * client, its transaction types), looked up by the action's kind, never branched on. Partner
 * mode's kinds (partner-buy, partner-sell, partner-withdraw) go the same way: their client is the
 * partner API with the linked partner user (clients.ts) instead of the user's session, their
 * secret step is the PIN, and their POST carries an idempotency key fixed in their draft at quote
 * time. Built once in the composition root (src/process/services.ts) around the one Ledger; the bot and
 * the background jobs get this object. A new kind is a descriptor in kinds/ (and its line in the
 * registry: its facts tell the guards, the cards and the flows what it is), its card and words in
 * bot/ui/order-card.ts, its locale keys, and a thin feature that collects its input.
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

import type { Profiles } from "../session/profiles.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import { OrderClients, type PartnerAccess } from "./clients.ts";
import { firstRefusal, type GuardedRefusal, type GuardStage, type OrderGuard } from "./guards.ts";
import {
  ACTION_KINDS,
  type ActionKind,
  type ActionOf,
  kindOf,
  kindsOf,
  type MoneyDraft,
  type RequestMap,
} from "./kinds/index.ts";
import { type ConfirmResult, Ledger, type LedgerOptions, type MoneyAction } from "./ledger.ts";
import type { OrderClient } from "./order-client.ts";
import { type PlaceResult, placeOrder } from "./place.ts";
import type { OrderRequest, QuoteRefusal, QuoteResult } from "./quote.ts";
import { type OrderNotice, reconcileAll, reconcileUser } from "./reconcile.ts";

/** The quote of a request, asked of the exchange through its kind's client, as the action to record. */
export function quoteFor(client: OrderClient, request: OrderRequest): Promise<QuoteResult<MoneyDraft>> {
  return draftOf(request.kind, client, request);
}

async function draftOf<K extends ActionKind>(
  kind: K,
  client: OrderClient,
  request: RequestMap[K],
): Promise<QuoteResult<MoneyDraft>> {
  const descriptor = kindOf(kind);
  const result = await descriptor.quote(client, request);
  if (result.ok) return { ok: true, quote: descriptor.draft(request, result.quote) };
  // A kind refuses under its own name; the registry's type says which names there are.
  return { ok: false, refusal: { ...result.refusal, kind } };
}

export interface QuoteOptions {
  /** A scheduled run's action (a recurring plan): not the user's card, so it replaces none (Ledger.quote). */
  scheduled?: boolean;
}

export type Quoted = { ok: true; action: MoneyAction } | { ok: false; refusal: QuoteRefusal };

export interface OrderPipelineDeps {
  store: Store;
  clock: Clock;
  sessions: Sessions;
  profiles: Profiles;
  log: Logger;
  /** Partner mode only: the partner API, the user links and the PINs. */
  partner?: PartnerAccess;
  /** The wait between attempts of a keyed partner order (tests: none). */
  sleep?: (ms: number) => Promise<void>;
  /** The bot's own rules, asked at the quote, the Confirm and before the send (guards.ts). */
  guards?: readonly OrderGuard[];
}

/** The chat and message of a quote card (recorded by the bot when it shows one). */
export interface CardPlace {
  chatId: number;
  messageId: number;
}

const cardKey = (id: string) => `order-card:${id}`;
/** A card older than this re-quotes at its Confirm anyway; closing it is a courtesy then. */
const CARD_PLACE_TTL_MS = 24 * 60 * 60_000;

/** The card's Confirm: the ledger's answer, or a guard's refusal (the action cancelled). */
export type Decision = ConfirmResult | GuardedRefusal;

export class OrderPipeline {
  /** The one ledger of recorded states (exactly once lives there). */
  readonly ledger: Ledger;
  /** Who the exchange is asked as, per user and kind: the user's session, or the partner API. */
  readonly clients: OrderClients;
  readonly #deps: OrderPipelineDeps;

  constructor(deps: OrderPipelineDeps, options: LedgerOptions = {}) {
    this.#deps = deps;
    this.ledger = new Ledger(deps.store, deps.clock, options);
    this.clients = new OrderClients(deps.sessions, deps.partner);
  }

  /**
   * Asks the exchange for the kind's quote and records it (`quoted`), or says why not (nothing
   * recorded). Account flows pass the session they hold (`{ account }`, asked through
   * sessionCall so an expired session can be renewed in the flow); {@link quoteAs} finds the client.
   */
  async quote(
    client: OrderClient,
    userId: number,
    request: OrderRequest,
    options: QuoteOptions = {},
  ): Promise<Quoted> {
    const refusal = await firstRefusal(this.#guards, "quote", userId, request);
    if (refusal !== undefined) return { ok: false, refusal };
    const result = await quoteFor(client, request);
    if (!result.ok) return result;
    const scheduled = options.scheduled ? { scheduled: true as const } : {};
    return { ok: true, action: await this.ledger.quote({ ...result.quote, userId, ...scheduled }) };
  }

  /** The quote, through the client the request's kind needs (partner flows; a re-quote; a plan's run). */
  quoteAs(userId: number, request: OrderRequest, options: QuoteOptions = {}): Promise<Quoted> {
    return this.clients.use(userId, request.kind, (client) => this.quote(client, userId, request, options));
  }

  /** The same order quoted again at today's numbers (a Confirm that came after the quote's TTL). */
  requote(action: MoneyAction): Promise<Quoted> {
    return this.quoteAs(action.userId, requestOf(action));
  }

  /**
   * The card's Confirm, exactly once across taps, redeliveries, restarts and instances; refused
   * (and the action cancelled) when one of the bot's own rules holds now.
   */
  async confirm(id: string, userId: number): Promise<Decision> {
    const guarded = await this.#guarded("confirm", id, userId);
    return guarded ?? this.ledger.confirm(id, userId);
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

  /**
   * Kinds whose order goes out only with a secret the user types after Confirm: a fresh 2FA code
   * (rule 9), or the PIN of a partner user (partner mode).
   */
  needsCode(action: MoneyAction): boolean {
    return kindOf(action.kind).secret !== "none";
  }

  /** When a partner user's withdrawals unlock again after five wrong PINs; undefined when they are not locked. */
  pinLockedUntil(userId: number): Promise<number | undefined> {
    return this.clients.pins?.lockedUntil(userId) ?? Promise.resolve(undefined);
  }

  /**
   * Sends the confirmed order once (with the user's fresh code or PIN where the kind needs one);
   * refused (and cancelled) when one of the bot's own rules holds now, after the secret step.
   */
  async place(id: string, userId: number, securityCode?: string): Promise<PlaceResult> {
    const guarded = await this.#guarded("place", id, userId);
    if (guarded !== undefined) return { kind: "guarded", action: guarded.action, refusal: guarded.refusal };
    const { ledger, clients } = this;
    const { log, sleep } = this.#deps;
    return placeOrder({ ledger, clients, log, ...(sleep ? { sleep } : {}) }, id, userId, securityCode);
  }

  /**
   * /cancel: the user's latest quote of each kind that is still on a card (`quoted`) or waiting
   * for its code (`confirmed`) is cancelled. The number cancelled.
   */
  async cancelPending(userId: number): Promise<number> {
    return (await this.cancelPendingActions(userId)).length;
  }

  /** {@link cancelPending}, the cancelled actions themselves (a Freeze closes their cards). */
  async cancelPendingActions(userId: number): Promise<MoneyAction[]> {
    const cancelled: MoneyAction[] = [];
    for (const kind of ACTION_KINDS) {
      const action = await this.ledger.latest(userId, kind);
      if (action === undefined || (action.state !== "quoted" && action.state !== "confirmed")) continue;
      const result = await this.ledger.cancel(action.id, userId);
      if (result.ok) cancelled.push(result.action);
    }
    return cancelled;
  }

  /**
   * Where an action's card was shown, so it can be closed from elsewhere (a Freeze tapped in a
   * notice, the operator desk): kept as long as a card is worth closing.
   */
  rememberCard(id: string, place: CardPlace): Promise<void> {
    return this.#deps.store.set(cardKey(id), place, CARD_PLACE_TTL_MS);
  }

  cardOf(id: string): Promise<CardPlace | undefined> {
    return this.#deps.store.get<CardPlace>(cardKey(id));
  }

  /**
   * The user's newest action of any kind still on a card (`quoted`, whatever its TTL: a Confirm
   * past it re-quotes, as a tap would), for a Confirm or Cancel typed instead of tapped.
   */
  async latestQuoted(userId: number): Promise<MoneyAction | undefined> {
    let newest: MoneyAction | undefined;
    for (const kind of ACTION_KINDS) {
      const action = await this.ledger.latest(userId, kind);
      if (action?.state === "quoted" && (newest === undefined || action.createdAt > newest.createdAt)) {
        newest = action;
      }
    }
    return newest;
  }

  /**
   * The amounts of the user's last buy and sell of `currency` that went out (either mode's kinds:
   * one deployment has one mode's), for the buttons under a price alert.
   */
  async lastTradeAmounts(userId: number, currency: string): Promise<{ buy?: string; sell?: string }> {
    const first = async (kinds: readonly ActionKind[]) => {
      for (const kind of kinds) {
        const amount = await this.ledger.lastAmount(userId, kind, currency);
        if (amount !== undefined) return amount;
      }
      return undefined;
    };
    const [buy, sell] = await Promise.all([first(kindsOf("buy")), first(kindsOf("sell"))]);
    return { ...(buy === undefined ? {} : { buy }), ...(sell === undefined ? {} : { sell }) };
  }

  /** Whether the user may have orders whose outcome is still open (one read, Ledger.hasOpen). */
  hasOpen(userId: number): Promise<boolean> {
    return this.ledger.hasOpen(userId);
  }

  /** The user's open orders, reconciled now (the user came back). */
  reconcileUser(userId: number): Promise<OrderNotice[]> {
    return reconcileUser(this.#reconcileDeps(), userId);
  }

  /** Everyone's open orders (the background tick, and at start). */
  reconcileAll(): Promise<OrderNotice[]> {
    return reconcileAll(this.#reconcileDeps());
  }

  get #guards(): readonly OrderGuard[] {
    return this.#deps.guards ?? [];
  }

  /**
   * A guard's refusal of a recorded action that has not been sent (quoted, or confirmed and
   * waiting for its secret), with the action cancelled; undefined lets it go on. A cancelled one
   * is asked too, so a tap on a card a Freeze cancelled (or a PIN typed for it) is told why, not
   * only "cancelled". Actions of another user, or already sent, are left to the ledger's own answer.
   */
  async #guarded(stage: GuardStage, id: string, userId: number): Promise<GuardedRefusal | undefined> {
    if (this.#guards.length === 0) return undefined;
    const action = await this.ledger.get(id);
    if (action === undefined || action.userId !== userId) return undefined;
    if (action.state !== "quoted" && action.state !== "confirmed" && action.state !== "cancelled") {
      return undefined;
    }
    const refusal = await firstRefusal(this.#guards, stage, userId, requestOf(action), action);
    if (refusal === undefined) return undefined;
    const cancelled = await this.ledger.cancel(id, userId);
    return { ok: false, reason: "guarded", refusal, action: cancelled.ok ? cancelled.action : action };
  }

  #reconcileDeps() {
    const { profiles, clock, log } = this.#deps;
    return { ledger: this.ledger, clients: this.clients, profiles, clock, log };
  }
}

/** The request an action was quoted from (to quote it again). */
export function requestOf(action: MoneyAction): OrderRequest {
  return requestAs(action.kind, action);
}

function requestAs<K extends ActionKind>(kind: K, action: ActionOf<K>): RequestMap[K] {
  return kindOf(kind).request(action);
}
