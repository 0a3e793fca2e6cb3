/**
 * /buy and /sell (issue 4 §1): currency (buttons from GET v1/prices, or typed), amount (EUR for a
 * buy, the crypto for a sell; parsed by money.ts), then a quote card with Confirm / Change amount /
 * Cancel. `/buy btc 100` and `/sell eth 0.5` skip the steps they answer.
 *
 * The conversation only gathers and checks the input and shows the card; it ends there. The
 * card's buttons are handled OUTSIDE any conversation, from the store (src/orders/): so a tap that
 * arrives after the flow ended, after a restart, twice, or on another instance is answered the
 * same way, and one Confirm is one order (PRODUCT.md, rules 4, 5, 8). A tap on a card past its TTL
 * re-quotes instead of ordering; a tap on a card replaced by a newer quote is refused.
 *
 * Also here: `orderWatch`, the "user came back" reconciliation check (installed before the
 * features in bot.ts).
 */

import { createConversation } from "@grammyjs/conversations";
import Big from "big.js";
import { Composer, GrammyError, type MiddlewareFn } from "grammy";
import type { AccountSession } from "../../exchange/account.ts";
import { formatAmount, parseAmount } from "../../money.ts";
import { Ledger, type MoneyAction } from "../../orders/ledger.ts";
import { placeOrder } from "../../orders/place.ts";
import { reconcileUser } from "../../orders/reconcile.ts";
import { type TradeKind, type TradeRefusal, tradeQuote } from "../../orders/trade-quote.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { sessionCall } from "../flows/session-call.ts";
import { requireLogin } from "../middleware/require-login.ts";
import {
  type CurrencyChoice,
  choicesOf,
  currencyKeyboard,
  knownCodes,
  resolveCurrency,
} from "../ui/currency-choice.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import { CARD_CALLBACK, orderNoticeText, quoteCardKeyboard, quoteCardText } from "../ui/quote-card.ts";

export const TRADE_FLOW = "trade";
/** A currency button of the flow: `trade:p:buy:btc`. */
export const PICK_CALLBACK = /^trade:p:(buy|sell):([a-z0-9]{1,16})$/;
const pickData = (kind: TradeKind, code: string) => `trade:p:${kind}:${code}`;
const FLOW_TIMEOUT_MS = 15 * 60_000;
/** How often (at most) a returning user's open orders are checked. */
const WATCH_INTERVAL_MS = 60_000;

type Translate = (key: string, variables?: Record<string, string | number>) => string;
type TradeDeps = Pick<BotDeps, "sessions" | "store" | "clock" | "log" | "profiles">;

/** What is known when the flow starts; JSON-safe (a conversation argument). */
export interface TradeStart {
  kind: TradeKind;
  currency?: string;
  /** As typed: parsed by parseAmount once the currency is known. */
  amount?: string;
}

type Prepared = { ok: true; action: MoneyAction } | { ok: false; refusal: TradeRefusal };

