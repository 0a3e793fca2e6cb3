/**
 * `GET /webapp/login` (the page) and `POST /webapp/login` (the login) on the bot's HTTP server
 * (SECURITY.md, rule 2). The user is taken only from a checked
 * `initData`; the form's e-mail, password and code go to the same `Sessions.login` as the chat's
 * /login, so the failed-login limit is the same one. Answers: 200 `{ok:true}`, 401 bad or stale
 * `initData`, 413 body too large, 415 not JSON, 422 `{error}` wrong input, 429 `{error}` limited.
 *
 * Nothing of the body is logged: the log lines name the user id and the outcome only.
 *
 * @example
 * const server = await startHttpServer({ port, routes: [webAppRoutes({ deps, botToken, api: bot.api })] });
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Api } from "grammy";
import type { BotDeps } from "../bot/deps.ts";
import { CODE, EMAIL } from "../bot/flows/log-in.ts";
import { clientLocale, SUPPORTED_LOCALES } from "../bot/i18n.ts";
import { errorReference, exchangeErrorText } from "../bot/middleware/error-boundary.ts";
import { formatTime } from "../bot/ui/format.ts";
import type { Translate } from "../domain/translate.ts";
import { ExchangeError } from "../exchange/errors.ts";
import type { LoginOutcome } from "../session/sessions.ts";
import { readBoundedBody } from "../support/http-body.ts";
import type { HttpRoute } from "../support/http-route.ts";
import { WEBAPP_LOGIN_PATH } from "../support/webapp-paths.ts";
import { checkInitData } from "./init-data.ts";
import { loginPage, type PageTexts } from "./page.ts";

export { WEBAPP_LOGIN_PATH };

/** initData is at most a few hundred bytes; e-mail, password and code add little. */
export const WEBAPP_BODY_LIMIT = 8 * 1024;

export interface WebAppRoutesOptions {
  deps: Pick<BotDeps, "sessions" | "profiles" | "clock" | "log" | "config" | "i18n">;
  /** The bot's token: the key `initData` is signed with. */
  botToken: string;
  /** Where the chat's "Logged in" goes (bot.api). */
  api: Pick<Api, "sendMessage">;
}

export function webAppRoutes(options: WebAppRoutesOptions): HttpRoute {
  const { deps } = options;
  const { i18n } = deps;
  const texts = Object.fromEntries(
    SUPPORTED_LOCALES.map((locale) => [locale, pageTexts((key) => i18n.t(locale, key))]),
  );

  return (req, res, path) => {
    if (path !== WEBAPP_LOGIN_PATH) return false;
    if (req.method === "GET" || req.method === "HEAD") {
      servePage(req, res, deps, texts);
    } else if (req.method === "POST") {
      logIn(req, res, options).catch((error: unknown) => {
        deps.log.error({ err: error }, "web app login crashed");
        if (!res.headersSent) reply(res, 500, { error: "internal error" });
      });
    } else {
      res.writeHead(405, { allow: "GET, POST" }).end();
      req.resume();
    }
    return true;
  };
}

function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  deps: WebAppRoutesOptions["deps"],
  texts: Record<string, PageTexts>,
): void {
  const asked = clientLocale(new URL(req.url ?? "/", "http://localhost").searchParams.get("lang") ?? "");
  const nonce = randomBytes(16).toString("base64");
  const html = loginPage({
    texts,
    defaultLocale: deps.config.defaultLocale,
    locale: asked ?? deps.config.defaultLocale,
    nonce,
  });
  res
    .writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      // The browser itself refuses anything from another host, and any script but ours.
      "content-security-policy": [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        "connect-src 'self'",
        "img-src 'self' data:",
        "form-action 'self'",
        "base-uri 'none'",
      ].join("; "),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    })
    .end(html);
}

