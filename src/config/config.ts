/**
 * The environment, read once and checked: the only reader of `process.env`. Each missing or
 * malformed variable gets one sentence that names it and says what it should be. Each section of
 * the environment is read by its own zod schema (`sections/`), whose fields carry those sentences.
 *
 * @example
 * const config = loadConfig(process.env, { purpose: "start" }); // throws ConfigError
 */
import type { LevelWithSilent } from "pino";
import { ConfigError, type Env } from "./error.ts";
import { exchangeSection } from "./sections/exchange.ts";
import { marketSection } from "./sections/market.ts";
import { partnerSection } from "./sections/partner.ts";
import { recurringSection } from "./sections/recurring.ts";
import { safetySection } from "./sections/safety.ts";
import { cleaned } from "./sections/section.ts";
import { serverSection } from "./sections/server.ts";
import { storeSection } from "./sections/store.ts";
import { telegramSection } from "./sections/telegram.ts";

export { ConfigError } from "./error.ts";
export { loadStoreConfig, storeUrlOf } from "./sections/store.ts";

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

/**
 * Which sentence an operator reads first when several variables are wrong: the first of this list
 * (the order start-up has always checked them in). A section stops at its first bad variable, so
 * each section lists its variables in this order too.
 */
const PRECEDENCE = [
  "BOT_TOKEN",
  "EXCHANGE_CLIENT_ID",
  "STORE_URL",
  "SECRETS_KEY",
  "BOT_MODE",
  "WEBHOOK_SECRET",
  "WEBHOOK_URL",
  "PORT",
  "METRICS_PORT",
  "METRICS_HOST",
  "WEBAPP_URL",
  "DEFAULT_LOCALE",
  "LOG_LEVEL",
  "MARKET_DATA_PASSWORD",
  "MARKET_DATA_TOTP_SECRET",
  "ALERT_INTERVAL_SECONDS",
  "MARKET_TTL_SECONDS",
  "SHUTDOWN_TIMEOUT_SECONDS",
  "RECURRING_MAX_PLANS",
  "RECURRING_CATCH_UP_HOURS",
  "RECURRING_SPREAD_MINUTES",
  "RECURRING_CONCURRENCY",
  "UNFREEZE_DELAY_MINUTES",
  "EXCHANGE_MODE",
  "PARTNER_TOKEN",
  "PARTNER_EMAIL",
  "PARTNER_PASSWORD",
  "PARTNER_TOTP_SECRET",
  "OPERATOR_IDS",
  "SUPPORT_CONTACT",
  "TERMS_URL",
  "SAFETY_COOLING_OFF_MIN_HOURS",
  "SAFETY_COOLING_OFF_HOURS",
  "SAFETY_ALLOWLIST_DEFAULT",
  "TELEGRAM_API_ROOT",
  "EXCHANGE_API_URL",
  "EXCHANGE_CLIENT_SECRET",
];

/** `start` needs the bot token and the secrets key; the demo and tests bring their own. */
export function loadConfig(env: Env, options: { purpose: "start" | "demo" } = { purpose: "start" }): Config {
  const strict = options.purpose === "start";
  const set = cleaned(env);
  const refusals: ConfigError[] = [];
  const read = <T>(section: (env: Env) => T): T | undefined => {
    try {
      return section(set);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      refusals.push(error);
      return undefined;
    }
  };
  const telegram = read((env) => telegramSection(env, strict));
  const exchange = read(exchangeSection);
  const store = read((env) => storeSection(env, strict));
  const server = read(serverSection);
  const market = read(marketSection);
  const recurring = read(recurringSection);
  const partner = read(partnerSection);
  const safety = read(safetySection);
  const first = firstOf(refusals);
  if (first !== undefined) throw first;
  if (!telegram || !exchange || !store || !server || !market || !recurring || !partner || !safety) {
    throw new Error("a section refused without a ConfigError");
  }
  return { ...telegram, ...exchange, ...store, ...server, ...market, ...recurring, ...partner, ...safety };
}

function firstOf(refusals: readonly ConfigError[]): ConfigError | undefined {
  const rank = (refusal: ConfigError) => {
    const at = PRECEDENCE.indexOf(refusal.variable);
    return at === -1 ? PRECEDENCE.length : at;
  };
  return refusals.reduce<ConfigError | undefined>(
    (first, refusal) => (first === undefined || rank(refusal) < rank(first) ? refusal : first),
    undefined,
  );
}