export function tradeFeature(
  deps: TradeDeps,
  flows: Composer<BotContext>,
  options: { ledger?: Ledger } = {},
): Composer<BotContext> {
  const ledger = options.ledger ?? new Ledger(deps.store, deps.clock);
  const composer = new Composer<BotContext>();

  /** Asks the exchange for a quote and records it (state `quoted`), or says why not. */
  async function prepare(
    client: AccountSession,
    userId: number,
    kind: TradeKind,
    currency: string,
    amount: string,
  ): Promise<Prepared> {
    const result = await tradeQuote(client, { kind, currency, amount });
    if (!result.ok) return result;
    const action = await ledger.quote({ userId, kind, currency, amount, quote: result.quote });
    return { ok: true, action };
  }

  flows.use(
    createConversation(tradeFlow(deps, prepare), { id: TRADE_FLOW, maxMillisecondsToWait: FLOW_TIMEOUT_MS }),
  );

  for (const kind of ["buy", "sell"] as const) {
    composer.command(kind, requireLogin(deps), async (ctx) => {
      await enterFlow(ctx, { kind, ...readArguments(ctx.match) });
    });
  }

  // A currency button of a flow that is no longer running: start again from that choice.
  composer.callbackQuery(PICK_CALLBACK, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, { kind: ctx.match[1] as TradeKind, currency: ctx.match[2] as string });
  });

  composer.callbackQuery(CARD_CALLBACK, async (ctx) => {
    const verb = ctx.match[1];
    const id = ctx.match[2] as string;
    const userId = ctx.from.id;
    if (verb === "c") {
      // Checked before the Confirm is claimed: a tap without a session must not use the quote up.
      await requireLogin(deps)(ctx, () => onConfirm(ctx, id, userId));
      return;
    }
    const result = await ledger.cancel(id, userId);
    const action = result.action;
    if (
      action === undefined ||
      (!result.ok && (result.reason === "not-yours" || result.reason === "unknown"))
    ) {
      const reason = result.ok ? "unknown" : result.reason;
      await tell(ctx, ctx.t(`trade-tap-${reason}`), true);
      return;
    }
    if (!result.ok && result.reason === "already") {
      await tell(ctx, ctx.t("trade-tap-already"), true);
      return;
    }
    await tell(ctx);
    await closeCard(ctx, verb === "x" ? "trade-card-cancelled" : "trade-card-changed");
    if (verb === "x") {
      await ctx.reply(ctx.t("trade-cancelled"));
      return;
    }
    await requireLogin(deps)(ctx, () =>
      enterFlow(ctx, { kind: action.kind === "sell" ? "sell" : "buy", currency: action.currency }),
    );
  });

  async function onConfirm(ctx: BotContext, id: string, userId: number): Promise<void> {
    const confirmed = await ledger.confirm(id, userId);
    if (!confirmed.ok) {
      if (confirmed.reason === "expired" && confirmed.action !== undefined) {
        // One re-quote per stale card: a second tap on it must not replace the new card again.
        if (!(await ledger.claimNotice(id, "requote"))) {
          await tell(ctx, ctx.t("trade-tap-expired-again"), true);
          return;
        }
        await tell(ctx, ctx.t("trade-tap-expired"));
        await closeCard(ctx, "trade-card-expired");
        await requote(ctx, confirmed.action);
        return;
      }
      await tell(ctx, ctx.t(`trade-tap-${confirmed.reason}`), true);
      if (confirmed.reason === "replaced" || confirmed.reason === "cancelled") {
        await closeCard(ctx, `trade-card-${confirmed.reason}`);
      }
      return;
    }
    await tell(ctx, ctx.t("trade-tap-placing"));
    await closeCard(ctx, "trade-card-placing");
    const result = await placeOrder({ ledger, sessions: deps.sessions, log: deps.log }, id, userId);
    const locale = await ctx.i18n.getLocale();
    switch (result.kind) {
      case "placed":
        await ctx.reply(ctx.t("trade-placed", { summary: summaryOf(ctx.t, result.action, locale) }));
        return;
      case "unknown":
        await ctx.reply(ctx.t("trade-unknown", { summary: summaryOf(ctx.t, result.action, locale) }));
        return;
      case "failed":
        if (result.loginNeeded) {
          await ctx.reply(ctx.t("trade-failed-login"), { reply_markup: loginKeyboard(ctx.t) });
          return;
        }
        await ctx.reply(ctx.t("trade-failed", { reason: result.reason }));
        return;
      case "code-rejected":
      case "refused":
        await ctx.reply(ctx.t("trade-tap-already"));
        return;
    }
  }

  /** A Confirm on a card past its TTL: the same order, quoted again at today's numbers. */
  async function requote(ctx: BotContext, old: MoneyAction): Promise<void> {
    const kind: TradeKind = old.kind === "sell" ? "sell" : "buy";
    const outcome = await deps.sessions.use(old.userId, (client) =>
      prepare(client, old.userId, kind, old.currency, old.amount),
    );
    if (!outcome.ok) {
      await ctx.reply(
        `${ctx.t(outcome.refusal.key, formatVars(outcome.refusal.vars, await ctx.i18n.getLocale()))}`,
      );
      return;
    }
    await ctx.reply(ctx.t("trade-requoted"));
    await showCard(ctx, outcome.action);
  }

  return composer;
}

/**
 * Answers the tap with `text` (an alert when `alert`); when the query can no longer be answered
 * (redelivered, or queued while the bot was down: Telegram says it is too old), says it in the chat.
 */
async function tell(ctx: BotContext, text?: string, alert = false): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? {} : { text, show_alert: alert });
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
    if (text !== undefined) await ctx.reply(text);
  }
}

