/**
 * The fresh secret a change to the safety net asks for (saving an address, turning the allowlist
 * off, a shorter cooling-off): in account mode a fresh 2FA code, checked by a fresh login
 * (flows/log-in.ts; the exchange API takes a code only at its login and in an order's POST, and
 * these changes place no order); in partner mode the PIN (partner/pins.ts: the same lock after
 * five wrong ones as a withdrawal's). The messages are deleted and the question carries the
 * anti-phishing phrase.
 *
 * @example
 * if (!(await freshSecretSteps(conversation, ctx, deps))) return; // nothing changed
 */
import { PIN } from "../../partner/pins.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { formatTime } from "../ui/format.ts";
import { withPhishingLine } from "../ui/phishing.ts";
import { externalCall } from "./external.ts";
import { logInSteps } from "./log-in.ts";
import { flowPhrase } from "./phishing.ts";
import { flowUserId } from "./user.ts";
import { waitForSecret } from "./wait.ts";

export type FreshSecretDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "partner">;

/** True when the user proved it is them just now. */
export async function freshSecretSteps(
  conversation: Flow,
  ctx: FlowContext,
  deps: FreshSecretDeps,
): Promise<boolean> {
  const pins = deps.partner?.pins;
  if (pins === undefined) {
    await ctx.reply(ctx.t("safety-code-why"));
    return logInSteps(conversation, ctx, deps, { expired: false, confirm: true });
  }
  const userId = flowUserId(ctx);
  const phrase = await flowPhrase(conversation, ctx, deps);
  await ctx.reply(withPhishingLine(ctx.t, phrase, ctx.t("safety-pin-ask")));
  for (;;) {
    const answer = await waitForSecret(conversation);
    // Rule 2: a PIN message goes before anything else is done with it.
    await answer.deleteMessage();
    const typed = answer.message.text.replace(/\s/g, "");
    if (!PIN.test(typed)) {
      await ctx.reply(withPhishingLine(ctx.t, phrase, ctx.t("safety-pin-format")));
      continue;
    }
    const check = await externalCall(conversation, () => pins.verify(userId, typed));
    if (check.ok) return true;
    if (check.reason === "wrong") {
      await ctx.reply(ctx.t("partner-pin-wrong", { left: check.left }));
      return false;
    }
    const locale = await ctx.i18n.getLocale();
    await ctx.reply(
      check.reason === "locked"
        ? ctx.t("safety-pin-locked", { time: formatTime(check.until, locale) })
        : ctx.t("safety-pin-not-set"),
    );
    return false;
  }
}
