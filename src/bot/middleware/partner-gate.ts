/**
 * The KYC gate in front of every partner account feature (ARCHITECTURE.md, partner mode): a Telegram
 * user the bot has not signed up is sent to /start; a signed-up one is let through only when the
 * exchange says `kyc_status: passed` (and no enhanced due diligence is outstanding). Everyone else
 * hears where they stand and what to do. The status is read from the exchange on every gated
 * update: it changes there, not here.
 *
 * Order cards' taps (`ord:` Confirm and Cancel of the partner kinds) are gated like any tap; what
 * the gate does not see — a Confirm or Cancel typed as text, and the PIN step (a conversation) —
 * asks {@link kycStanding} itself (features/orders.ts, flows/order-code.ts).
 *
 * The operator desk's commands pass the gate: operators need not be customers, and for anyone else
 * the desk answers as for any unknown command. So do its paging buttons (`atx:`), and an
 * operator's `/freeze USER` and `/unfreeze USER`, for operators.
 */
import type { MiddlewareFn } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import type { PartnerServices } from "../../partner/services.ts";
import { OPERATOR_COMMANDS } from "../commands.ts";
import type { PrivateContext } from "../context.ts";
import type { PartnerBotDeps } from "../deps.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { readKyc } from "../ui/kyc-status.ts";

export function partnerGate(deps: Pick<PartnerBotDeps, "partner">): MiddlewareFn<PrivateContext> {
  const { partner } = deps;
  return async (ctx, next) => {
    if (isOperatorCommand(ctx.message?.text)) return next();
    // An operator's `/freeze USER` and `/unfreeze USER` are the desk's too (features/freeze.ts).
    if (partner.operators.has(ctx.from.id) && DESK_WITH_USER.test(ctx.message?.text ?? "")) return next();
    if (
      partner.operators.has(ctx.from.id) &&
      (ctx.callbackQuery?.data ?? "").startsWith(CALLBACK.deskTxPage.prefix)
    )
      return next();
    const standing = await kycStanding(partner, ctx.from.id, ctx.t);
    if (standing.serve) return next();
    if (ctx.callbackQuery) await ctx.answerCallbackQuery();
    await ctx.reply(standing.text);
  };
}

/**
 * Whether the exchange serves this Telegram user now, and if not the sentence that says why. The
 * gate asks it for every command and tap; the PIN step asks it again before a withdrawal goes out,
 * since KYC can change between Confirm and the PIN.
 */
export async function kycStanding(
  partner: Pick<PartnerServices, "users" | "api" | "kyc" | "supportContact">,
  telegramId: number,
  t: Translate,
): Promise<{ serve: true } | { serve: false; text: string }> {
  const partnerUserId = await partner.users.partnerIdOf(telegramId);
  if (partnerUserId === undefined) return { serve: false, text: t("signup-required") };
  const user = await partner.api.getUser(partnerUserId);
  await partner.kyc.saw(telegramId, user.kyc_status);
  const reading = readKyc(t, user, partner.supportContact);
  return reading.verdict === "serve" ? { serve: true } : { serve: false, text: reading.text };
}

const DESK_WITH_USER = /^\/(?:freeze|unfreeze)(?:@\S+)?\s+\S/i;

function isOperatorCommand(text: string | undefined): boolean {
  const command = text === undefined ? undefined : /^\/([A-Za-z0-9_]+)(?:@\S+)?/.exec(text)?.[1];
  return command !== undefined && OPERATOR_COMMANDS.includes(command.toLowerCase());
}