async function enterFlow(ctx: BotContext, start: TradeStart): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(TRADE_FLOW, start);
}

async function showCard(ctx: BotContext | FlowContext, action: MoneyAction): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  await ctx.reply(quoteCardText(ctx.t, action, locale), {
    reply_markup: quoteCardKeyboard(ctx.t, action.id),
  });
}

/** Takes the buttons off the tapped card and says why, so an old card cannot be tapped again. */
async function closeCard(ctx: BotContext, key: string): Promise<void> {
  const message = ctx.callbackQuery?.message;
  if (message === undefined) return;
  const text =
    "text" in message && message.text !== undefined ? `${message.text}\n\n${ctx.t(key)}` : ctx.t(key);
  try {
    await ctx.editMessageText(text, { reply_markup: { inline_keyboard: [] } });
  } catch (error) {
    // The card may be too old to edit, or unchanged (a second tap): the answer matters, not the edit.
    if (!(error instanceof GrammyError)) throw error;
  }
}

/** `/buy btc 100`, `/sell 0.5 eth`: a token with a digit or sign is the amount, the rest the currency. */
export function readArguments(text: string): { currency?: string; amount?: string } {
  const out: { currency?: string; amount?: string } = {};
  const names: string[] = [];
  const amounts: string[] = [];
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    if (/\d/.test(token) || /^[+\-−.,]/.test(token)) amounts.push(token);
    else names.push(token);
  }
  if (names.length > 0) out.currency = names.join(" ");
  if (amounts.length > 0) out.amount = amounts.join(" ");
  return out;
}

function tradeFlow(
  deps: Pick<BotDeps, "sessions" | "profiles">,
  prepare: (
    client: AccountSession,
    userId: number,
    kind: TradeKind,
    currency: string,
    amount: string,
  ) => Promise<Prepared>,
) {
  return async function trade(conversation: Flow, ctx: FlowContext, start: TradeStart): Promise<void> {
    const userId = ctx.from?.id ?? 0;
    const kind = start.kind;
    const currencies = await sessionCall(conversation, ctx, deps, async (client) =>
      choicesOf(await client.prices()),
    );
    let current: FlowContext = ctx;
    let currency: string | undefined;
    let typed = start.amount;
    if (start.currency !== undefined) {
      currency = resolveCurrency(start.currency, currencies)?.code;
      if (currency === undefined) await unknownCurrency(current, start.currency, currencies);
    }
    let prompted = false;
    for (;;) {
      if (currency === undefined) {
        await current.reply(current.t(`trade-ask-currency-${kind}`), {
          reply_markup: currencyKeyboard(currencies, (code) => pickData(kind, code)),
        });
        const answer = await waitStep(conversation);
        current = answer.ctx;
        const name = answer.kind === "tap" ? (PICK_CALLBACK.exec(answer.data)?.[2] ?? "") : answer.text;
        currency = resolveCurrency(name, currencies)?.code;
        if (currency === undefined) await unknownCurrency(current, name, currencies);
        prompted = false;
        continue;
      }
      const unit = kind === "buy" ? "eur" : currency;
      if (typed === undefined) {
        if (!prompted) {
          await current.reply(current.t(`trade-ask-amount-${kind}`, { code: currency.toUpperCase() }));
          prompted = true;
        }
        const answer = await waitStep(conversation);
        current = answer.ctx;
        if (answer.kind === "tap") {
          // Another currency button: switch to it and ask again.
          currency =
            resolveCurrency(PICK_CALLBACK.exec(answer.data)?.[2] ?? "", currencies)?.code ?? currency;
          prompted = false;
          continue;
        }
        typed = answer.text;
      }
      const parsed = parseAmount(typed, unit);
      typed = undefined;
      if (!parsed.ok) {
        await current.reply(
          `${current.t(`amount-error-${parsed.reason}`, { decimals: parsed.maxDecimals })}\n${current.t("trade-amount-again")}`,
        );
        continue;
      }
      const code = currency;
      const amount = parsed.value.toFixed();
      const outcome = await sessionCall(conversation, ctx, deps, (client) =>
        prepare(client, userId, kind, code, amount),
      );
      if (!outcome.ok) {
        const locale = await current.i18n.getLocale();
        await current.reply(
          `${current.t(outcome.refusal.key, formatVars(outcome.refusal.vars, locale))}\n${current.t("trade-amount-again")}`,
        );
        continue;
      }
      await showCard(current, outcome.action);
      return;
    }
  };
}

