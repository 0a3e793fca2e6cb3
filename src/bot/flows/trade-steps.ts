/**
 * The steps of /buy and /sell, in either mode: the currency (buttons, or typed), the amount (EUR
 * for a buy, the crypto for a sell; money.ts's parseAmount), the money pipeline's quote and its
 * card. A refusal another amount can fix asks again. The flow ends with the card shown: its
 * buttons are answered from the store (features/orders.ts).
 *
 * What differs between account and partner mode is passed in: the currencies on offer, the
 * callback data of a currency button, and how the quote is asked (account: through sessionCall,
 * so an expired session is renewed in the flow; partner: the partner API, by the pipeline).
 *
 * @example
 * await tradeSteps(conversation, ctx, deps, start, {
 *   currencies, pick: CALLBACK.tradePick,
 *   quote: (request) => sessionCall(conversation, ctx, deps, (client) => orders.quote({ account: client }, userId, request)),
 * });
 */
import { parseAmount } from "../../domain/money.ts";
import { kindOf } from "../../orders/kinds/index.ts";
import type { KindApi } from "../../orders/kinds/kind.ts";
import type { ActionKind } from "../../orders/ledger.ts";
import type { OrderPipeline, Quoted } from "../../orders/pipeline.ts";
import { STANDING_REASONS } from "../../orders/quote.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { CALLBACK, type CallbackEntry, type TradeSide } from "../ui/callback-data.ts";
import { type CurrencyChoice, currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { ORDER_WORDS, refusalText } from "../ui/order-card.ts";
import { userText } from "../ui/user-text.ts";
import { replyCard } from "./phishing.ts";
import { waitAnswer } from "./wait.ts";

/** What is known when the flow starts; JSON-safe (a conversation argument). */
export interface TradeStart {
  kind: "buy" | "sell";
  currency?: string;
  /** As typed: parsed by parseAmount once the currency is known. */
  amount?: string;
  /** Started from a fired alert's button without a live session: the login steps come first. */
  logIn?: boolean;
}

export interface TradeStepsOptions {
  currencies: readonly CurrencyChoice[];
  /** The flow's currency buttons (CALLBACK.tradePick or its partner twin), built with the flow's side. */
  pick: CallbackEntry<[TradeSide, string], { side: TradeSide; code: string }>;
  /** The quote of `kind` for this currency and checked amount. */
  quote: (request: { currency: string; amount: string }) => Promise<Quoted>;
}

export async function tradeSteps(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "phishing" | "orders">,
  start: TradeStart,
  options: TradeStepsOptions,
): Promise<void> {
  const { kind } = start;
  const { currencies, pick } = options;
  // Typed text, a currency button of this flow; quote cards are answered from the store.
  const waitOptions = { taps: pick.pattern, passOn: CALLBACK.order.pattern };
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
      await current.reply(current.t(kind === "buy" ? "trade-ask-currency-buy" : "trade-ask-currency-sell"), {
        reply_markup: currencyKeyboard(currencies, (code) => pick.data(kind, code)),
      });
      const answer = await waitAnswer(conversation, waitOptions);
      current = answer.ctx;
      const name = answer.kind === "tap" ? (pick.unpack(answer.data)?.code ?? "") : answer.text;
      currency = resolveCurrency(name, currencies)?.code;
      if (currency === undefined) await unknownCurrency(current, name, currencies);
      prompted = false;
      continue;
    }
    const unit = kind === "buy" ? "eur" : currency;
    if (typed === undefined) {
      if (!prompted) {
        const code = currency.toUpperCase();
        await current.reply(
          kind === "buy"
            ? current.t("trade-ask-amount-buy", { code })
            : current.t("trade-ask-amount-sell", { code }),
        );
        prompted = true;
      }
      const answer = await waitAnswer(conversation, waitOptions);
      current = answer.ctx;
      if (answer.kind === "tap") {
        // Another currency button: switch to it and ask again.
        currency = resolveCurrency(pick.unpack(answer.data)?.code ?? "", currencies)?.code ?? currency;
        prompted = false;
        continue;
      }
      typed = answer.text;
    }
    const parsed = parseAmount(typed, unit, await current.i18n.getLocale());
    typed = undefined;
    if (!parsed.ok) {
      await current.reply(`${amountRefusalText(current.t, parsed)}\n${current.t("trade-amount-again")}`);
      continue;
    }
    const outcome = await options.quote({ currency, amount: parsed.value.toFixed() });
    const locale = await current.i18n.getLocale();
    if (!outcome.ok) {
      const sentence = refusalText(current.t, outcome.refusal, locale);
      // A frozen user: no other amount helps, the flow ends.
      if (STANDING_REASONS.has(outcome.refusal.reason)) {
        await current.reply(sentence);
        return;
      }
      await current.reply(`${sentence}\n${current.t("trade-amount-again")}`);
      continue;
    }
    await replyCard(conversation, current, deps, outcome.action);
    return;
  }
}

