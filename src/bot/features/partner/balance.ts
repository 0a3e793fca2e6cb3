/**
 * /balance in partner mode: the partner user's balances read for their usual fields
 * (exchange/partner-read.ts) and shown as account mode shows them (ui/balance-text.ts): the euros, the total
 * when every balance has its EUR value, one line per crypto held with its value at the partner's
 * EUR rate (GET …/exchange-rates, asked alongside; a currency without a rate keeps the value its
 * balance carried), the empty ones in one line.
 * Whatever the exchange sent that nobody recognised follows, named and formatted (ui/fields.ts).
 */
import { EUR } from "../../../domain/currency.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { PrivateContext } from "../../context.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { balanceLines, partnerTotal, valuedAtRates } from "../../ui/balance-text.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { fieldBlocks } from "../../ui/fields.ts";

export function partnerBalanceFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("balance", async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const { api } = deps.partner;
    // Without rates the balances still show, with whatever value they carried.
    const [balances, rates] = await Promise.all([
      api.userBalance(id),
      api.exchangeRates().then(
        (answer) => answer.rows,
        () => [],
      ),
    ]);
    const rows = valuedAtRates(balances.rows, rates);
    const { rest } = balances;
    const euro = rows.find((row) => row.currency === EUR);
    const crypto = rows.filter((row) => row.currency !== EUR);
    const total = partnerTotal(rows);
    const parts = [ctx.t("partner-balance-title")];
    if (rows.length > 0) {
      parts.push(balanceLines(ctx.t, { eur: euro?.amount, total, crypto }, locale).join("\n"));
    }
    parts.push(...fieldBlocks(ctx.t, rest, locale));
    if (parts.length === 1) parts.push(ctx.t("partner-balance-empty"));
    for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
  });
  return composer;
}
