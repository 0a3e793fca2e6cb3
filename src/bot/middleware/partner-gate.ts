/**
 * The KYC gate in front of every partner account feature (ARCHITECTURE.md, partner mode): a Telegram
 * user the bot has not signed up is sent to /start; a signed-up one is let through only when the
 * exchange says `kyc_status: passed` (and no enhanced due diligence is outstanding). Everyone else
 * hears where they stand and what to do. The status is read from the exchange on every gated
 * update: it changes there, not here.
 *
 * The operator desk's commands pass the gate: operators need not be customers, and for anyone else
 * the desk answers as for any unknown command.
 */
import type { MiddlewareFn } from "grammy";
import { OPERATOR_COMMANDS } from "../commands.ts";
import type { PrivateContext } from "../context.ts";
import type { PartnerBotDeps } from "../deps.ts";
import { readKyc } from "../ui/kyc-status.ts";

export function partnerGate(deps: Pick<PartnerBotDeps, "partner">): MiddlewareFn<PrivateContext> {
  const { partner } = deps;
  return async (ctx, next) => {
    if (isOperatorCommand(ctx.message?.text)) return next();
    const partnerUserId = await partner.users.partnerIdOf(ctx.from.id);
    if (partnerUserId === undefined) {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery();
      await ctx.reply(ctx.t("signup-required"));
      return;
    }
    const user = await partner.api.getUser(partnerUserId);
    await partner.kyc.saw(ctx.from.id, user.kyc_status);
    const reading = readKyc(ctx.t, user, partner.supportContact);
    if (reading.verdict === "serve") return next();
    if (ctx.callbackQuery) await ctx.answerCallbackQuery();
    await ctx.reply(reading.text);
  };
}

function isOperatorCommand(text: string | undefined): boolean {
  const command = text === undefined ? undefined : /^\/([A-Za-z0-9_]+)(?:@\S+)?/.exec(text)?.[1];
  return command !== undefined && OPERATOR_COMMANDS.includes(command.toLowerCase());
}
