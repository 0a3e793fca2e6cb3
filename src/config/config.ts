/**
 * The environment, read once and checked: the only reader of `process.env`. Each missing or
 * malformed variable gets one sentence that names it and says what it should be. Each section of
 * the environment is read by its own zod schema (`sections/`), whose fields carry those sentences.
 *
 * @example
 * const config = loadConfig(process.env, { purpose: "start" }); // throws ConfigError
 */
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
import type { Config } from "./types.ts";

export { ConfigError } from "./error.ts";
export { loadStoreConfig, storeUrlOf } from "./sections/store.ts";
export type { Config, PartnerConfig, RecurringConfig } from "./types.ts";

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
