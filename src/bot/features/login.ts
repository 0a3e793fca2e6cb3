/**
 * /login: e-mail, password, 2FA code (SECURITY.md, rules 2 and 3). The password message is
 * deleted before anything else happens with it; the code message too. A wrong code asks again,
 * up to three times; failed logins are limited per user by `Sessions`. With a remembered
 * password, only a fresh code is asked. While logged in, /login says so (until when) and names
 * /logout; near the session's end it renews it.
 *
 * The expiry warning's offer (session/expiry-watch.ts): with a remembered password, a 6-digit
 * message typed outside any flow after the warning is the fresh code it asked for. It is deleted
 * first (rule 2), then logs in again with the remembered password, counted against the failed-login
 * limit like any login (rule 3). The bot never makes the code (rule 9): the user typed it.
 *
 * The conversation's state holds the typed messages until it ends: its storage is encrypted
 * (store/encrypted-adapter.ts), and nothing secret is returned from `external`.
 */
import { closeStayOffer, EXPIRY_WARNING_MS, stayOfferOpen } from "../../session/expiry-watch.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { CODE, logInSteps } from "../flows/log-in.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { formatTime } from "../ui/format.ts";
import { withPhishingLine } from "../ui/phishing.ts";

export const LOGIN_FLOW = "login";
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/**
 * The `LOGIN_FLOW` conversation, installed by bot.ts. An abandoned login (a typed password in its
 * state) ends after a few minutes.
 */
export function loginConversation(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "clock" | "store">,
): FlowSpec {
  return { id: LOGIN_FLOW, steps: loginFlow(deps), timeoutMs: LOGIN_TIMEOUT_MS };
}

export function loginFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "clock" | "store">,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

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
      const time = formatTime(status.expiresAt, await ctx.i18n.getLocale());
      await ctx.reply(ctx.t("login-already", { email: status.email, time }));
      return;
    }
    await enterFlow(ctx, LOGIN_FLOW);
  }

  composer.command("login", start);
  composer.callbackQuery(CALLBACK.login.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await start(ctx);
  });
  composer.on("message:text", async (ctx, next) => {
    const code = ctx.message.text.replace(/\s/g, "");
    // Inside a flow the flow had its turn; outside, only while the warning's offer stands.
    if (!CODE.test(code) || Object.keys(ctx.conversation.active()).length > 0) return next();
    if (!(await stayOfferOpen(deps, ctx.from.id))) return next();
    await stayLoggedIn(ctx, deps, code);
  });
  return composer;
}

/** The fresh code the expiry warning asked for: its message deleted, then a quick re-login. */
async function stayLoggedIn(
  ctx: PrivateContext,
  deps: Pick<BotDeps, "sessions" | "phishing" | "store">,
  code: string,
): Promise<void> {
  const userId = ctx.from.id;
  await ctx.deleteMessage();
  const locale = await ctx.i18n.getLocale();
  const retryAt = await deps.sessions.loginBlockedUntil(userId);
  if (retryAt !== undefined) {
    await ctx.reply(ctx.t("login-rate-limited", { time: formatTime(retryAt, locale) }));
    return;
  }
  await ctx.reply(ctx.t("login-checking"));
  const outcome = await deps.sessions.quickLogin(userId, code);
  if (outcome === undefined) {
    // Logged out or the password forgotten in the meantime: the offer is gone.
    await closeStayOffer(deps.store, userId);
    await ctx.reply(ctx.t("unknown-secret-deleted"));
  } else if (outcome.ok) {
    await closeStayOffer(deps.store, userId);
    const status = await deps.sessions.status(userId);
    const email = status.state === "logged-out" ? "" : status.email;
    await ctx.reply(ctx.t("login-success", { email, time: formatTime(outcome.expiresAt, locale) }));
  } else if (outcome.reason === "rate-limited") {
    await ctx.reply(ctx.t("login-rate-limited", { time: formatTime(outcome.retryAt, locale) }));
  } else if (outcome.reason === "bad-credentials") {
    // The remembered password no longer works: more codes would only use up tries.
    await closeStayOffer(deps.store, userId);
    await ctx.reply(ctx.t("login-wrong-credentials", { left: outcome.attemptsLeft }));
  } else {
    // It asks for a code again: with the anti-phishing phrase, like every such question.
    const phrase = await deps.phishing.get(userId);
    await ctx.reply(
      withPhishingLine(ctx.t, phrase, ctx.t("login-wrong-code", { left: outcome.attemptsLeft })),
    );
  }
}

function loginFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">) {
  return async function login(conversation: Flow, ctx: FlowContext): Promise<void> {
    await logInSteps(conversation, ctx, deps, { expired: false });
  };
}
