/**
 * The environment, read once and checked: the only reader of `process.env`. Each missing or
 * malformed variable gets one sentence that names it and says what it should be.
 *
 * @example
 * const config = loadConfig(process.env, { purpose: "start" }); // throws ConfigError
 */
import type { LevelWithSilent } from "pino";
import { operatorCode } from "../support/totp.ts";

/** The words .env.example puts where a real value goes. */
const PLACEHOLDER = /replace-(with|me)/i;

/** A value copied from .env.example unchanged passes every format check, then fails far away. */
function notPlaceholder(name: string, value: string, what: string): string {
  if (PLACEHOLDER.test(value)) {
    throw new ConfigError(name, `${name} is still the placeholder from .env.example: put ${what} there.`);
  }
  return value;
}

export interface Config {
  botToken: string | undefined;
  telegramApiRoot: string;
  exchange: { url: string; clientId: number; clientSecret: string };
  storeUrl: string;
  /** Base64 key(s) for the Vault; comma-separated for rotation, the first one encrypts. */
  secretsKey: string | undefined;
  botMode: "polling" | "webhook";
  webhook: { url: string; secret: string } | undefined;
  /** The bot's HTTP server (webhook, /healthz, /readyz, the Mini App), in either mode; 0: any free port. */
  port: number;
  /** METRICS_PORT: /metrics on a server of its own (off when unset); 0: any free port. */
  metrics: { port: number; host: string } | undefined;
  /** Base URL of the bot's HTTP server as users reach it: turns on the Mini App login page. */
  webAppUrl: string | undefined;
  defaultLocale: string;
  logLevel: LevelWithSilent;
  /** The operator's own market-data account (SECURITY.md, rule 9), optional. */
  marketData: { email: string; password: string; totpSecret: string } | undefined;
  /** How often the alert scheduler ticks. */
  alertIntervalMs: number;
  /** How long the market feed serves one price snapshot before asking the exchange again. */
  marketTtlMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: how long a SIGTERM may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Recurring buys (/recurring): limits and how the jobs run them. */
  recurring: RecurringConfig;
  /** UNFREEZE_DELAY_MINUTES: after a fresh login, how long until a user's unfreeze takes effect. */
  unfreezeDelayMs: number;
  /** EXCHANGE_MODE: `account` (users log in to their own accounts) or `partner` (white-label). */
  exchangeMode: "account" | "partner";
  /** Partner mode only. */
  partner: PartnerConfig | undefined;
  /** SAFETY_COOLING_OFF_HOURS / _MIN_HOURS: how long new destinations wait (src/safety/cooling.ts). */
  cooling: { defaultHours: number; minimumHours: number };
  /**
   * SAFETY_ALLOWLIST_DEFAULT: whether a user who never set the allowlist has it on (the default)
   * or off (an operator whose exchange already enforces its own whitelist).
   */
  allowlistDefault: boolean;
}

