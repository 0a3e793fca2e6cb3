/**
 * Inline mode, in any chat, for anyone (logged in or not): `@bot` alone lists the top currencies,
 * `@bot btc` (or `bitcoin`, `btceur`, `BTC`, or the start of a code or name) that currency's card.
 * Every answer comes from the shared market feed, so a thousand queries in one second cost one
 * exchange request. An unknown currency, or no prices at all, is an empty list with a button that
 * opens the bot: never an error.
 *
 * Installed before session and conversations: an inline query has no chat. The locale comes from
 * the i18n negotiator (the user's /language choice, else their Telegram language).
 *
 * Results are localized (language and number format), so Telegram may cache them only per user
 * (`is_personal`): a shared cache would show a German card to an English user.
 *
 * With WEBAPP_URL (the bot's HTTP server is public) and price history to draw, a search's best
 * match comes first as a photo: its 24 h chart with the card as caption. Telegram fetches the
 * picture from the bot's own server under a signed address that expires (charts/photo-url.ts,
 * charts/route.ts); the addresses change every 10 minutes, so answers in one window share one.
 */
import Big from "big.js";
import type { Composer } from "grammy";
import type { InlineQueryResult, InlineQueryResultArticle, InlineQueryResultPhoto } from "grammy/types";
import { chartPhotoUrl } from "../../charts/photo-url.ts";
import { CHART_HEIGHT, CHART_WIDTH } from "../../charts/render.ts";
import { formatChange } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { MarketUnavailableError } from "../../market/errors.ts";
import type { MarketPrice, MarketSnapshot } from "../../market/types.ts";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Chain } from "../runtime/middleware-chain.ts";
import { searchCurrencies } from "../ui/currency-choice.ts";
import { ageMinutes, priceCardHtml, priceChoices } from "../ui/price-card.ts";
import { changeArrow, formatPrice } from "../ui/price-format.ts";

/** How long Telegram may serve the same answer again: about the feed's TTL. */
export const INLINE_CACHE_SECONDS = 10;
/** Stale data or no data: ask again soon, the exchange may be back. */
export const INLINE_RETRY_CACHE_SECONDS = 5;
/** Telegram takes at most 50 results. */
const MAX_RESULTS = 50;
/** `/start inline`: where the button under an empty answer leads. */
export const INLINE_START_PARAMETER = "inline";
/** Chart addresses are made per window of this length… */
const PHOTO_WINDOW_MS = 10 * 60_000;
/** …and work for this many windows after theirs began (60–70 minutes). */
const PHOTO_WINDOWS = 7;

type InlineDeps = Pick<BotDeps, "market" | "clock" | "priceHistory" | "vault" | "config">;

