/** /balance in partner mode: the partner user's balances, as the exchange sends them (ui/fields.ts). */
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import { Feature } from "../feature-router.ts";
import { partnerUserOf } from "../flows/partner-user.ts";
import { fieldMessages } from "../ui/fields.ts";

export function partnerBalanceFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("balance", async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const balances = await deps.partner.api.userBalance(id);
    const empty = ctx.t("partner-balance-empty");
    for (const text of fieldMessages(ctx.t, ctx.t("partner-balance-title"), balances, locale, { empty })) {
      await ctx.reply(text, { parse_mode: "HTML" });
    }
  });
  return composer;
}
