/**
 * /limits in partner mode: the fiat deposit and withdrawal limits, asked for one type at a time
 * (the exchange's API reference leaves the answer without `type` unspecified), read for their usual
 * fields (exchange/partner-read.ts: ceilings and use per day and month) and shown as account mode shows
 * limits (ui/limit-block.ts); fields nobody recognised follow, named and formatted (ui/fields.ts).
 */
import type Big from "big.js";
import { formatAmount } from "../../../domain/money.ts";
import type { Translate } from "../../../domain/translate.ts";
import type { PartnerLimits } from "../../../exchange/partner-schemas.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { PrivateContext } from "../../context.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { fieldBlocks } from "../../ui/fields.ts";
import { LIMIT_TYPE_KEYS, limitBlockText } from "../../ui/limit-block.ts";

/** The blocks of one limit type's answer: its records as limits, under the type's title, then the rest. */
export function partnerLimitBlocks(
  t: Translate,
  type: string,
  read: PartnerLimits,
  locale: string,
): string[] {
  const { rest } = read;
  // An exchange that ignores `type` answers both kinds each time: keep the one asked for.
  const asked = read.rows.filter((row) => row.type === type);
  const rows = asked.length > 0 ? asked : read.rows;
  const blocks = rows.map((row) => {
    const key = LIMIT_TYPE_KEYS.get(row.type ?? type);
    const title = t(key ?? "limits-type-other");
    const amount = (value: Big) => formatAmount(value, row.currency, locale);
    return limitBlockText(t, { ...row, title }, amount, locale);
  });
  const others = fieldBlocks(t, rest, locale);
  if (rows.length === 0) {
    const key = LIMIT_TYPE_KEYS.get(type);
    blocks.push(t(key ?? "limits-type-other"));
    if (others.length === 0) others.push(t("partner-limits-none"));
  }
  return [...blocks, ...others];
}

export function partnerLimitsFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("limits", async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const [deposit, withdrawal] = await Promise.all([
      deps.partner.api.userLimits(id, "fiat_deposit"),
      deps.partner.api.userLimits(id, "fiat_withdrawal"),
    ]);
    const parts = [
      ctx.t("partner-limits-title"),
      ...partnerLimitBlocks(ctx.t, "fiat_deposit", deposit, locale),
      ...partnerLimitBlocks(ctx.t, "fiat_withdrawal", withdrawal, locale),
    ];
    for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
  });
  return composer;
}
