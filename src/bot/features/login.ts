/**
 * /login: e-mail, password, 2FA code (SECURITY.md, rules 2 and 3). The password message is
 * deleted before anything else happens with it; the code message too. A wrong code asks again,
 * up to three times; failed logins are limited per user by `Sessions`. With a remembered
 * password, only a fresh code is asked.
 *
 * The conversation's state holds the typed messages until it ends: its storage is encrypted
 * (store/encrypted-adapter.ts), and nothing secret is returned from `external`.
 */
import { createConversation } from "@grammyjs/conversations";
import type { Composer } from "grammy";
import { EXPIRY_WARNING_MS } from "../../session/expiry-watch.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../feature-router.ts";
import { logInSteps } from "../flows/log-in.ts";
import { formatTime } from "../ui/format.ts";
import { LOGIN_CALLBACK } from "../ui/keyboards.ts";

export const LOGIN_FLOW = "login";
const LOGIN_TIMEOUT_MS = 5 * 60_000;

export function loginFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "clock">,
  flows: Composer<PrivateContext>,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  // An abandoned login (a typed password in its state) ends after a few minutes.
  flows.use(createConversation(loginFlow(deps), { id: LOGIN_FLOW, maxMillisecondsToWait: LOGIN_TIMEOUT_MS }));

  async function start(ctx: PrivateContext): Promise<void> {
    // Locked out after failed logins: say so before asking for anything secret.
    const retryAt = await deps.sessions.loginBlockedUntil(ctx.from.id);
    if (retryAt !== undefined) {
      const time = formatTime(retryAt, await ctx.i18n.getLocale());
      await ctx.reply(ctx.t("login-rate-limited", { time }));
      return;
    }
    const status = await deps.sessions.status(ctx.from.id);
    const remembered = await deps.sessions.hasRememberedPassword(ctx.from.id);
    // A live session is renewed only near its end ("stay logged in") or by the quick path.
    const renewing = status.state === "active" && status.expiresAt - deps.clock.now() <= EXPIRY_WARNING_MS;
    if (status.state === "active" && !remembered && !renewing) {
      await ctx.reply(ctx.t("login-already", { email: status.email }));
      return;
    }
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(LOGIN_FLOW);
  }

  composer.command("login", start);
  composer.callbackQuery(LOGIN_CALLBACK, async (ctx) => {
    await ctx.answerCallbackQuery();
    await start(ctx);
  });
  return composer;
}

function loginFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">) {
  return async function login(conversation: Flow, ctx: FlowContext): Promise<void> {
    await logInSteps(conversation, ctx, deps, { expired: false });
  };
}
