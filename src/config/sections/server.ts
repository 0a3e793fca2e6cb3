/**
 * The process: the bot's HTTP server (its port, the Mini App's public address), /metrics on a port
 * of its own, how much it logs, and how long a shutdown may take.
 */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { wholeNumber } from "./fields.ts";
import { parseSection } from "./section.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Telegram opens Mini Apps only over https; plain http is let through for loopback addresses,
 * where the tests and the demo serve the page. The page sits under the path, so no query or
 * fragment.
 */
function isWebAppUrl(value: string): boolean {
  const parsed = URL.parse(value);
  if (parsed === null) return false;
  const loopback = LOOPBACK_HOSTS.test(parsed.hostname);
  return (
    (parsed.protocol === "https:" || (parsed.protocol === "http:" && loopback)) &&
    parsed.search === "" &&
    parsed.hash === "" &&
    parsed.username === "" &&
    parsed.password === ""
  );
}

const serverSchema = z.object({
  PORT: wholeNumber(
    0,
    65535,
    (value) => `PORT must be a port number from 1 to 65535 (0: any free one), not "${value}".`,
  ).prefault("8080"),
  METRICS_PORT: wholeNumber(
    0,
    65535,
    (value) =>
      `METRICS_PORT must be a port number from 1 to 65535 (0: any free one), or unset to serve no metrics, not "${value}".`,
  ).optional(),
  METRICS_HOST: z
    .string()
    .regex(/^[\w.:-]+$/, {
      error: (issue) =>
        `METRICS_HOST must be an address to listen on, like 127.0.0.1 (the default) or 0.0.0.0, not "${String(issue.input)}".`,
    })
    .prefault("127.0.0.1"),
  WEBAPP_URL: z
    .string()
    .refine(isWebAppUrl, {
      error: (issue) =>
        `WEBAPP_URL must be the public https base URL of the bot's HTTP server, like https://bot.example.com (plain http only for 127.0.0.1 or localhost), not "${String(issue.input)}".`,
    })
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}.` })
    .prefault("info"),
  SHUTDOWN_TIMEOUT_SECONDS: wholeNumber(
    1,
    3600,
    () =>
      "SHUTDOWN_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600 (keep it below the stop grace of your container runtime).",
  ).prefault("25"),
});

export function serverSection(
  env: Env,
): Pick<Config, "port" | "metrics" | "webAppUrl" | "logLevel" | "shutdownTimeoutMs"> {
  const read = parseSection(serverSchema, env);
  return {
    port: read.PORT,
    metrics:
      read.METRICS_PORT === undefined ? undefined : { port: read.METRICS_PORT, host: read.METRICS_HOST },
    webAppUrl: read.WEBAPP_URL,
    logLevel: read.LOG_LEVEL,
    shutdownTimeoutMs: read.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  };
}
