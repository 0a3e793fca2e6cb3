/**
 * /login: e-mail, password, 2FA code (PRODUCT.md, Sessions and rule 2). The password message is
 * deleted before anything else happens with it; the code message too. A wrong code asks again,
 * up to three times; failed logins are limited per user by `Sessions`. With a remembered
 * password, only a fresh code is asked.
 *
 * The conversation's state holds the typed messages until it ends: its storage is encrypted
 * (store/encrypted-adapter.ts), and nothing secret is returned from `external`.
 */
import { createConversation } from "@grammyjs/conversations";
import { Composer } from "grammy";
import { EXPIRY_WARNING_MS } from "../../session/expiry-watch.ts";
import type { LoginOutcome } from "../../session/sessions.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { externalCall } from "../flows/external.ts";
import { waitForSecret, waitForText } from "../flows/wait.ts";
import { formatTime } from "../ui/format.ts";
import { LOGIN_CALLBACK } from "../ui/keyboards.ts";
import { withPhishingLine } from "../ui/phishing.ts";

export const LOGIN_FLOW = "login";
const MAX_CODE_TRIES = 3;
const LOGIN_TIMEOUT_MS = 5 * 60_000;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CODE = /^\d{6}$/;

export function loginFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "clock">,
  flows: Composer<BotContext>,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  // An abandoned login (a typed password in its state) ends after a few minutes.
  flows.use(createConversation(loginFlow(deps), { id: LOGIN_FLOW, maxMillisecondsToWait: LOGIN_TIMEOUT_MS }));

  async function start(ctx: BotContext): Promise<void> {
    // Locked out after failed logins: say so before asking for anything secret.
    const retryAt = await deps.sessions.loginBlockedUntil(ctx.from?.id ?? 0);
    if (retryAt !== undefined) {
      const time = formatTime(retryAt, await ctx.i18n.getLocale());
      await ctx.reply(ctx.t("login-rate-limited", { time }));
      return;
    }
    const status = await deps.sessions.status(ctx.from?.id ?? 0);
    const remembered = await deps.sessions.hasRememberedPassword(ctx.from?.id ?? 0);
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

/**
 * The login steps, usable inside any flow: a flow whose exchange call met an expired session
 * runs them in place (`expired: true`: the e-mail is known, only password and code are asked, or
 * only the code with a remembered password) and then carries on where it was. True when the user
 * is logged in at the end.
 */
export async function logInSteps(
  conversation: Flow,
  ctx: FlowContext,
  // `phishing` is optional only until every caller passes it (flows/session-call.ts).
  deps: Pick<BotDeps, "sessions" | "profiles"> & Partial<Pick<BotDeps, "phishing">>,
  options: { expired: boolean },
): Promise<boolean> {
  const userId = ctx.from?.id ?? 0;
  const status = await externalCall(conversation, () => deps.sessions.status(userId));
  const remembered = await externalCall(conversation, () => deps.sessions.hasRememberedPassword(userId));
  // Every question for a secret carries the user's anti-phishing phrase (PRODUCT.md, Sessions and 2FA).
  const phrase = await externalCall(conversation, async () => (await deps.phishing?.get(userId)) ?? "");
  const ask = (text: string) => ctx.reply(withPhishingLine(ctx.t, phrase, text));

  let email: string;
  let passwordCtx: FlowContext | undefined;
  if (remembered && status.state !== "logged-out") {
    email = status.email;
    await ask(ctx.t(options.expired ? "login-expired-ask-code" : "login-quick-ask-code", { email }));
  } else {
    if (options.expired && status.state === "expired") {
      email = status.email;
      await ask(ctx.t("login-expired-ask-password", { email }));
    } else {
      email = await askEmail(conversation, ctx);
      await ask(ctx.t("login-ask-password"));
    }
    passwordCtx = await waitForSecret(conversation);
    // Rule 2: the password message goes before anything else is done with it.
    await passwordCtx.deleteMessage();
    await ask(ctx.t("login-ask-code"));
  }
  const password = passwordCtx?.message?.text;
  const rememberPassword = await externalCall(
    conversation,
    async () => (await deps.profiles.get(userId)).rememberPassword,
  );

  for (let tries = 1; tries <= MAX_CODE_TRIES; tries++) {
    const code = await askCode(conversation, ctx);
    await ctx.reply(ctx.t("login-checking"));
    const outcome: LoginOutcome = await externalCall(conversation, async () => {
      if (password === undefined) {
        return (
          (await deps.sessions.quickLogin(userId, code)) ?? {
            ok: false,
            reason: "bad-credentials",
            attemptsLeft: 0,
          }
        );
      }
      return deps.sessions.login(userId, { email, password, securityCode: code }, { rememberPassword });
    });
    if (outcome.ok) {
      const locale = await ctx.i18n.getLocale();
      await ctx.reply(ctx.t("login-success", { email, time: formatTime(outcome.expiresAt, locale) }));
      return true;
    }
    if (outcome.reason === "rate-limited") {
      const locale = await ctx.i18n.getLocale();
      await ctx.reply(ctx.t("login-rate-limited", { time: formatTime(outcome.retryAt, locale) }));
      return false;
    }
    if (outcome.reason === "bad-credentials") {
      await ctx.reply(ctx.t("login-wrong-credentials", { left: outcome.attemptsLeft }));
      return false;
    }
    if (tries < MAX_CODE_TRIES) {
      await ask(ctx.t("login-wrong-code", { left: Math.min(outcome.attemptsLeft, MAX_CODE_TRIES - tries) }));
    }
  }
  await ctx.reply(ctx.t("login-too-many-codes"));
  return false;
}

async function askEmail(conversation: Flow, ctx: FlowContext): Promise<string> {
  await ctx.reply(ctx.t("login-ask-email"));
  for (;;) {
    const answer = await waitForText(conversation);
    const email = answer.message.text.trim();
    if (EMAIL.test(email) && email.length <= 254) return email;
    await answer.reply(ctx.t("login-bad-email"));
  }
}

/** A 6-digit code; the message is deleted too, a code is a secret for its 30 seconds. */
async function askCode(conversation: Flow, ctx: FlowContext): Promise<string> {
  for (;;) {
    const answer = await waitForText(conversation);
    const code = answer.message.text.replace(/\s/g, "");
    await answer.deleteMessage();
    if (CODE.test(code)) return code;
    await ctx.reply(ctx.t("login-bad-code-format"));
  }
}
