/**
 * /prices and /price in partner mode: the exchange's rates (`/prices`), or the rate of one code
 * (`/price btc`), read for their usual fields (exchange/partner-read.ts: pair, price, one time) and shown
 * in account mode's words, with the currencies' names from the currencies list; pairs offered
 * without a rate are named below, and fields nobody recognised follow, named and formatted.
 *
 * Tolerant reading: an item nobody recognised as a rate is about `btc` when one of its text
 * fields is `btc`, starts with `btc` followed by a separator (`BTC/EUR`, `btc_eur`), or is `btceur`.
 */

import { formatNumber } from "../../../domain/money.ts";
import type { Translate } from "../../../domain/translate.ts";
import type { RateRow } from "../../../exchange/partner-read.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { PrivateContext } from "../../context.ts";
import {
  type ChartDeps,
  chartPhoto,
  type LatestPrice,
  readChart,
  replyWithChart,
  showTappedChart,
} from "../../flows/price-chart.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { CALLBACK } from "../../ui/callback-data.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { pairText } from "../../ui/coded-values.ts";
import { fieldBlocks } from "../../ui/fields.ts";
import { escapeHtml, formatMoment } from "../../ui/format.ts";
import { chartKeyboard } from "../../ui/price-card.ts";
import { formatPrice } from "../../ui/price-format.ts";

const CODE = /^[a-z0-9]{1,12}$/;
/** Telegram's limit on a photo's caption; a longer card is sent as text, without the chart. */
const CAPTION_LIMIT = 1024;

/** Whether an item of a list speaks of the currency `code`. */
export function mentions(item: unknown, code: string): boolean {
  if (typeof item === "string") return mentions({ value: item }, code);
  if (typeof item !== "object" || item === null) return false;
  return Object.values(item).some((value) => {
    if (typeof value !== "string") return false;
    const text = value.trim().toLowerCase();
    return (
      text === code ||
      text === `${code}eur` ||
      (text.split(/[^a-z0-9]/)[0] === code && /[^a-z0-9]/.test(text))
    );
  });
}

/** The pairs in a line (`BTC/EUR, ETH/EUR`), for telling what /price knows. */
function pairNames(pairs: readonly { base: string; quote: string }[]): string {
  return pairs.slice(0, 40).map(pairText).join(", ");
}

/** A price in its quote currency: euros as account mode shows them, anything else as a number and code. */
function priceText(row: RateRow, locale: string): string {
  return row.quote === "eur"
    ? formatPrice(row.price, locale)
    : `${formatNumber(row.price, locale)} ${row.quote.toUpperCase()}`;
}

/**
 * The rates as account mode's price lines ("Bitcoin (BTC/EUR): €58,650.57"), then one time (the
 * newest any rate carries), then what nobody recognised.
 */
export function rateBlocks(
  t: Translate,
  read: { rows: readonly RateRow[]; rest: readonly unknown[] },
  names: ReadonlyMap<string, string>,
  locale: string,
): string[] {
  const blocks: string[] = [];
  if (read.rows.length > 0) {
    const lines = read.rows.map((row) => {
      const name = names.get(row.base);
      const vars = { code: pairText(row), price: escapeHtml(priceText(row, locale)) };
      return name === undefined
        ? t("partner-price-line", vars)
        : t("price-rate", { ...vars, name: escapeHtml(name) });
    });
    blocks.push(lines.join("\n"));
    const times = read.rows.flatMap((row) => (row.time === undefined ? [] : [row.time]));
    if (times.length > 0) {
      blocks.push(t("partner-prices-time", { time: formatMoment(Math.max(...times), locale) }));
    }
  }
  blocks.push(...fieldBlocks(t, read.rest, locale));
  return blocks;
}

/** One code's rate card as /price shows it, or the pairs the exchange knows when it has none. */
type RateCard =
  | { kind: "card"; parts: string[]; name: string; latest: LatestPrice | undefined }
  | { kind: "unknown"; pairs: string };

