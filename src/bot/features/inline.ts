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
 */
import Big from "big.js";
import type { Composer } from "grammy";
import type { InlineQueryResultArticle } from "grammy/types";
import { MarketUnavailableError } from "../../market/errors.ts";
import type { MarketPrice, MarketSnapshot } from "../../market/types.ts";
import { formatChange } from "../../money.ts";
import type { Translate } from "../../translate.ts";
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

export function inlineFeature(deps: Pick<BotDeps, "market" | "clock">): Composer<BotContext> {
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
    const results = found
      .slice(0, MAX_RESULTS)
      .map((choice) => articles.get(choice.item.currency))
      .filter((article) => article !== undefined);
    await ctx.answerInlineQuery(results, { cache_time: cacheTime, is_personal: true });
  });
  return composer;
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
