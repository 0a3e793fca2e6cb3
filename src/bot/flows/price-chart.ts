/**
 * A currency's price chart as /price sends it in both modes: the points read from the price
 * history (market/history.ts) with the price of the caption as the last one, drawn by charts/
 * with the words of the user's language, sent as a photo with the price card as its caption and
 * the span buttons below; a tap on a span edits the picture in place (editMessageMedia).
 *
 * With fewer than two points there is no line to draw: `readChart` says so (undefined) and the
 * feature answers with text, as before charts. When the span reaches back further than the data
 * (a new install), the picture says since when it has data.
 *
 * @example
 * const chart = await readChart(deps, "btc", "24h", { at: snapshot.fetchedAt, price: item.price });
 * if (chart) await replyWithChart(ctx, await chartPhoto(ctx.t, chart, label, locale), caption, keyboard);
 */
import type { InlineKeyboard } from "grammy";
import { InputFile } from "grammy";
import { CHART_PHOTO_PICTURES, type ChartPhotoRef } from "../../charts/photo-url.ts";
import { type ChartPicture, drawChart } from "../../charts/render.ts";
import { chartPhotoRoute } from "../../charts/route.ts";
import { readerZone } from "../../domain/reader-zone.ts";
import type { Translate } from "../../domain/translate.ts";
import { MarketUnavailableError } from "../../market/errors.ts";
import { type ChartRange, isChartRange } from "../../market/history.ts";
import type { MarketSnapshot } from "../../market/types.ts";
import type { HttpRoute } from "../../support/http-route.ts";
import type { BotContext, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { formatMoment } from "../ui/format.ts";
import { coveredName } from "../ui/price-card.ts";

export type ChartDeps = Pick<BotDeps, "priceHistory" | "clock">;

/** What a chart is drawn from, JSON-safe (it may pass through a conversation's `external`). */
export interface ChartData {
  /** [ms, EUR price], oldest first, at least two. */
  points: [number, number][];
  /** The oldest point, when the data starts inside the span. */
  since: number | undefined;
}

/** Who the chart is of: the currency's name and code, and the span shown. */
export interface ChartLabel {
  name: string;
  code: string;
  range: ChartRange;
}

/** The latest price, as the caption shows it: the chart ends where the caption's figure is. */
export interface LatestPrice {
  at: number;
  price: string;
}

/** The points of `currency` over `range`, or undefined when there are fewer than two. */
export async function readChart(
  deps: ChartDeps,
  currency: string,
  range: ChartRange,
  latest?: LatestPrice,
): Promise<ChartData | undefined> {
  const series = await deps.priceHistory.series(currency, range, deps.clock.now());
  const points = series.points.map(([at, price]): [number, number] => [at, price]);
  const value = latest === undefined ? Number.NaN : Number(latest.price);
  const lastAt = points.at(-1)?.[0];
  if (
    latest !== undefined &&
    Number.isFinite(value) &&
    value > 0 &&
    (lastAt === undefined || latest.at > lastAt)
  ) {
    points.push([latest.at, value]);
  }
  // One point is no line: the text answer, as before there were charts.
  if (points.length < 2) return undefined;
  return { points, since: series.since };
}

/** The chart as a PNG photo to upload, worded in `t`'s language. */
export async function chartPhoto(
  t: Translate,
  data: ChartData,
  label: ChartLabel,
  locale: string,
): Promise<InputFile> {
  const png = await chartPicture(t, data, label, locale, { format: "png" });
  return new InputFile(png, `${label.code}-${label.range}.png`);
}

/** The chart's title (the span its data really covers) and note (since when, with the zone). */
export function chartWords(
  t: Translate,
  data: ChartData,
  label: ChartLabel,
  locale: string,
): { title: string; note: string | undefined } {
  return {
    title: t("chart-title", {
      name: label.name,
      code: label.code.toUpperCase(),
      range: coveredName(t, label.range, data.points, data.since),
    }),
    note: data.since === undefined ? undefined : t("chart-since", { time: formatMoment(data.since, locale) }),
  };
}

/** The chart's bytes, worded in `t`'s language. */
function chartPicture(
  t: Translate,
  data: ChartData,
  label: ChartLabel,
  locale: string,
  picture: ChartPicture,
): Promise<Buffer> {
  const code = label.code.toUpperCase();
  return drawChart(
    {
      ...chartWords(t, data, label, locale),
      lines: [{ name: code, points: data.points }],
      unit: "eur",
      locale,
      span: label.range === "24h" ? "day" : "days",
      zone: readerZone(),
    },
    picture,
  );
}

/**
 * The picture behind a checked chart address (charts/route.ts, inline answers): the currency's
 * chart as /price would draw it now, in the address's language, as a JPEG of the address's size;
 * undefined when the feed does not list the currency or there is nothing to draw (the route
 * answers 404). A failed drawing rejects (the route answers 500, Telegram shows no picture).
 */
export async function chartPhotoJpeg(
  deps: ChartDeps & Pick<BotDeps, "market" | "i18n">,
  ref: ChartPhotoRef,
): Promise<Buffer | undefined> {
  if (!isChartRange(ref.range)) return undefined;
  let snapshot: MarketSnapshot;
  try {
    snapshot = await deps.market.snapshot();
  } catch (error) {
    if (error instanceof MarketUnavailableError) return undefined;
    throw error;
  }
  const item = snapshot.prices.find((p) => p.currency === ref.code);
  if (item === undefined) return undefined;
  const chart = await readChart(deps, item.currency, ref.range, {
    at: snapshot.fetchedAt,
    price: item.price,
  });
  if (chart === undefined) return undefined;
  const t: Translate = (key, vars) => deps.i18n.t(ref.locale, key, vars);
  const label = { name: item.name, code: item.currency, range: ref.range };
  return chartPicture(t, chart, label, ref.locale, CHART_PHOTO_PICTURES[ref.size]);
}

/** Sends the chart with its caption (HTML) and span buttons. */
export async function replyWithChart(
  ctx: BotContext | FlowContext,
  photo: InputFile,
  caption: string,
  keyboard: InlineKeyboard,
): Promise<void> {
  await ctx.replyWithPhoto(photo, { caption, parse_mode: "HTML", reply_markup: keyboard });
}

/**
 * A span tapped: the picture replaced in place; under a card sent as text (no history yet then)
 * the chart comes as a new message, and the text's buttons go (its chart is the new message).
 */
export async function showTappedChart(
  ctx: BotContext,
  photo: InputFile,
  caption: string,
  keyboard: InlineKeyboard,
): Promise<void> {
  const message = ctx.callbackQuery?.message;
  if (message !== undefined && "photo" in message && message.photo !== undefined) {
    await editChart(ctx, photo, caption, keyboard);
    return;
  }
  await replyWithChart(ctx, photo, caption, keyboard);
  // Best effort: a text too old to edit keeps its buttons, and a tap on them draws again.
  await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
}

/** Replaces the tapped message's picture and caption (the span buttons move with the span). */
export async function editChart(
  ctx: BotContext,
  photo: InputFile,
  caption: string,
  keyboard: InlineKeyboard,
): Promise<void> {
  await ctx.editMessageMedia(
    { type: "photo", media: photo, caption, parse_mode: "HTML" },
    { reply_markup: keyboard },
  );
}

/** `GET /chart/…` on the bot's HTTP server (with WEBAPP_URL): the pictures inline answers name. */
export function chartPhotos(deps: ChartDeps & Pick<BotDeps, "market" | "i18n" | "vault" | "log">): HttpRoute {
  return chartPhotoRoute({
    signer: deps.vault,
    clock: deps.clock,
    draw: (ref) => chartPhotoJpeg(deps, ref),
    onError: (error) => deps.log.error({ err: error }, "chart picture failed"),
  });
}