export function inlineFeature(deps: InlineDeps): Composer<BotContext> {
  const composer = new Chain<BotContext>();
  composer.on("inline_query", async (ctx) => {
    let snapshot: MarketSnapshot;
    try {
      snapshot = await deps.market.snapshot();
    } catch (error) {
      if (!(error instanceof MarketUnavailableError)) throw error;
      await ctx.answerInlineQuery([], {
        cache_time: INLINE_RETRY_CACHE_SECONDS,
        is_personal: true,
        button: {
          text: ctx.t(error.reason === "no-source" ? "inline-no-source" : "inline-unavailable"),
          start_parameter: INLINE_START_PARAMETER,
        },
      });
      return;
    }
    const query = ctx.inlineQuery.query.trim();
    const choices = priceChoices(snapshot.prices);
    const found = query === "" ? choices : searchCurrencies(query, choices);
    const cacheTime = snapshot.stale ? INLINE_RETRY_CACHE_SECONDS : INLINE_CACHE_SECONDS;
    if (found.length === 0) {
      await ctx.answerInlineQuery([], {
        cache_time: cacheTime,
        is_personal: true,
        button: { text: ctx.t("inline-open-bot"), start_parameter: INLINE_START_PARAMETER },
      });
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const articles = articlesOf(ctx.t, snapshot, locale, deps.clock.now());
    const results: InlineQueryResult[] = found
      .slice(0, MAX_RESULTS)
      .map((choice) => articles.get(choice.item.currency))
      .filter((article) => article !== undefined);
    const best = found[0]?.item.currency;
    const bestArticle = best === undefined ? undefined : articles.get(best);
    if (query !== "" && best !== undefined && bestArticle !== undefined && (await drawable(deps, snapshot))) {
      results.splice(MAX_RESULTS - 1);
      results.unshift(chartResult(deps, bestArticle, best, locale));
    }
    await ctx.answerInlineQuery(results, { cache_time: cacheTime, is_personal: true });
  });
  return composer;
}

/** Whether inline answers carry a chart: a public server to fetch it from, and history to draw. */
const DRAWABLE = new WeakMap<MarketSnapshot, Promise<boolean>>();

function drawable(deps: InlineDeps, snapshot: MarketSnapshot): Promise<boolean> {
  if (deps.config.webAppUrl === undefined) return Promise.resolve(false);
  // One store read per snapshot, however many queries read it.
  let known = DRAWABLE.get(snapshot);
  if (known === undefined) {
    known = deps.priceHistory.hasRecent(deps.clock.now()).catch(() => false);
    DRAWABLE.set(snapshot, known);
  }
  return known;
}

/** The currency's 24 h chart as a photo result, with the article's card as its caption. */
function chartResult(
  deps: InlineDeps,
  article: InlineQueryResultArticle,
  code: string,
  locale: string,
): InlineQueryResultPhoto {
  const window = Math.floor(deps.clock.now() / PHOTO_WINDOW_MS);
  const chart = { code, range: "24h", locale, expiresAt: (window + PHOTO_WINDOWS) * PHOTO_WINDOW_MS };
  const base = deps.config.webAppUrl ?? "";
  const card = article.input_message_content;
  return {
    type: "photo",
    id: `chart-${code}`.slice(0, 64),
    // JPEG, as the Bot API asks of both (charts/photo-url.ts).
    photo_url: chartPhotoUrl(base, deps.vault, { ...chart, size: "photo" }),
    thumbnail_url: chartPhotoUrl(base, deps.vault, { ...chart, size: "thumbnail" }),
    photo_width: CHART_WIDTH,
    photo_height: CHART_HEIGHT,
    title: article.title,
    ...(article.description === undefined ? {} : { description: article.description }),
    ...("message_text" in card ? { caption: card.message_text, parse_mode: "HTML" as const } : {}),
  };
}

/**
 * Every currency's article for one snapshot and locale, made once and shared by every query that
 * reads the same snapshot (formatting numbers and dates is most of the work of an answer).
 */
const ARTICLES = new WeakMap<MarketSnapshot, Map<string, Map<string, InlineQueryResultArticle>>>();

function articlesOf(
  t: Translate,
  snapshot: MarketSnapshot,
  locale: string,
  now: number,
): Map<string, InlineQueryResultArticle> {
  let byLocale = ARTICLES.get(snapshot);
  if (byLocale === undefined) {
    byLocale = new Map();
    ARTICLES.set(snapshot, byLocale);
  }
  // A stale card says how old it is: one set per minute of age.
  const key = snapshot.stale ? `${locale}:${ageMinutes(snapshot.fetchedAt, now)}` : locale;
  let articles = byLocale.get(key);
  if (articles === undefined) {
    articles = new Map(snapshot.prices.map((p) => [p.currency, priceArticle(t, p, snapshot, locale, now)]));
    byLocale.set(key, articles);
  }
  return articles;
}

/** One currency as an inline result: title and description to pick it, a price card to send. */
export function priceArticle(
  t: Translate,
  price: MarketPrice,
  snapshot: Pick<MarketSnapshot, "fetchedAt" | "stale">,
  locale: string,
  now: number,
): InlineQueryResultArticle {
  const change = new Big(price.change24h);
  const changeVars = { arrow: changeArrow(change), change: formatChange(change, locale) };
  return {
    type: "article",
    id: `price-${price.currency}`.slice(0, 64),
    title: t("inline-title", {
      name: price.name,
      code: price.currency.toUpperCase(),
      price: formatPrice(new Big(price.price), locale),
    }),
    description: snapshot.stale
      ? t("inline-description-stale", { ...changeVars, minutes: ageMinutes(snapshot.fetchedAt, now) })
      : t("inline-description", changeVars),
    input_message_content: {
      message_text: priceCardHtml(
        t,
        { price, fetchedAt: snapshot.fetchedAt, stale: snapshot.stale },
        locale,
        now,
      ),
      parse_mode: "HTML",
    },
  };
}
