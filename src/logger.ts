/**
 * The one logger (pino). Redaction is the last line of defence: secrets should never reach a log
 * call in the first place, but if one does under a known name, it is replaced.
 *
 * @example
 * const log = createLogger("info");
 * log.info({ userId, ref }, "login failed");
 */
import { type LevelWithSilent, type Logger, pino } from "pino";

export type { Logger };

export const REDACTED_PATHS = [
  "password",
  "*.password",
  "token",
  "*.token",
  "access_token",
  "*.access_token",
  "security_code",
  "*.security_code",
  "securityCode",
  "*.securityCode",
  "client_secret",
  "*.client_secret",
  "clientSecret",
  "*.clientSecret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "secretsKey",
  "*.secretsKey",
];

export function createLogger(level: LevelWithSilent = "info", destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing: tests and the demo's quiet mode. */
export const silentLogger: Logger = pino({ level: "silent" });
