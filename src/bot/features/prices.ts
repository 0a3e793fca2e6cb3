/**
 * /prices: every currency the exchange lists, with its EUR price and 24 h change (GET v1/prices).
 * /price btc: one pair's rate and its time (GET v1/exchange-rates?pair=btceur). The currency may
 * be typed as a code, a pair or a name (`btc`, `BTC`, `btceur`, `bitcoin`), resolved against the
 * prices list; without one, the bot asks, with a button per currency (typing it works too).
 *
 * Both need a logged-in user for now: the exchange wants a token for them.
 */
import { createConversation } from "@grammyjs/conversations";
import Big from "big.js";
import { Composer } from "grammy";
import type { AccountSession } from "../../exchange/account.ts";
import type { PriceItem } from "../../exchange/schemas.ts";
import { formatPercent } from "../../money.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { type CurrencyChoice, currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { externalCall, waitForAnswer } from "../ui/flow-steps.ts";
import { formatDateTime } from "../ui/format.ts";
import { changeArrow, formatPrice } from "../ui/price-format.ts";

export const PRICE_FLOW = "price";
export const PRICE_CALLBACK = /^price:([a-z0-9]{1,16})$/;
const priceData = (code: string) => `price:${code}`;
/** Typed answers that name no currency, before the question is given up. */
const MAX_UNKNOWN_ANSWERS = 3;
/** A question left unanswered this long is forgotten; the next message is handled as usual. */
const FLOW_TIMEOUT_MS = 10 * 60_000;

type Translate = (key: string, variables?: Record<string, string | number>) => string;

/** What the rate message needs, JSON-safe (it passes through a conversation's `external`). */
export interface RateView {
  code: string;
  name: string;
  price: string;
  change?: string;
  /** ISO 8601 UTC, from the rate's `date`, else its `timestamp`. */
  at?: string;
}

export function pricesFeature(deps: Pick<BotDeps, "sessions">): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  // Registered before the handlers below: entering needs it, and a running question sees taps first.
  composer.use(
    createConversation(priceFlow(deps), { id: PRICE_FLOW, maxMillisecondsToWait: FLOW_TIMEOUT_MS }),
  );

  composer.command("prices", requireLogin(deps), async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const items = await deps.sessions.use(ctx.from?.id ?? 0, (client) => client.prices());
    await ctx.reply(pricesText(ctx.t, items, locale));
  });

  composer.command("price", requireLogin(deps), async (ctx) => {
    const typed = ctx.match.trim();
    if (typed === "") {
      await ctx.conversation.exitAll();
      await ctx.conversation.enter(PRICE_FLOW);
      return;
    }
    const locale = await ctx.i18n.getLocale();
    type Answer = { kind: "unknown"; known: CurrencyChoice[] } | { kind: "rate"; rate: RateView };
    const answer = await deps.sessions.use(ctx.from?.id ?? 0, async (client): Promise<Answer> => {
      const items = await client.prices();
      const currency = resolveCurrency(typed, choicesOf(items));
      if (!currency) return { kind: "unknown", known: choicesOf(items) };
      return { kind: "rate", rate: await rateView(client, currency, items) };
    });
    if (answer.kind === "unknown") await ctx.reply(unknownText(ctx.t, typed, answer.known));
    else await ctx.reply(rateText(ctx.t, answer.rate, locale));
  });

  // A currency button from a question that is no longer running: it still answers.
  composer.callbackQuery(PRICE_CALLBACK, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const code = ctx.match[1] ?? "";
    const locale = await ctx.i18n.getLocale();
    const rate = await deps.sessions.use(ctx.from?.id ?? 0, async (client) => {
      const items = await client.prices();
      const currency = choicesOf(items).find((c) => c.code === code) ?? { code, name: code.toUpperCase() };
      return rateView(client, currency, items);
    });
    await ctx.reply(rateText(ctx.t, rate, locale));
  });
  return composer;
}

/** /price without a currency: which one? Buttons, or the code or name typed. */
function priceFlow(deps: Pick<BotDeps, "sessions">) {
  return async function price(conversation: Flow, ctx: FlowContext): Promise<void> {
    const userId = ctx.from?.id ?? 0;
    const currencies = await externalCall(conversation, () =>
      deps.sessions.use(userId, async (client) => choicesOf(await client.prices())),
    );
    if (currencies.length === 0) {
      await ctx.reply(ctx.t("prices-empty"));
      return;
    }
    await ctx.reply(ctx.t("price-ask"), { reply_markup: currencyKeyboard(currencies, priceData) });
    for (let unknown = 0; unknown < MAX_UNKNOWN_ANSWERS; ) {
      const answer = await waitForAnswer(conversation, PRICE_CALLBACK);
      const currency =
        answer.kind === "tap"
          ? currencies.find((c) => c.code === PRICE_CALLBACK.exec(answer.data)?.[1])
          : resolveCurrency(answer.text, currencies);
      if (currency) {
        const rate = await externalCall(conversation, () =>
          deps.sessions.use(userId, async (client) => rateView(client, currency, await client.prices())),
        );
        const locale = await answer.ctx.i18n.getLocale();
        await answer.ctx.reply(rateText(answer.ctx.t, rate, locale));
        return;
      }
      unknown++;
      await answer.ctx.reply(
        unknownText(answer.ctx.t, answer.kind === "text" ? answer.text : "?", currencies),
      );
    }
  };
}

export function choicesOf(items: readonly PriceItem[]): CurrencyChoice[] {
  return items.map((item) => ({ code: item.currency_code.toLowerCase(), name: item.currency_name }));
}

async function rateView(
  client: AccountSession,
  currency: CurrencyChoice,
  items: readonly PriceItem[],
): Promise<RateView> {
  const rate = await client.exchangeRate(`${currency.code}eur`);
  const view: RateView = { code: currency.code, name: currency.name, price: rate.price.toFixed() };
  const change = items.find((item) => item.currency_code.toLowerCase() === currency.code)?.["24hr_change"];
  if (change !== undefined) view.change = change.toFixed();
  const at =
    rate.date ?? (rate.timestamp === undefined ? undefined : new Date(rate.timestamp * 1000).toISOString());
  if (at !== undefined) view.at = at;
  return view;
}

export function pricesText(t: Translate, items: readonly PriceItem[], locale: string): string {
  if (items.length === 0) return t("prices-empty");
  const lines = items.map((item) =>
    t("prices-line", {
      arrow: changeArrow(item["24hr_change"]),
      name: item.currency_name,
      code: item.currency_code.toUpperCase(),
      price: formatPrice(item.price, locale),
      change: formatPercent(item["24hr_change"], locale),
    }),
  );
  return `${t("prices-title")}\n\n${lines.join("\n")}\n\n${t("prices-hint")}`;
}

export function rateText(t: Translate, rate: RateView, locale: string): string {
  const lines = [
    t("price-rate", {
      name: rate.name,
      code: rate.code.toUpperCase(),
      price: formatPrice(new Big(rate.price), locale),
    }),
  ];
  if (rate.change !== undefined) {
    const change = new Big(rate.change);
    lines.push(t("price-change", { arrow: changeArrow(change), change: formatPercent(change, locale) }));
  }
  if (rate.at !== undefined) lines.push(t("price-time", { time: formatDateTime(rate.at, locale) }));
  return lines.join("\n");
}

function unknownText(t: Translate, typed: string, known: readonly CurrencyChoice[]): string {
  return t("price-unknown", { input: typed.slice(0, 32), codes: knownCodes(known) });
}