async function readCard(
  deps: { partner: PartnerServices } & ChartDeps,
  t: Translate,
  code: string,
  locale: string,
): Promise<RateCard> {
  const [rates, currencies, pairs] = await Promise.all([
    deps.partner.api.exchangeRates(),
    deps.partner.api.currencies(),
    deps.partner.api.pairs(),
  ]);
  const all = rates;
  const read = {
    rows: all.rows.filter((row) => row.base === code),
    rest: all.rest.filter((item) => mentions(item, code)),
  };
  if (read.rows.length === 0 && read.rest.length === 0) {
    return { kind: "unknown", pairs: pairNames(pairs.pairs) || "—" };
  }
  const { names } = currencies;
  const name = names.get(code) ?? code.toUpperCase();
  const euro = read.rows.find((row) => row.quote === "eur");
  return {
    kind: "card",
    parts: [t("partner-price-title", { code: escapeHtml(name) }), ...rateBlocks(t, read, names, locale)],
    name,
    latest:
      euro === undefined ? undefined : { at: euro.time ?? deps.clock.now(), price: euro.price.toFixed() },
  };
}

export function partnerPricesFeature(
  deps: { partner: PartnerServices } & ChartDeps,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("prices", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const [rates, pairs, currencies] = await Promise.all([
      deps.partner.api.exchangeRates(),
      deps.partner.api.pairs(),
      deps.partner.api.currencies().catch(() => undefined),
    ]);
    const read = rates;
    const blocks = rateBlocks(ctx.t, read, currencies?.names ?? new Map(), locale);
    // Pairs traded without a rate in the answer: named, so nothing the exchange offers is hidden.
    const priced = new Set(read.rows.map(pairText));
    const unpriced = pairs.pairs.filter((pair) => !priced.has(pairText(pair)));
    const parts = [ctx.t("prices-title"), ...(blocks.length > 0 ? blocks : [ctx.t("partner-prices-none")])];
    if (unpriced.length > 0) {
      parts.push(ctx.t("partner-prices-pairs", { pairs: escapeHtml(pairNames(unpriced)) }));
    }
    parts.push(ctx.t("prices-hint"));
    for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
  });

  composer.command("price", async (ctx) => {
    const code = ctx.match.trim().toLowerCase().replace(/^\//, "");
    if (!CODE.test(code)) {
      await ctx.reply(ctx.t("partner-price-usage"));
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const card = await readCard(deps, ctx.t, code, locale);
    if (card.kind === "unknown") {
      await ctx.reply(ctx.t("partner-price-unknown", { code: code.toUpperCase(), pairs: card.pairs }));
      return;
    }
    const caption = card.parts.join("\n\n");
    const fits = caption.length <= CAPTION_LIMIT;
    const chart = fits ? await readChart(deps, code, "24h", card.latest) : undefined;
    if (chart === undefined) {
      // Too little history (the first minutes): said, and the spans offered for when there is more.
      const parts = fits ? [...card.parts, ctx.t("chart-too-short")] : card.parts;
      const chunks = chunkBlocks(parts);
      for (const [i, text] of chunks.entries()) {
        const last = fits && i === chunks.length - 1;
        await ctx.reply(text, {
          parse_mode: "HTML",
          ...(last ? { reply_markup: chartKeyboard(ctx.t, code, "24h") } : {}),
        });
      }
      return;
    }
    const photo = await chartPhoto(ctx.t, chart, { name: card.name, code, range: "24h" }, locale);
    await replyWithChart(ctx, photo, caption, chartKeyboard(ctx.t, code, "24h"));
  });

  // A span tapped under a chart: the rate read again, and the chart of that span.
  composer.callbackQuery(CALLBACK.chart.pattern, async (ctx) => {
    const { code, range } = CALLBACK.chart.read(ctx);
    const locale = await ctx.i18n.getLocale();
    const card = await readCard(deps, ctx.t, code, locale);
    const chart = card.kind === "card" ? await readChart(deps, code, range, card.latest) : undefined;
    if (card.kind === "unknown" || chart === undefined) {
      await ctx.answerCallbackQuery({
        text: ctx.t(card.kind === "unknown" ? "chart-gone" : "chart-too-short-tap"),
      });
      return;
    }
    await ctx.answerCallbackQuery();
    const photo = await chartPhoto(ctx.t, chart, { name: card.name, code, range }, locale);
    await showTappedChart(
      ctx,
      photo,
      card.parts.join("\n\n").slice(0, CAPTION_LIMIT),
      chartKeyboard(ctx.t, code, range),
    );
  });
  return composer;
}
