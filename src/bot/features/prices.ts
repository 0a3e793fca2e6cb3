/**
 * /prices: every currency the exchange lists, with its EUR price and 24 h change.
 * /price btc: that currency's card (price, 24 h change, the time the exchange quoted it), as the
 * caption of its 24 h chart with buttons for 7 and 30 days that redraw it in place; without price
 * history (a new install) the card alone, as text. The
 * currency may be typed as a code, a pair or a name (`btc`, `BTC`, `btceur`, `bitcoin`); without
 * one, the bot asks, with a button per currency (typing it works too).
 *
 * Both read the shared market feed (src/market/): no login needed, one exchange request for
 * everyone per few seconds, and when the exchange is down the last prices with their age. In
 * groups the same commands answer (`priceCommands`, used by the group feature); the question
 * with buttons is for private chats.
 *
 * /prices stays a text list (the whole list does not fit a caption's 1,024 characters, and most
 * readers want the figures): once there is history, a button under it sends the top currencies'
 * 24 h change as one chart, so the drawing is paid only by who asks for it.
 */
import Big from "big.js";
import { type CallbackQueryContext, InlineKeyboard, InputFile } from "grammy";
import { drawChart } from "../../charts/render.ts";
import { formatChange } from "../../domain/money.ts";
import { readerZone } from "../../domain/reader-zone.ts";
import type { Translate } from "../../domain/translate.ts";
import { MarketUnavailableError } from "../../market/errors.ts";
import type { MarketPrice, MarketSnapshot } from "../../market/types.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import {
  type ChartData,
  chartPhoto,
  readChart,
  replyWithChart,
  showTappedChart,
} from "../flows/price-chart.ts";
import { waitAnswer } from "../flows/wait.ts";
import { type FlowSpec, QUESTION_TIMEOUT_MS } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { type CurrencyChoice, currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { formatMoment } from "../ui/format.ts";
import {
  chartKeyboard,
  coveredName,
  marketUnavailableText,
  type PriceCardData,
  priceCardHtml,
  priceChoices,
  staleNote,
} from "../ui/price-card.ts";
import { changeArrow, formatPrice } from "../ui/price-format.ts";
import { userText } from "../ui/user-text.ts";

export const PRICE_FLOW = "price";
/** Typed answers that name no currency, before the question is given up. */
const MAX_UNKNOWN_ANSWERS = 3;
/** How many currencies the /prices chart draws (the first the exchange lists). */
export const TOP_CHART_COUNT = 5;

type MarketDeps = Pick<BotDeps, "market" | "clock" | "priceHistory">;

/** A feed read as plain data (it may pass through a conversation's `external`). */
type MarketRead =
  | { ok: true; snapshot: Pick<MarketSnapshot, "prices" | "fetchedAt" | "stale">; now: number }
  | { ok: false; reason: MarketUnavailableError["reason"] };

async function readMarket(deps: MarketDeps): Promise<MarketRead> {
  try {
    const { prices, fetchedAt, stale } = await deps.market.snapshot();
    return { ok: true, snapshot: { prices, fetchedAt, stale }, now: deps.clock.now() };
  } catch (error) {
    if (error instanceof MarketUnavailableError) return { ok: false, reason: error.reason };
    throw error;
  }
}

/**
 * /prices and /price with a currency, for any chat. `/price` alone is passed on (`next`): the
 * private chat asks with buttons, a group gets a usage hint.
 */
export function priceCommands(deps: MarketDeps): Feature<BotContext> {
  const composer = new Feature<BotContext>();
  composer.command("prices", (ctx) => replyPrices(deps, ctx));

  composer.callbackQuery(CALLBACK.pricesChart.pattern, (ctx) => sendTopChart(deps, ctx));

  // A span tapped under a chart: the same card, read again, and the chart of that span.
  composer.callbackQuery(CALLBACK.chart.pattern, async (ctx) => {
    const { code, range } = CALLBACK.chart.read(ctx);
    const read = await readMarket(deps);
    if (!read.ok) {
      await ctx.answerCallbackQuery({ text: marketUnavailableText(ctx.t, read.reason) });
      return;
    }
    const item = read.snapshot.prices.find((p) => p.currency === code);
    const chart = item === undefined ? undefined : await readChart(deps, code, range, latestOf(item, read));
    if (item === undefined || chart === undefined) {
      await ctx.answerCallbackQuery({
        text: ctx.t(item === undefined ? "chart-gone" : "chart-too-short-tap"),
      });
      return;
    }
    await ctx.answerCallbackQuery();
    const locale = await ctx.i18n.getLocale();
    await showTappedChart(
      ctx,
      await chartPhoto(ctx.t, chart, { name: item.name, code, range }, locale),
      cardOf(ctx.t, item, read, locale),
      chartKeyboard(ctx.t, code, range),
    );
  });

  composer.command("price", async (ctx, next) => {
    const typed = ctx.match.trim();
    if (typed === "") return next();
    await replyCard(ctx, deps, (choices) => resolveCurrency(typed, choices), typed);
  });
  return composer;
}

/** The `PRICE_FLOW` conversation, installed by bot.ts. */
export function priceConversation(deps: MarketDeps): FlowSpec {
  return { id: PRICE_FLOW, steps: priceFlow(deps), timeoutMs: QUESTION_TIMEOUT_MS };
}

/** /price and /prices in a private chat, with the "which currency?" question. */
export function pricesFeature(deps: MarketDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.use(priceCommands(deps));
  composer.command("price", async (ctx) => {
    await enterFlow(ctx, PRICE_FLOW);
  });

  // A currency button from a question that is no longer running: it still answers.
  composer.callbackQuery(CALLBACK.price.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { code } = CALLBACK.price.read(ctx);
    await replyCard(ctx, deps, (choices) => choices.find((c) => c.code === code), code);
  });
  return composer;
}

