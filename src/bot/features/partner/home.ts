/**
 * /home in partner mode (behind the KYC gate): the home card of the partner user (flows/home.ts),
 * and its Refresh button, which edits it in place. A served user's /start shows the same card
 * (features/partner/signup.ts).
 */
import type { PrivateContext } from "../../context.ts";
import type { PartnerBotDeps } from "../../deps.ts";
import { type HomeDeps, showPartnerHome } from "../../flows/home.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { CALLBACK } from "../../ui/callback-data.ts";

export function partnerHomeFeature(
  deps: Pick<PartnerBotDeps, "partner"> & HomeDeps,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function home(ctx: PrivateContext, how: "reply" | "edit"): Promise<void> {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const user = await deps.partner.api.getUser(id);
    await showPartnerHome(ctx, deps, id, user.name ?? ctx.from.first_name, how);
  }

  composer.command("home", (ctx) => home(ctx, "reply"));
  composer.callbackQuery(CALLBACK.home.data("home"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await home(ctx, "edit");
  });
  return composer;
}
