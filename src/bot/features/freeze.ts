/**
 * Freeze: the Freeze button under every security notice, or `/freeze` typed, stops every money
 * action at once, without a code (a phished code or a taken-over Telegram account is exactly when
 * the user has none to spare): safety/freezes.ts `freezeMoney` records it, cancels the quote cards
 * still open (their buttons taken off, flows/freeze.ts), logs the exchange session out with the
 * remembered password (account mode), and tells the user what was done and how to unfreeze. Installed before the flows (like /cancel), so
 * it works in the middle of one, which it leaves: a code step waiting for its code is over.
 *
 * `/unfreeze` (account mode) runs the login steps (a fresh login: e-mail, password and code, as
 * the remembered password went with the freeze), then money actions open UNFREEZE_DELAY_MINUTES
 * later, announced with another Freeze button that keeps them frozen. In partner mode the operator
 * desk unfreezes (operator-desk.ts); `/freeze USER` and `/unfreeze USER` with an argument are
 * the desk's, so they pass on from here.
 */

import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { freezeAndCloseCards } from "../flows/freeze.ts";
import { logInSteps } from "../flows/log-in.ts";
import { flowUserId } from "../flows/user.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { answerTap } from "../ui/edit.ts";
import { formatMoment } from "../ui/format.ts";
import { unfreezeHow } from "../ui/security-notice.ts";

export const UNFREEZE_FLOW = "unfreeze";

type FreezeDeps = Pick<BotDeps, "freezes" | "orders" | "sessions" | "securityNotices" | "partner">;

export function freezeFeature(deps: FreezeDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  /** True when the user was frozen already (no second notice: a short word says so). */
  async function freeze(ctx: PrivateContext): Promise<boolean> {
    // A flow waiting for a code or PIN is over: nothing it was about may go out now.
    await ctx.conversation.exitAll();
    const sessions = deps.partner ? undefined : deps.sessions;
    const { already } = await freezeAndCloseCards(ctx.api, { ...deps, sessions }, ctx.from.id, "user");
    // What was done and how to unfreeze comes as the `frozen` security notice, once.
    return already;
  }

  composer.command("freeze", async (ctx, next) => {
    if (isDeskCommand(deps, ctx.from.id, ctx.match)) return next();
    if (await freeze(ctx)) await ctx.reply(ctx.t("freeze-already"));
  });
  composer.callbackQuery(CALLBACK.freeze.data(), async (ctx) => {
    const already = await freeze(ctx);
    await answerTap(ctx, ctx.t(already ? "freeze-already" : "freeze-tapped"));
  });
  return composer;
}

/**
 * `/unfreeze`: a feature among the others (a flow is entered from there, after the flows), where
 * `freezeFeature` is seen before the flows.
 */
export function unfreezeFeature(deps: Pick<BotDeps, "freezes" | "partner">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  const setting = { support: deps.partner?.supportContact, unfreezeDelayMs: deps.freezes.unfreezeDelayMs };
  composer.command("unfreeze", async (ctx, next) => {
    if (isDeskCommand(deps, ctx.from.id, ctx.match)) return next();
    const frozen = await deps.freezes.current(ctx.from.id);
    if (frozen === undefined) {
      await ctx.reply(ctx.t("freeze-not-frozen"));
      return;
    }
    if (frozen.unfreezeAt !== undefined) {
      const time = formatMoment(frozen.unfreezeAt, await ctx.i18n.getLocale());
      await ctx.reply(ctx.t("unfreeze-already", { time }));
      return;
    }
    if (deps.partner) {
      await ctx.reply(unfreezeHow(ctx.t, setting));
      return;
    }
    await enterFlow(ctx, UNFREEZE_FLOW);
  });
  return composer;
}

/** An operator's `/freeze USER` or `/unfreeze USER` (partner mode): the operator desk's, not the sender's own. */
function isDeskCommand(deps: Pick<BotDeps, "partner">, senderId: number, match: string): boolean {
  return match.trim() !== "" && deps.partner?.operators.has(senderId) === true;
}

type UnfreezeDeps = Pick<BotDeps, "freezes" | "sessions" | "profiles" | "phishing" | "securityNotices">;

/** The `UNFREEZE_FLOW` conversation (account mode), installed by bot.ts. */
export function unfreezeConversation(deps: UnfreezeDeps): FlowSpec {
  return { id: UNFREEZE_FLOW, steps: unfreezeFlow(deps), timeoutMs: 10 * 60_000 };
}

function unfreezeFlow(deps: UnfreezeDeps) {
  return async function unfreeze(conversation: Flow, ctx: FlowContext): Promise<void> {
    const userId = flowUserId(ctx);
    await ctx.reply(ctx.t("unfreeze-intro"));
    // A fresh login, whatever session there is: the unfreeze is asked by whoever proves it now.
    if (!(await logInSteps(conversation, ctx, deps, { expired: false }))) {
      await ctx.reply(ctx.t("unfreeze-not-logged-in"));
      return;
    }
    const at = await externalCall(conversation, () => deps.freezes.scheduleUnfreeze(userId));
    if (at === undefined) return;
    // Announced as a security notice, with Freeze: the real user sees it and can keep it frozen.
    await externalCall(conversation, () =>
      deps.securityNotices.tell(userId, { type: "unfreeze-scheduled", at }),
    );
  };
}