async function logIn(req: IncomingMessage, res: ServerResponse, options: WebAppRoutesOptions): Promise<void> {
  const { deps } = options;
  const { i18n } = deps;
  const body = await readJsonBody(req, res);
  if (body === undefined) return;
  const check = checkInitData(body.initData, options.botToken, deps.clock.now());
  if (!check.ok) {
    deps.log.info({ reason: check.reason }, "web app login refused: initData");
    reply(res, 401, { error: "initData" });
    return;
  }
  const userId = check.user.id;
  const profile = await deps.profiles.get(userId);
  const locale = profile.locale ?? clientLocale(check.user.languageCode) ?? deps.config.defaultLocale;
  const t: Translate = (key, variables) => i18n.t(locale, key, variables);

  const email = typeof body.email === "string" ? body.email.trim() : "";
  const password = typeof body.password === "string" ? body.password : "";
  const code = typeof body.code === "string" ? body.code.replace(/\s/g, "") : "";
  if (!EMAIL.test(email) || email.length > 254 || password === "" || password.length > 1024) {
    reply(res, 422, { error: t("webapp-bad-email-or-password") });
    return;
  }
  if (!CODE.test(code)) {
    reply(res, 422, { error: t("webapp-bad-code-format") });
    return;
  }

  // Before the login: its security notice (and later notices) need the app's language.
  await deps.profiles.rememberAppLocale(userId, clientLocale(check.user.languageCode));
  let outcome: Awaited<ReturnType<typeof deps.sessions.login>>;
  try {
    outcome = await deps.sessions.login(
      userId,
      { email, password, securityCode: code },
      // The login's security notice says it came through the Mini App.
      { rememberPassword: profile.rememberPassword, via: "webapp" },
    );
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    const ref = errorReference();
    deps.log.warn({ ref, userId, kind: error.kind, status: error.status }, "web app login: exchange error");
    reply(res, 502, { error: exchangeErrorText(t, error, ref) });
    return;
  }
  await replyOutcome(res, outcome, { options, userId, email, locale, timeZone: profile.timeZone, t });
}

/** The login's outcome as the page shows it; in the chat, "Logged in" after a success. */
async function replyOutcome(
  res: ServerResponse,
  outcome: LoginOutcome,
  said: {
    options: WebAppRoutesOptions;
    userId: number;
    email: string;
    locale: string;
    timeZone: string | undefined;
    t: Translate;
  },
): Promise<void> {
  const { options, userId, email, locale, t } = said;
  const { deps } = options;
  if (outcome.ok) {
    deps.log.info({ userId }, "web app login");
    reply(res, 200, { ok: true });
    await options.api
      .sendMessage(
        userId,
        t("login-success", { email, time: formatTime(outcome.expiresAt, locale, said.timeZone) }),
      )
      .catch((error: unknown) => deps.log.warn({ userId, err: error }, "could not say Logged in"));
    return;
  }
  deps.log.info({ userId, reason: outcome.reason }, "web app login failed");
  if (outcome.reason === "rate-limited") {
    reply(res, 429, {
      error: t("login-rate-limited", { time: formatTime(outcome.retryAt, locale, said.timeZone) }),
    });
    return;
  }
  reply(res, 422, {
    error: t(outcome.reason === "bad-code" ? "webapp-wrong-code" : "webapp-wrong-credentials", {
      left: outcome.attemptsLeft,
    }),
  });
}

/** The request's JSON object (anything else reads as `{}`); undefined once refused (415, 413). */
async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Record<string, unknown> | undefined> {
  if (!/^application\/json\b/i.test(String(req.headers["content-type"] ?? ""))) {
    reply(res, 415, { error: "send JSON" });
    req.resume();
    return undefined;
  }
  const raw = await readBoundedBody(req, res, WEBAPP_BODY_LIMIT);
  if (raw === undefined) return undefined;
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    body = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  return body;
}

function pageTexts(t: (key: string) => string): PageTexts {
  return {
    title: t("webapp-title"),
    intro: t("webapp-intro"),
    email: t("webapp-email"),
    password: t("webapp-password"),
    code: t("webapp-code"),
    submit: t("webapp-submit"),
    checking: t("login-checking"),
    done: t("webapp-done"),
    notFromTelegram: t("webapp-not-from-telegram"),
    failed: t("webapp-failed"),
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}