export interface PartnerConfig {
  /** PARTNER_TOKEN, or the service account the bot logs in with (PARTNER_EMAIL, …). */
  auth:
    | { kind: "token"; token: string }
    | { kind: "service-account"; email: string; password: string; totpSecret: string };
  /** OPERATOR_IDS: the Telegram user ids of the partner's staff. */
  operatorIds: number[];
  /** SUPPORT_CONTACT: an @handle, e-mail or URL. */
  supportContact: string;
  /** TERMS_URL: the https page of the terms users agree to at sign-up (linked, kept with the consent). */
  termsUrl: string;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const LOCALES = ["en", "de"];

/** `start` needs the bot token and the secrets key; the demo and tests bring their own. */
export function loadConfig(env: Env, options: { purpose: "start" | "demo" } = { purpose: "start" }): Config {
  const strict = options.purpose === "start";
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === "" ? undefined : value;
  };
  const required = (name: string, what: string): string => {
    const value = text(name);
    if (value === undefined) throw new ConfigError(name, `${name} is missing: set it to ${what}.`);
    return value;
  };
  const url = (name: string, value: string, protocols: string[]): string => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(name, `${name} is not a URL: "${value}" should look like ${protocols[0]}//host.`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(
        name,
        `${name} must start with ${protocols.join(" or ")}, not ${parsed.protocol}.`,
      );
    }
    return value.replace(/\/+$/, "");
  };

  const botToken = strict ? required("BOT_TOKEN", "the token @BotFather gave you") : text("BOT_TOKEN");
  if (botToken !== undefined && !/^\d+:[\w-]{20,}$/.test(botToken)) {
    throw new ConfigError(
      "BOT_TOKEN",
      "BOT_TOKEN does not look like a bot token (digits, a colon, then letters).",
    );
  }
  if (botToken !== undefined) notPlaceholder("BOT_TOKEN", botToken, "the token @BotFather gave you");

  const clientIdText = required("EXCHANGE_CLIENT_ID", "the API client id the exchange gave you (a number)");
  if (!/^\d+$/.test(clientIdText)) {
    throw new ConfigError("EXCHANGE_CLIENT_ID", "EXCHANGE_CLIENT_ID must be a whole number.");
  }

  const storeUrl = storeUrlOf(env);

  const secretsKey = strict ? required("SECRETS_KEY", SECRETS_KEY_WHAT) : text("SECRETS_KEY");
  if (secretsKey !== undefined) checkSecretsKey(secretsKey);

  const botMode = text("BOT_MODE") ?? "polling";
  if (botMode !== "polling" && botMode !== "webhook") {
    throw new ConfigError("BOT_MODE", `BOT_MODE must be polling or webhook, not "${botMode}".`);
  }
  let webhook: Config["webhook"];
  if (botMode === "webhook") {
    const secret = required(
      "WEBHOOK_SECRET",
      "a secret of 1-256 letters, digits, _ or - (webhook mode refuses to run without it)",
    );
    if (!/^[\w-]{1,256}$/.test(secret)) {
      throw new ConfigError(
        "WEBHOOK_SECRET",
        "WEBHOOK_SECRET may hold only letters, digits, _ and -, 1 to 256 of them.",
      );
    }
    webhook = {
      url: url("WEBHOOK_URL", required("WEBHOOK_URL", "the public https URL Telegram should call"), [
        "https:",
        "http:",
      ]),
      secret,
    };
  }

  const portText = text("PORT") ?? "8080";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(
      "PORT",
      `PORT must be a port number from 1 to 65535 (0: any free one), not "${portText}".`,
    );
  }

  const metricsText = text("METRICS_PORT");
  if (metricsText !== undefined && (!/^\d+$/.test(metricsText) || Number(metricsText) > 65535)) {
    throw new ConfigError(
      "METRICS_PORT",
      `METRICS_PORT must be a port number from 1 to 65535 (0: any free one), or unset to serve no metrics, not "${metricsText}".`,
    );
  }
  const metricsHost = text("METRICS_HOST") ?? "127.0.0.1";
  if (!/^[\w.:-]+$/.test(metricsHost)) {
    throw new ConfigError(
      "METRICS_HOST",
      `METRICS_HOST must be an address to listen on, like 127.0.0.1 (the default) or 0.0.0.0, not "${metricsHost}".`,
    );
  }

  const webAppText = text("WEBAPP_URL");
  const webAppUrl = webAppText === undefined ? undefined : checkedWebAppUrl(webAppText);

  const defaultLocale = text("DEFAULT_LOCALE") ?? "en";
  if (!LOCALES.includes(defaultLocale)) {
    throw new ConfigError(
      "DEFAULT_LOCALE",
      `DEFAULT_LOCALE must be one of ${LOCALES.join(", ")}, not "${defaultLocale}".`,
    );
  }

  const logLevel = (text("LOG_LEVEL") ?? "info") as LevelWithSilent;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}.`);
  }

  const marketEmail = text("MARKET_DATA_EMAIL");
  const marketData = marketEmail
    ? checkedMarketData({
        email: marketEmail,
        password: required("MARKET_DATA_PASSWORD", "the market-data account's password"),
        totpSecret: required("MARKET_DATA_TOTP_SECRET", "the market-data account's TOTP secret (base32)"),
      })
    : undefined;

  const intervalText = text("ALERT_INTERVAL_SECONDS") ?? "30";
  if (!/^\d+$/.test(intervalText) || Number(intervalText) < 1) {
    throw new ConfigError(
      "ALERT_INTERVAL_SECONDS",
      "ALERT_INTERVAL_SECONDS must be a whole number of seconds, 1 or more.",
    );
  }

  const ttlText = text("MARKET_TTL_SECONDS") ?? "10";
  if (!/^\d+$/.test(ttlText) || Number(ttlText) < 1) {
    throw new ConfigError(
      "MARKET_TTL_SECONDS",
      "MARKET_TTL_SECONDS must be a whole number of seconds, 1 or more.",
    );
  }

  const shutdownText = text("SHUTDOWN_TIMEOUT_SECONDS") ?? "25";
  if (!/^\d+$/.test(shutdownText) || Number(shutdownText) < 1 || Number(shutdownText) > 3600) {
    throw new ConfigError(
      "SHUTDOWN_TIMEOUT_SECONDS",
      "SHUTDOWN_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600 (keep it below the stop grace of your container runtime).",
    );
  }

  const recurring = recurringConfig(text);
  const unfreezeText = text("UNFREEZE_DELAY_MINUTES") ?? "60";
  if (!/^\d+$/.test(unfreezeText) || Number(unfreezeText) < 1 || Number(unfreezeText) > 10_080) {
    throw new ConfigError(
      "UNFREEZE_DELAY_MINUTES",
      "UNFREEZE_DELAY_MINUTES must be a whole number of minutes from 1 to 10080 (a week).",
    );
  }

  const modeText = text("EXCHANGE_MODE") ?? "account";
  if (modeText !== "account" && modeText !== "partner") {
    throw new ConfigError("EXCHANGE_MODE", `EXCHANGE_MODE must be account or partner, not "${modeText}".`);
  }
  const partner = modeText === "partner" ? partnerConfig(text, required) : undefined;

  const minimumHoursText = text("SAFETY_COOLING_OFF_MIN_HOURS") ?? "1";
  if (!/^\d+$/.test(minimumHoursText) || Number(minimumHoursText) < 1 || Number(minimumHoursText) > 72) {
    throw new ConfigError(
      "SAFETY_COOLING_OFF_MIN_HOURS",
      "SAFETY_COOLING_OFF_MIN_HOURS must be a whole number of hours from 1 to 72.",
    );
  }
  const coolingHoursText = text("SAFETY_COOLING_OFF_HOURS") ?? "24";
  const minimumHours = Number(minimumHoursText);
  if (
    !/^\d+$/.test(coolingHoursText) ||
    Number(coolingHoursText) < minimumHours ||
    Number(coolingHoursText) > 72
  ) {
    throw new ConfigError(
      "SAFETY_COOLING_OFF_HOURS",
      `SAFETY_COOLING_OFF_HOURS must be a whole number of hours from SAFETY_COOLING_OFF_MIN_HOURS (${minimumHours}) to 72.`,
    );
  }

  const allowlistText = text("SAFETY_ALLOWLIST_DEFAULT") ?? "on";
  if (allowlistText !== "on" && allowlistText !== "off") {
    throw new ConfigError(
      "SAFETY_ALLOWLIST_DEFAULT",
      `SAFETY_ALLOWLIST_DEFAULT must be on or off (whether new users start with the allowlist), not "${allowlistText}".`,
    );
  }

  return {
    cooling: { defaultHours: Number(coolingHoursText), minimumHours },
    allowlistDefault: allowlistText === "on",
    botToken,
    telegramApiRoot: url("TELEGRAM_API_ROOT", text("TELEGRAM_API_ROOT") ?? "https://api.telegram.org", [
      "https:",
      "http:",
    ]),
    exchange: {
      url: url("EXCHANGE_API_URL", required("EXCHANGE_API_URL", "the exchange's base URL"), [
        "https:",
        "http:",
      ]),
      clientId: Number(clientIdText),
      clientSecret: notPlaceholder(
        "EXCHANGE_CLIENT_SECRET",
        required("EXCHANGE_CLIENT_SECRET", "the API client secret the exchange gave you"),
        "the API client secret the exchange gave you",
      ),
    },
    storeUrl,
    secretsKey,
    botMode,
    webhook,
    port,
    metrics: metricsText === undefined ? undefined : { port: Number(metricsText), host: metricsHost },
    webAppUrl,
    defaultLocale,
    logLevel,
    marketData,
    alertIntervalMs: Number(intervalText) * 1000,
    marketTtlMs: Number(ttlText) * 1000,
    shutdownTimeoutMs: Number(shutdownText) * 1000,
    recurring,
    unfreezeDelayMs: Number(unfreezeText) * 60_000,
    exchangeMode: modeText,
    partner,
  };
}

/**
 * What a chore on the store needs (`npm run rotate-secrets`): STORE_URL and SECRETS_KEY, the latter
 * required; nothing of the bot's other variables.
 *
 * @example
 * const { storeUrl, secretsKey } = loadStoreConfig(process.env); // throws ConfigError
 */
export function loadStoreConfig(env: Env): { storeUrl: string; secretsKey: string } {
  const storeUrl = storeUrlOf(env);
  const secretsKey = env.SECRETS_KEY?.trim();
  if (!secretsKey) {
    throw new ConfigError("SECRETS_KEY", `SECRETS_KEY is missing: set it to ${SECRETS_KEY_WHAT}.`);
  }
  checkSecretsKey(secretsKey);
  return { storeUrl, secretsKey };
}

const SECRETS_KEY_WHAT = "32 random bytes in base64 (openssl rand -base64 32)";

/** Every comma-separated key of SECRETS_KEY is 32 bytes of base64. */
function checkSecretsKey(secretsKey: string): void {
  for (const key of secretsKey.split(",")) {
    if (Buffer.from(key.trim(), "base64").length !== 32) {
      throw new ConfigError("SECRETS_KEY", `SECRETS_KEY must be ${SECRETS_KEY_WHAT}.`);
    }
  }
}

/**
 * STORE_URL alone, for tools that need nothing else (`npm run backup`): the default, or the
 * sentence naming a bad one.
 */
export function storeUrlOf(env: Env): string {
  const storeUrl = env.STORE_URL?.trim() || "sqlite://data/bot.sqlite";
  if (!/^(sqlite|redis|rediss):\/\/.+/.test(storeUrl)) {
    throw new ConfigError("STORE_URL", "STORE_URL must be sqlite://PATH or redis://HOST:PORT.");
  }
  return storeUrl;
}

const SUPPORT_CONTACT_SHAPE = /^(@\w{4,32}|[^\s@]+@[^\s@]+\.[^\s@]+|https?:\/\/\S+)$/;

/** The partner-mode variables: a token or a whole service account, staff ids, a support contact. */
function partnerConfig(
  text: (name: string) => string | undefined,
  required: (name: string, what: string) => string,
): PartnerConfig {
  const token = text("PARTNER_TOKEN");
  const email = text("PARTNER_EMAIL");
  if (token !== undefined && email !== undefined) {
    throw new ConfigError(
      "PARTNER_TOKEN",
      "PARTNER_TOKEN and PARTNER_EMAIL are both set: give either the partner token or the service account (PARTNER_EMAIL, PARTNER_PASSWORD, PARTNER_TOTP_SECRET), not both.",
    );
  }
  let auth: PartnerConfig["auth"];
  if (token !== undefined) {
    if (/\s/.test(token)) {
      throw new ConfigError("PARTNER_TOKEN", "PARTNER_TOKEN must be the bearer token alone, without spaces.");
    }
    auth = { kind: "token", token };
  } else {
    if (email === undefined) {
      throw new ConfigError(
        "PARTNER_TOKEN",
        "PARTNER_TOKEN is missing: in partner mode set it to the partner API token, or set PARTNER_EMAIL, PARTNER_PASSWORD and PARTNER_TOTP_SECRET of the partner's service account instead.",
      );
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new ConfigError(
        "PARTNER_EMAIL",
        `PARTNER_EMAIL must be the service account's e-mail address, not "${email}".`,
      );
    }
    const password = required("PARTNER_PASSWORD", "the partner service account's password");
    const totpSecret = required("PARTNER_TOTP_SECRET", "the partner service account's TOTP secret (base32)");
    try {
      operatorCode(totpSecret, Date.now());
    } catch {
      throw new ConfigError(
        "PARTNER_TOTP_SECRET",
        "PARTNER_TOTP_SECRET is not a usable TOTP secret: give the base32 text the authenticator setup shows (16 characters or more).",
      );
    }
    auth = { kind: "service-account", email, password, totpSecret };
  }

  const idsText = text("OPERATOR_IDS") ?? "";
  const operatorIds = idsText === "" ? [] : idsText.split(",").map((id) => id.trim());
  for (const id of operatorIds) {
    if (!/^\d{1,15}$/.test(id)) {
      throw new ConfigError(
        "OPERATOR_IDS",
        `OPERATOR_IDS must be Telegram user ids (numbers) separated by commas; "${id}" is not one.`,
      );
    }
  }

  const supportContact = required(
    "SUPPORT_CONTACT",
    "what customers who cannot be served should contact: an @handle, an e-mail address or a URL",
  );
  if (!SUPPORT_CONTACT_SHAPE.test(supportContact)) {
    throw new ConfigError(
      "SUPPORT_CONTACT",
      `SUPPORT_CONTACT must be an @handle, an e-mail address or an http(s) URL, not "${supportContact}".`,
    );
  }
  const termsUrl = checkedTermsUrl(
    required("TERMS_URL", "the https address of the terms your customers agree to at sign-up"),
  );
  return { auth, operatorIds: operatorIds.map(Number), supportContact, termsUrl };
}