/** Answers with the card of the currency `pick` finds, or says which ones are known. */
async function replyCard(
  ctx: BotContext,
  deps: MarketDeps,
  pick: (choices: ReturnType<typeof priceChoices>) => { item: MarketPrice } | undefined,
  typed: string,
): Promise<void> {
  const read = await readMarket(deps);
  if (!read.ok) {
    await ctx.reply(marketUnavailableText(ctx.t, read.reason));
    return;
  }
  const choices = priceChoices(read.snapshot.prices);
  const found = pick(choices);
  if (found === undefined) {
    await ctx.reply(unknownText(ctx.t, typed, choices));
    return;
  }
  const chart = await readChart(deps, found.item.currency, "24h", latestOf(found.item, read));
  await sendCard(ctx, found.item, read, chart);
}

/** The card as the caption of its 24 h chart, or as text when there is no chart to draw. */
async function sendCard(
  ctx: BotContext | FlowContext,
  item: MarketPrice,
  read: MarketRead & { ok: true },
  chart: ChartData | undefined,
): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  const card = cardOf(ctx.t, item, read, locale);
  if (chart === undefined) {
    // Too little history (the first minutes): said, and the spans offered for when there is more.
    await ctx.reply(`${card}\n\n${ctx.t("chart-too-short")}`, {
      parse_mode: "HTML",
      reply_markup: chartKeyboard(ctx.t, item.currency, "24h"),
    });
    return;
  }
  const label = { name: item.name, code: item.currency, range: "24h" as const };
  await replyWithChart(
    ctx,
    await chartPhoto(ctx.t, chart, label, locale),
    card,
    chartKeyboard(ctx.t, item.currency, "24h"),
  );
}

/** The caption's price as the chart's last point. */
function latestOf(item: MarketPrice, read: MarketRead & { ok: true }) {
  return { at: read.snapshot.fetchedAt, price: item.price };
}

function cardOf(t: Translate, price: MarketPrice, read: MarketRead & { ok: true }, locale: string): string {
  const card: PriceCardData = { price, fetchedAt: read.snapshot.fetchedAt, stale: read.snapshot.stale };
  return priceCardHtml(t, card, locale, read.now);
}

/** /price without a currency: which one? Buttons, or the code or name typed. */
function priceFlow(deps: MarketDeps) {
  return async function price(conversation: Flow, ctx: FlowContext): Promise<void> {
    const first = await externalCall(conversation, () => readMarket(deps));
    if (!first.ok) {
      await ctx.reply(marketUnavailableText(ctx.t, first.reason));
      return;
    }
    const currencies: CurrencyChoice[] = first.snapshot.prices.map((p) => ({
      code: p.currency,
      name: p.name,
    }));
    if (currencies.length === 0) {
      await ctx.reply(ctx.t("prices-empty"));
      return;
    }
    await ctx.reply(ctx.t("price-ask"), { reply_markup: currencyKeyboard(currencies, CALLBACK.price.data) });
    for (let unknown = 0; unknown < MAX_UNKNOWN_ANSWERS; ) {
      // A read-only question: another command ends it and runs.
      const answer = await waitAnswer(conversation, { taps: CALLBACK.price.pattern, commands: "step-aside" });
      const currency =
        answer.kind === "tap"
          ? currencies.find((c) => c.code === CALLBACK.price.unpack(answer.data)?.code)
          : resolveCurrency(answer.text, currencies);
      if (currency) {
        // Read again: the question may have waited longer than the feed's TTL.
        const read = await externalCall(conversation, () => readMarket(deps));
        const item = read.ok ? read.snapshot.prices.find((p) => p.currency === currency.code) : undefined;
        if (!read.ok || item === undefined) {
          await answer.ctx.reply(marketUnavailableText(answer.ctx.t, read.ok ? "exchange" : read.reason));
          return;
        }
        const chart = await externalCall(conversation, () =>
          readChart(deps, item.currency, "24h", latestOf(item, read)),
        );
        // Drawn here, after the last wait: the conversation ends with this reply, never replays it.
        await sendCard(answer.ctx, item, read, chart);
        return;
      }
      unknown++;
      await answer.ctx.reply(
        unknownText(answer.ctx.t, answer.kind === "text" ? answer.text : "?", currencies),
      );
    }
  };
}