async function unknownCurrency(ctx: FlowContext, input: string, currencies: readonly CurrencyChoice[]) {
  await ctx.reply(
    ctx.t("trade-unknown-currency", { input: input.slice(0, 32), codes: knownCodes(currencies) }),
  );
}

type Step =
  | { kind: "text"; text: string; ctx: FlowContext }
  | { kind: "tap"; data: string; ctx: FlowContext };

/**
 * The next answer: typed text, or a tap on one of the flow's currency buttons. A tap on a quote
 * card passes through to the card handler (answered from the store); anything else (a sticker, a
 * photo, a command, a stranger's button) gets a hint and the flow stays where it was.
 */
async function waitStep(conversation: Flow): Promise<Step> {
  const ctx = await conversation.wait();
  const text = ctx.message?.text;
  if (text !== undefined && !text.startsWith("/")) return { kind: "text", text: text.trim(), ctx };
  const data = ctx.callbackQuery?.data;
  if (data !== undefined && PICK_CALLBACK.test(data)) {
    await ctx.answerCallbackQuery();
    return { kind: "tap", data, ctx };
  }
  if (data !== undefined && CARD_CALLBACK.test(data)) return conversation.skip({ next: true });
  if (ctx.callbackQuery) {
    await ctx.answerCallbackQuery({ text: ctx.t("flow-hint-command") });
    return conversation.skip();
  }
  if (!ctx.message) return conversation.skip({ next: true });
  await ctx.reply(ctx.t(text !== undefined ? "flow-hint-command" : "flow-hint-text"));
  return conversation.skip();
}

/** Refusal variables hold raw decimals and codes; people get them formatted. */
function formatVars(vars: Record<string, string>, locale: string): Record<string, string> {
  const out = { ...vars };
  const currency = vars.currency ?? "eur";
  for (const key of ["minimum", "balance", "needed"]) {
    const value = vars[key];
    if (value !== undefined) out[key] = formatAmount(new Big(value), currency, locale);
  }
  for (const key of ["left", "fee"]) {
    const value = vars[key];
    if (value !== undefined) out[key] = formatAmount(new Big(value), "eur", locale);
  }
  return out;
}

function summaryOf(t: Translate, action: MoneyAction, locale: string): string {
  return action.kind === "buy"
    ? t("order-summary-buy", {
        code: action.currency.toUpperCase(),
        amount: formatAmount(new Big(action.amount), "eur", locale),
      })
    : t("order-summary-sell", { amount: formatAmount(new Big(action.amount), action.currency, locale) });
}

// ── Reconciliation from the bot's side ────────────────────────────────────────────────────────

/**
 * "When the user comes back": after each private update, at most once a minute per user (a store
 * claim, so across instances too), reconcile the user's open orders and tell them the news.
 * Cheap when there is nothing open: one claim and one key listing.
 */
export function orderWatch(deps: TradeDeps, options: { ledger?: Ledger } = {}): MiddlewareFn<BotContext> {
  const ledger = options.ledger ?? new Ledger(deps.store, deps.clock);
  // A memo in front of the store claim: the claim is a write, and most updates come from users
  // this instance has just checked (measured: the claim cost more than the rest of a /help).
  const checkedAt = new Map<number, number>();
  return async (ctx, next) => {
    await next();
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const now = performance.now();
    if (now - (checkedAt.get(userId) ?? Number.NEGATIVE_INFINITY) < WATCH_INTERVAL_MS) return;
    checkedAt.set(userId, now);
    if (checkedAt.size > 100_000) checkedAt.clear();
    if (!(await deps.store.setIfAbsent(`order-watch:${userId}`, 1, WATCH_INTERVAL_MS))) return;
    const notices = await reconcileUser(
      { ledger, sessions: deps.sessions, profiles: deps.profiles, clock: deps.clock, log: deps.log },
      userId,
    );
    const locale = await ctx.i18n.getLocale();
    for (const notice of notices) {
      await ctx.api.sendMessage(userId, orderNoticeText(ctx.t, notice, locale));
    }
  };
}
