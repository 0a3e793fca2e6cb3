/**
 * The login steps (e-mail, password, 2FA code), usable inside any flow: /login runs them, and a
 * flow whose exchange call met an expired session runs them in place (flows/session-call.ts). A
 * fresh login that proves it is the user (flows/fresh-secret.ts) asks the password and code of the
 * login's own e-mail (shown masked), or the code alone with a remembered password.
 * The password message is deleted before anything else happens with it; the code message too.
 * The Mini App login (src/webapp/) checks what it is sent with the same EMAIL and CODE.
 */
import type { LoginOutcome } from "../../session/sessions.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { clientLocale } from "../i18n.ts";
import { maskedEmail } from "../ui/email.ts";
import { formatTime } from "../ui/format.ts";
import { withPhishingLine } from "../ui/phishing.ts";
import { externalCall } from "./external.ts";
import { flowPhrase } from "./phishing.ts";
import { flowUserId } from "./user.ts";
import { waitForSecret, waitForText } from "./wait.ts";

const MAX_CODE_TRIES = 3;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A 2FA code as typed (spaces removed first). */
export const CODE = /^\d{6}$/;

/**
 * The login steps, usable inside any flow: a flow whose exchange call met an expired session
 * runs them in place (`expired: true`: the e-mail is known, only password and code are asked, or
 * only the code with a remembered password) and then carries on where it was. True when the user
 * is logged in at the end.
 */
export async function logInSteps(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
  /**
   * `confirm`: the login proves it is the user before a safety change (flows/fresh-secret.ts): a
   * live session is not offered as "stay logged in", the caller said why.
   */
  options: { expired: boolean; confirm?: boolean },
): Promise<boolean> {
  const userId = flowUserId(ctx);
  // Locked out after failed logins: said before anything secret is asked for (SECURITY.md, rule 3).
  // /login checks before it enters; a re-login inside another flow starts here.
  const retryAt = await externalCall(conversation, () => deps.sessions.loginBlockedUntil(userId));
  if (retryAt !== undefined) {
    await ctx.reply(ctx.t("login-rate-limited", { time: formatTime(retryAt, await ctx.i18n.getLocale()) }));
    return false;
  }
  const status = await externalCall(conversation, () => deps.sessions.status(userId));
  const remembered = await externalCall(conversation, () => deps.sessions.hasRememberedPassword(userId));
  // Every question for a secret carries the user's anti-phishing phrase.
  const phrase = await flowPhrase(conversation, ctx, deps);
  const ask = (text: string) => ctx.reply(withPhishingLine(ctx.t, phrase, text));

  let email: string;
  let passwordCtx: FlowContext | undefined;
  // A live session is renewed (near its end, or with a remembered password): said, with /logout.
  const live =
    status.state === "active" && !options.expired && !options.confirm
      ? { email: status.email, time: formatTime(status.expiresAt, await ctx.i18n.getLocale()) }
      : undefined;
  // Proving it is the user asks only what proves it: the e-mail is the login's own, shown masked.
  const known =
    options.confirm && status.state !== "logged-out" && status.email !== "" ? status.email : undefined;
  if (remembered && status.state !== "logged-out") {
    email = status.email;
    if (live) await ask(ctx.t("login-renew-ask-code", live));
    else if (known !== undefined) await ask(ctx.t("login-confirm-ask-code", { email: maskedEmail(known) }));
    else await ask(ctx.t(options.expired ? "login-expired-ask-code" : "login-quick-ask-code", { email }));
  } else {
    if (live) await ctx.reply(ctx.t("login-renew-intro", live));
    if (known !== undefined) {
      email = known;
      await ask(ctx.t("login-confirm-ask-password", { email: maskedEmail(known) }));
    } else if (options.expired && status.state === "expired") {
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
    const appLocale = clientLocale(ctx.from?.language_code);
    const outcome: LoginOutcome = await externalCall(conversation, async () => {
      // Before the login: its security notice, expiry warnings and order notices need the app's language.
      await deps.profiles.rememberAppLocale(userId, appLocale);
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
      const shown = known === undefined ? email : maskedEmail(email);
      await ctx.reply(ctx.t("login-success", { email: shown, time: formatTime(outcome.expiresAt, locale) }));
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

/**
 * The login steps only when the user has no live session (a flow started from a button that
 * works logged out, e.g. a fired alert's Buy): said first, then the usual steps. True when the
 * user is logged in at the end.
 */
export async function logInFirst(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
): Promise<boolean> {
  const status = await externalCall(conversation, () => deps.sessions.status(flowUserId(ctx)));
  if (status.state === "active") return true;
  await ctx.reply(ctx.t("login-first-then-quote"));
  return logInSteps(conversation, ctx, deps, { expired: status.state === "expired" });
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