export function pricesText(t: Translate, prices: readonly MarketPrice[], locale: string): string {
  if (prices.length === 0) return t("prices-empty");
  const lines = prices.map((item) => {
    const change = new Big(item.change24h);
    return t("prices-line", {
      arrow: changeArrow(change),
      name: item.name,
      code: item.currency.toUpperCase(),
      price: formatPrice(new Big(item.price), locale),
      change: formatChange(change, locale),
    });
  });
  return `${t("prices-title")}\n\n${lines.join("\n")}\n\n${t("prices-hint")}`;
}

function unknownText(t: Translate, typed: string, known: readonly CurrencyChoice[]): string {
  return t("price-unknown", { input: userText(typed, 32), codes: knownCodes(known) });
}

/** /prices: the list, with the top currencies' chart button when the history can draw it. */
async function replyPrices(deps: MarketDeps, ctx: BotContext): Promise<void> {
  const read = await readMarket(deps);
  if (!read.ok) {
    await ctx.reply(marketUnavailableText(ctx.t, read.reason));
    return;
  }
  const locale = await ctx.i18n.getLocale();
  let text = pricesText(ctx.t, read.snapshot.prices, locale);
  if (read.snapshot.stale) text += `\n\n${staleNote(ctx.t, read.snapshot.fetchedAt, read.now)}`;
  const count = Math.min(TOP_CHART_COUNT, read.snapshot.prices.length);
  const drawable = count > 0 && (await deps.priceHistory.hasRecent(read.now));
  await ctx.reply(
    text,
    drawable
      ? {
          reply_markup: new InlineKeyboard().text(
            ctx.t("prices-chart-button", { count }),
            CALLBACK.pricesChart.data(),
          ),
        }
      : {},
  );
}

/** The /prices list's chart button: the top currencies' last 24 hours, in percent, in one picture. */
async function sendTopChart(deps: MarketDeps, ctx: CallbackQueryContext<BotContext>): Promise<void> {
  const read = await readMarket(deps);
  if (!read.ok) {
    await ctx.answerCallbackQuery({ text: marketUnavailableText(ctx.t, read.reason) });
    return;
  }
  const top = read.snapshot.prices.slice(0, TOP_CHART_COUNT);
  const series = await deps.priceHistory.seriesOf(
    top.map((item) => item.currency),
    "24h",
    read.now,
  );
  const lines = top
    .map((item, i) => ({ name: item.currency.toUpperCase(), points: series[i]?.points ?? [] }))
    .filter((line) => line.points.length >= 2);
  if (lines.length === 0) {
    await ctx.answerCallbackQuery({ text: ctx.t("chart-gone") });
    return;
  }
  await ctx.answerCallbackQuery();
  const locale = await ctx.i18n.getLocale();
  const since = Math.min(...series.map((s) => s.since ?? Number.POSITIVE_INFINITY));
  // The span the drawn lines really cover, from the earliest point to the latest.
  const covered: [number, number][] = [
    [Math.min(...lines.map((l) => l.points[0]?.[0] ?? Number.POSITIVE_INFINITY)), 0],
    [Math.max(...lines.map((l) => l.points.at(-1)?.[0] ?? 0)), 0],
  ];
  const range = coveredName(ctx.t, "24h", covered, Number.isFinite(since) ? since : undefined);
  const png = await drawChart({
    title: ctx.t("chart-top-title", { range }),
    note: Number.isFinite(since) ? ctx.t("chart-since", { time: formatMoment(since, locale) }) : undefined,
    lines,
    unit: "percent",
    locale,
    span: "day",
    zone: readerZone(),
  });
  await ctx.replyWithPhoto(new InputFile(png, "prices-24h.png"), {
    caption: ctx.t("chart-top-caption", { codes: lines.map((l) => l.name).join(", "), range }),
  });
}