/** The terms are a page users open from Telegram: an absolute https URL, nothing else. */
function checkedTermsUrl(value: string): string {
  const parsed = URL.parse(value) ?? undefined;
  if (parsed?.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") {
    throw new ConfigError(
      "TERMS_URL",
      `TERMS_URL must be the https address of your terms, like https://example.com/terms, not "${value}".`,
    );
  }
  return value;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Telegram opens Mini Apps only over https; plain http is let through for loopback addresses,
 * where the tests and the demo serve the page. The page sits under the path, so no query or
 * fragment.
 */
function checkedWebAppUrl(value: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  const loopback = parsed !== undefined && LOOPBACK_HOSTS.test(parsed.hostname);
  if (
    parsed === undefined ||
    !(parsed.protocol === "https:" || (parsed.protocol === "http:" && loopback)) ||
    parsed.search !== "" ||
    parsed.hash !== "" ||
    parsed.username !== "" ||
    parsed.password !== ""
  ) {
    throw new ConfigError(
      "WEBAPP_URL",
      `WEBAPP_URL must be the public https base URL of the bot's HTTP server, like https://bot.example.com (plain http only for 127.0.0.1 or localhost), not "${value}".`,
    );
  }
  return value.replace(/\/+$/, "");
}

/** A TOTP secret that cannot make a code stops start-up now, not at the first price request. */
function checkedMarketData<T extends { totpSecret: string }>(data: T): T {
  try {
    operatorCode(data.totpSecret, Date.now());
  } catch {
    throw new ConfigError(
      "MARKET_DATA_TOTP_SECRET",
      "MARKET_DATA_TOTP_SECRET is not a usable TOTP secret: give the base32 text the authenticator setup shows (16 characters or more).",
    );
  }
  return data;
}

export interface RecurringConfig {
  /** RECURRING_MAX_PLANS: plans a user may have at once (paused ones count). */
  maxPlans: number;
  /** RECURRING_CATCH_UP_HOURS: how late a run may still happen after downtime (and a reminder stand). */
  catchUpMs: number;
  /** RECURRING_SPREAD_MINUTES: the runs of one hour go out across this many minutes. */
  spreadMs: number;
  /** RECURRING_CONCURRENCY: runs under way at once. */
  concurrency: number;
}

function recurringConfig(text: (name: string) => string | undefined): RecurringConfig {
  const whole = (name: string, fallback: string, min: number, max: number, what: string): number => {
    const value = text(name) ?? fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new ConfigError(
        name,
        `${name} must be a whole number from ${min} to ${max} (${what}), not "${value}".`,
      );
    }
    return Number(value);
  };
  return {
    maxPlans: whole("RECURRING_MAX_PLANS", "5", 0, 100, "plans per user; 0 turns /recurring off"),
    catchUpMs:
      whole("RECURRING_CATCH_UP_HOURS", "3", 0, 48, "hours a missed run may still happen") * 3_600_000,
    spreadMs:
      whole("RECURRING_SPREAD_MINUTES", "30", 0, 59, "minutes the runs of one hour spread across") * 60_000,
    concurrency: whole("RECURRING_CONCURRENCY", "4", 1, 64, "runs under way at once"),
  };
}