async function unknownCurrency(ctx: FlowContext, input: string, currencies: readonly CurrencyChoice[]) {
  await ctx.reply(
    ctx.t("trade-unknown-currency", { input: userText(input, 32), codes: knownCodes(currencies) }),
  );
}

/**
 * `/buy btc 100`, `/sell 0.5 eth`: a token of letters only is (part of) the currency's code or
 * name, anything else the amount. So `/buy btc 💯` is BTC with an amount that is not understood,
 * not an unknown currency "btc 💯".
 */
export function readArguments(text: string): { currency?: string; amount?: string } {
  const out: { currency?: string; amount?: string } = {};
  const names: string[] = [];
  const amounts: string[] = [];
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    if (/^[\p{L}\p{M}]+$/u.test(token)) names.push(token);
    else amounts.push(token);
  }
  if (names.length > 0) out.currency = names.join(" ");
  if (amounts.length > 0) out.amount = amounts.join(" ");
  return out;
}

/**
 * A fired alert's Buy or Sell tap (a handler of CALLBACK.alertTrade's pattern): what the trade
 * flow starts with. A second tap of the same button while its card can still be confirmed (a
 * double tap, a redelivered update) is told the card is on its way and gives undefined: one
 * card, so one order. The claim is the store's, so it holds across instances.
 */
export async function alertTapStart(
  ctx: PrivateContext,
  deps: Pick<BotDeps, "store" | "orders" | "clock">,
): Promise<TradeStart | undefined> {
  const tapped = CALLBACK.alertTrade.read(ctx);
  const messageId = ctx.callbackQuery?.message?.message_id ?? 0;
  const data = CALLBACK.alertTrade.data(tapped.side, tapped.code, tapped.amount);
  const key = `alert-tap:${ctx.from.id}:${messageId}:${data}`;
  const ttl = deps.orders.ledger.quoteTtlMs;
  // The claim holds when it was taken: past a card's TTL (on the bot's clock) it is taken over.
  const now = deps.clock.now();
  let claimed = await deps.store.setIfAbsent(key, now, ttl * 10);
  if (!claimed) {
    const held = await deps.store.get<number>(key);
    claimed = held !== undefined && now - held >= ttl && (await deps.store.replaceIfEquals(key, held, now));
  }
  if (!claimed) {
    await answerTap(ctx, ctx.t("alert-tap-again"));
    return undefined;
  }
  await answerTap(ctx);
  const start: TradeStart = { kind: tapped.side, currency: tapped.code };
  if (tapped.amount !== undefined) start.amount = tapped.amount;
  return start;
}

/**
 * A card's Change amount (Confirm and Cancel are answered in features/orders.ts): cancels its
 * quote and returns what to ask again. A dead card (expired, replaced, cancelled) still asks
 * again; someone else's, a used one, or a card that is no trade of this feature's mode (`api`) is
 * refused to the tapper, and undefined comes back.
 */
export async function changeAmount(
  ctx: PrivateContext,
  orders: Pick<OrderPipeline, "cancel">,
  id: string,
  api: KindApi,
): Promise<TradeStart | undefined> {
  const result = await orders.cancel(id, ctx.from.id);
  const action = result.action;
  const kind = action === undefined ? undefined : tradeSide(action.kind, api);
  if (action === undefined || kind === undefined) {
    await answerTap(ctx, ctx.t("trade-tap-unknown"), true);
    return undefined;
  }
  if (!result.ok && (result.reason === "not-yours" || result.reason === "already")) {
    await answerTap(ctx, ctx.t(ORDER_WORDS[action.kind].refused(result.reason)), true);
    return undefined;
  }
  await answerTap(ctx);
  await closeCard(ctx, ctx.t("trade-card-changed"));
  return { kind, currency: action.currency };
}

/** The side of a trade of this mode's kinds (a card's Change amount), undefined for any other kind. */
function tradeSide(kind: ActionKind, api: KindApi): TradeStart["kind"] | undefined {
  const { family, api: kindApi } = kindOf(kind);
  return kindApi === api && (family === "buy" || family === "sell") ? family : undefined;
}
