/**
 * /pin in partner mode: the user changes their PIN. The current PIN first (its message deleted at
 * once; a wrong one counts against the same lock as withdrawals, so /pin cannot be used to guess
 * it), then the new one twice, refused when easy to guess (flows/pin.ts, as at sign-up). Every
 * question carries the anti-phishing phrase. The change is a security notice with Freeze.
 *
 * A forgotten PIN is reset only by the operator desk (`/pinreset USER`, operator-desk.ts), which
 * removes it and tells the user, with Freeze. The user then sets a new one here without an old
 * one: the operator checked who they spoke to before the reset, the reset notice (with Freeze)
 * reaches the real user's chat, and until a PIN is set no withdrawal can go out (the PIN step
 * says "no PIN yet: set one with /pin"), so nothing is lost by waiting for the user.
 */
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { PartnerBotDeps } from "../../deps.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { flowPhrase } from "../../flows/phishing.ts";
import { askNewPin, readPin } from "../../flows/pin.ts";
import { flowUserId } from "../../flows/user.ts";
import type { FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { formatTime } from "../../ui/format.ts";
import { withPhishingLine } from "../../ui/phishing.ts";

export const PIN_FLOW = "partner-pin";

type PinDeps = Pick<PartnerBotDeps, "partner" | "phishing" | "securityNotices">;

/** The `PIN_FLOW` conversation, installed by bot.ts; abandoned after a few minutes. */
export function partnerPinConversation(deps: PinDeps): FlowSpec {
  return { id: PIN_FLOW, steps: pinFlow(deps), timeoutMs: 5 * 60_000 };
}

export function partnerPinFeature(): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("pin", (ctx) => enterFlow(ctx, PIN_FLOW));
  return composer;
}

function pinFlow(deps: PinDeps) {
  const { pins } = deps.partner;
  return async function partnerPin(conversation: Flow, ctx: FlowContext): Promise<void> {
    const userId = flowUserId(ctx);
    const phrase = await flowPhrase(conversation, ctx, deps);
    const ask = (text: string) => ctx.reply(withPhishingLine(ctx.t, phrase, text));
    const hasPin = await externalCall(conversation, () => pins.has(userId));
    if (hasPin) {
      const lockedUntil = await externalCall(conversation, () => pins.lockedUntil(userId));
      if (lockedUntil !== undefined) {
        await ctx.reply(ctx.t("pin-locked", { time: formatTime(lockedUntil, await ctx.i18n.getLocale()) }));
        return;
      }
      await ask(ctx.t("pin-ask-old"));
      const old = await readPin(conversation, ctx);
      const check = await externalCall(conversation, () => pins.verify(userId, old));
      if (!check.ok) {
        if (check.reason === "wrong") await ctx.reply(ctx.t("pin-wrong", { left: check.left }));
        else if (check.reason === "locked") {
          await ctx.reply(ctx.t("pin-locked", { time: formatTime(check.until, await ctx.i18n.getLocale()) }));
        }
        return;
      }
    }
    const pin = await askNewPin(conversation, ctx, ask, hasPin ? "pin-ask-new" : "pin-ask-first");
    await externalCall(conversation, async () => {
      await pins.set(userId, pin);
      await deps.securityNotices.tell(userId, { type: "pin-changed" });
    });
    await ctx.reply(ctx.t("pin-changed"));
  };
}
