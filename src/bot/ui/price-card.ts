/**
 * One currency's price card, as /price answers it and as inline mode puts it into any chat: name,
 * code and EUR price, the 24 h change, the time the exchange quoted it, and, when the exchange
 * could not be reached, how old the figures are. HTML, with every value escaped.
 *
 * @example
 * const html = priceCardHtml(ctx.t, { price, fetchedAt, stale }, "en", clock.now());
 * await ctx.reply(html, { parse_mode: "HTML" });
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { formatChange } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { MarketUnavailableError } from "../../market/errors.ts";
import { CHART_RANGE_NAMES, type ChartRange } from "../../market/history.ts";
import type { MarketPrice } from "../../market/types.ts";
import { CALLBACK } from "./callback-data.ts";
import type { CurrencyChoice } from "./currency-choice.ts";
import { escapeHtml, formatMoment } from "./format.ts";
import { changeArrow, formatPrice } from "./price-format.ts";

/** One price with the time of the snapshot it came from (JSON-safe: it may pass through `external`). */
export interface PriceCardData {
  price: MarketPrice;
  fetchedAt: number;
  stale: boolean;
}

/** Whole minutes since the exchange answered (rounded down). */
export function ageMinutes(fetchedAt: number, now: number): number {
  return Math.max(0, Math.floor((now - fetchedAt) / 60_000));
}

/** "⚠️ As of 5 minutes ago: the exchange cannot be reached right now." */
export function staleNote(t: Translate, fetchedAt: number, now: number): string {
  return t("market-stale", { minutes: ageMinutes(fetchedAt, now) });
}

export function priceCardHtml(t: Translate, card: PriceCardData, locale: string, now: number): string {
  const { price } = card;
  const change = new Big(price.change24h);
  const lines = [
    `<b>${escapeHtml(
      t("price-rate", {
        name: price.name,
        code: price.currency.toUpperCase(),
        price: formatPrice(new Big(price.price), locale),
      }),
    )}</b>`,
    escapeHtml(t("price-change", { arrow: changeArrow(change), change: formatChange(change, locale) })),
    escapeHtml(t("price-time", { time: formatMoment(card.fetchedAt, locale) })),
  ];
  if (card.stale) lines.push(escapeHtml(staleNote(t, card.fetchedAt, now)));
  return lines.join("\n");
}

/** The feed's prices as choices for `resolveCurrency`, keeping the price with each. */
export function priceChoices(prices: readonly MarketPrice[]): (CurrencyChoice & { item: MarketPrice })[] {
  return prices.map((item) => ({ code: item.currency, name: item.name, item }));
}

/** The sentence for "no prices to show". */
export function marketUnavailableText(t: Translate, reason: MarketUnavailableError["reason"]): string {
  return t(reason === "no-source" ? "market-no-source" : "market-unavailable");
}

/** A chart span's name ("24 h", "7 days"), as the picture's title and the buttons say it. */
export function rangeName(t: Translate, range: ChartRange): string {
  switch (range) {
    case "24h":
      return t("chart-range-24h");
    case "7d":
      return t("chart-range-7d");
    case "30d":
      return t("chart-range-30d");
  }
}

/**
 * The span a chart's data really covers, for its title: the range's name when the data fills it,
 * else how long the data runs ("1 minute", "5 hours"): a "24 h" over one minute of prices misleads.
 */
export function coveredName(
  t: Translate,
  range: ChartRange,
  points: readonly (readonly [number, number])[],
  since: number | undefined,
): string {
  if (since === undefined) return rangeName(t, range);
  const first = points[0]?.[0] ?? 0;
  const last = points.at(-1)?.[0] ?? first;
  const minutes = Math.max(1, Math.round((last - first) / 60_000));
  if (minutes < 120) return t("chart-covers", { unit: "minutes", count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("chart-covers", { unit: "hours", count: hours });
  return t("chart-covers", { unit: "days", count: Math.round(hours / 24) });
}

/** The spans under a chart (24 h, 7 days, 30 days), the one shown marked. */
export function chartKeyboard(t: Translate, code: string, shown: ChartRange): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const range of CHART_RANGE_NAMES) {
    const label = rangeName(t, range);
    keyboard.text(
      range === shown ? t("chart-button-current", { range: label }) : t("chart-button", { range: label }),
      CALLBACK.chart.data(code, range),
    );
  }
  return keyboard;
}
