/**
 * /prices and /price in partner mode: the exchange's rates and pairs (`/prices`), or the rate and
 * currency of one code (`/price btc`), shown as they come (ui/fields.ts).
 *
 * Tolerant reading: a rate or currency item is about `btc` when one of its text fields is `btc`,
 * starts with `btc` followed by a separator (`BTC/EUR`, `btc_eur`), or is the pair `btceur`.
 */
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import { Feature } from "../feature-router.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { fieldBlocks, findField, itemsOf } from "../ui/fields.ts";
import { escapeHtml } from "../ui/format.ts";

const CODE = /^[a-z0-9]{1,12}$/;

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

/** The pairs' names in a line (`btceur, etheur`), for telling what /price knows. */
function pairNames(pairs: unknown): string {
  return itemsOf(pairs)
    .map((item) => (typeof item === "string" ? item : findField(item, ["pair", "symbol", "name", "code"])))
    .filter((name): name is string => name !== undefined)
    .slice(0, 40)
    .join(", ");
}

export function partnerPricesFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  const { api } = deps.partner;

  composer.command("prices", async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const [rates, pairs] = await Promise.all([api.exchangeRates(), api.pairs()]);
    const rateBlocks = fieldBlocks(ctx.t, rates, locale);
    const parts = [
      ctx.t("partner-prices-title"),
      ...(rateBlocks.length > 0 ? rateBlocks : [ctx.t("partner-prices-none")]),
      ctx.t("partner-prices-pairs", { pairs: escapeHtml(pairNames(pairs) || "—") }),
    ];
    for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
  });

  composer.command("price", async (ctx) => {
    const code = ctx.match.trim().toLowerCase().replace(/^\//, "");
    if (!CODE.test(code)) {
      await ctx.reply(ctx.t("partner-price-usage"));
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const [rates, currencies, pairs] = await Promise.all([
      api.exchangeRates(),
      api.currencies(),
      api.pairs(),
    ]);
    const rate = itemsOf(rates).filter((item) => mentions(item, code));
    const currency = itemsOf(currencies).filter((item) => mentions(item, code));
    if (rate.length === 0 && currency.length === 0) {
      await ctx.reply(
        ctx.t("partner-price-unknown", { code: code.toUpperCase(), pairs: pairNames(pairs) || "—" }),
      );
      return;
    }
    const parts = [
      ctx.t("partner-price-title", { code: code.toUpperCase() }),
      ...fieldBlocks(ctx.t, rate, locale),
      ...fieldBlocks(ctx.t, currency, locale),
    ];
    for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
  });
  return composer;
}
