/**
 * /limits in partner mode: the fiat deposit and withdrawal limits, asked for one type at a time
 * (the exchange's API reference leaves the answer without `type` unspecified), shown as they come (ui/fields.ts).
 */
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import { Feature } from "../feature-router.ts";
import { partnerUserOf } from "../flows/partner-user.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { fieldBlocks } from "../ui/fields.ts";

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
    const section = (title: string, payload: unknown) => {
      const blocks = fieldBlocks(ctx.t, payload, locale);
      return [title, ...(blocks.length > 0 ? blocks : [ctx.t("partner-limits-none")])];
    };
    const parts = [
      ...section(ctx.t("partner-limits-deposit"), deposit),
      ...section(ctx.t("partner-limits-withdrawal"), withdrawal),
    ];
    for (const text of chunkBlocks([ctx.t("partner-limits-title"), ...parts])) {
      await ctx.reply(text, { parse_mode: "HTML" });
    }
  });
  return composer;
}
