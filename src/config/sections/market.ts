/**
 * The price feed: the operator's own market-data account (SECURITY.md, rule 9), optional; how long
 * a snapshot is served; how often the alerts are checked.
 */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { required, usableTotpSecret, wholeNumber } from "./fields.ts";
import { parseSection } from "./section.ts";

/** Read when MARKET_DATA_EMAIL is set: then the rest of the account must be there. */
const accountSchema = z.object({
  MARKET_DATA_EMAIL: z.string(),
  MARKET_DATA_PASSWORD: required("MARKET_DATA_PASSWORD", "the market-data account's password"),
  MARKET_DATA_TOTP_SECRET: usableTotpSecret(
    required("MARKET_DATA_TOTP_SECRET", "the market-data account's TOTP secret (base32)"),
    "MARKET_DATA_TOTP_SECRET",
  ),
});

const seconds = (name: string) =>
  wholeNumber(1, Number.POSITIVE_INFINITY, () => `${name} must be a whole number of seconds, 1 or more.`);

const feedSchema = z.object({
  ALERT_INTERVAL_SECONDS: seconds("ALERT_INTERVAL_SECONDS").prefault("30"),
  MARKET_TTL_SECONDS: seconds("MARKET_TTL_SECONDS").prefault("10"),
});

export function marketSection(env: Env): Pick<Config, "marketData" | "alertIntervalMs" | "marketTtlMs"> {
  const account = env.MARKET_DATA_EMAIL ? parseSection(accountSchema, env) : undefined;
  const feed = parseSection(feedSchema, env);
  return {
    marketData: account && {
      email: account.MARKET_DATA_EMAIL,
      password: account.MARKET_DATA_PASSWORD,
      totpSecret: account.MARKET_DATA_TOTP_SECRET,
    },
    alertIntervalMs: feed.ALERT_INTERVAL_SECONDS * 1000,
    marketTtlMs: feed.MARKET_TTL_SECONDS * 1000,
  };
}
