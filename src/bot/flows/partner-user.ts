/**
 * The partner user a Telegram user was linked to at sign-up. Partner features run behind the KYC
 * gate, which has already found the link; a missing one (the link store lost, or the gate not
 * installed) still gets a sentence instead of a call for a made-up user.
 *
 * @example
 * const id = await partnerUserOf(ctx, deps);
 * if (id === undefined) return;
 */
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";

export async function partnerUserOf(
  ctx: PrivateContext,
  deps: { partner: PartnerServices },
): Promise<number | undefined> {
  const id = await deps.partner.users.partnerIdOf(ctx.from.id);
  if (id === undefined) await ctx.reply(ctx.t("partner-not-linked"));
  return id;
}
