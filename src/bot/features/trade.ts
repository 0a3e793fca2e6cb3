/**
 * /buy and /sell: currency (buttons from GET v1/prices, or typed), amount (EUR for a
 * buy, the crypto for a sell; parsed by money.ts), then a quote card with Confirm / Change amount /
 * Cancel. `/buy btc 100` and `/sell eth 0.5` skip the steps they answer.
 *
 * The conversation only gathers and checks the input, hands it to the money pipeline for a quote
 * (src/orders/) and shows the card; it ends there. The card's Confirm and Cancel are answered from
 * the store for every kind (features/orders.ts); only Change amount comes back here.
 */

import { createConversation } from "@grammyjs/conversations";
import type { Composer } from "grammy";
import { parseAmount } from "../../money.ts";
import type { TradeKind } from "../../orders/trade-quote.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../feature-router.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import { flowUserId } from "../flows/user.ts";
import { waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { type CurrencyChoice, currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { CARD_CALLBACK, CHANGE_CALLBACK, cardMessage, ORDER_WORDS, refusalText } from "../ui/order-card.ts";

export const TRADE_FLOW = "trade";
/** A currency button of the flow: `trade:p:buy:btc`. */
export const PICK_CALLBACK = /^trade:p:(buy|sell):([a-z0-9]{1,16})$/;
const pickData = (kind: TradeKind, code: string) => `trade:p:${kind}:${code}`;
const FLOW_TIMEOUT_MS = 15 * 60_000;

type TradeDeps = Pick<BotDeps, "sessions" | "profiles" | "orders">;

/** What is known when the flow starts; JSON-safe (a conversation argument). */
export interface TradeStart {
  kind: TradeKind;
  currency?: string;
  /** As typed: parsed by parseAmount once the currency is known. */
  amount?: string;
}

export function tradeFeature(deps: TradeDeps, flows: Composer<PrivateContext>): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  flows.use(createConversation(tradeFlow(deps), { id: TRADE_FLOW, maxMillisecondsToWait: FLOW_TIMEOUT_MS }));

  for (const kind of ["buy", "sell"] as const) {
    composer.command(kind, requireLogin(deps), async (ctx) => {
      await enterFlow(ctx, { kind, ...readArguments(ctx.match) });
    });
  }

  // A currency button of a flow that is no longer running: start again from that choice.
  composer.callbackQuery(PICK_CALLBACK, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, { kind: ctx.match[1] === "sell" ? "sell" : "buy", currency: ctx.match[2] ?? "" });
  });

  // The card's Change amount (Confirm and Cancel are answered in features/orders.ts). A dead card
  // (expired, replaced, cancelled) still asks again; only someone else's or a used one is refused.
  composer.callbackQuery(CHANGE_CALLBACK, async (ctx) => {
    const result = await deps.orders.cancel(ctx.match[1] ?? "", ctx.from.id);
    const action = result.action;
    if (action === undefined || (action.kind !== "buy" && action.kind !== "sell")) {
      await answerTap(ctx, ctx.t("trade-tap-unknown"), true);
      return;
    }
    if (!result.ok && (result.reason === "not-yours" || result.reason === "already")) {
      await answerTap(ctx, ctx.t(ORDER_WORDS[action.kind].refused(result.reason)), true);
      return;
    }
    await answerTap(ctx);
    await closeCard(ctx, ctx.t("trade-card-changed"));
    const kind = action.kind;
    await requireLogin(deps)(ctx, () => enterFlow(ctx, { kind, currency: action.currency }));
  });

  return composer;
}

async function enterFlow(ctx: BotContext, start: TradeStart): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(TRADE_FLOW, start);
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

function tradeFlow(deps: TradeDeps) {
  return async function trade(conversation: Flow, ctx: FlowContext, start: TradeStart): Promise<void> {
    const userId = flowUserId(ctx);
    const kind = start.kind;
    const currencies = await exchangeCurrencies(conversation, ctx, deps);
    // Typed text, a currency button of this flow; quote cards are answered from the store.
    const waitOptions = { taps: PICK_CALLBACK, passOn: CARD_CALLBACK };
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
        await current.reply(
          current.t(kind === "buy" ? "trade-ask-currency-buy" : "trade-ask-currency-sell"),
          {
            reply_markup: currencyKeyboard(currencies, (code) => pickData(kind, code)),
          },
        );
        const answer = await waitAnswer(conversation, waitOptions);
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
        await current.reply(`${amountRefusalText(current.t, parsed)}\n${current.t("trade-amount-again")}`);
        continue;
      }
      const request = { kind, currency, amount: parsed.value.toFixed() };
      const outcome = await sessionCall(conversation, ctx, deps, (client) =>
        deps.orders.quote(client, userId, request),
      );
      const locale = await current.i18n.getLocale();
      if (!outcome.ok) {
        await current.reply(
          `${refusalText(current.t, outcome.refusal, locale)}\n${current.t("trade-amount-again")}`,
        );
        continue;
      }
      const card = cardMessage(current.t, outcome.action, locale);
      await current.reply(card.text, card.other);
      return;
    }
  };
}

async function unknownCurrency(ctx: FlowContext, input: string, currencies: readonly CurrencyChoice[]) {
  await ctx.reply(
    ctx.t("trade-unknown-currency", { input: input.slice(0, 32), codes: knownCodes(currencies) }),
  );
}
