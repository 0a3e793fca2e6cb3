/**
 * The one logger (pino). Redaction is the last line of defence: secrets should never reach a log
 * call in the first place, but if one does under a known name, it is replaced, and errors are
 * serialized by {@link serializeError}, which knows where grammY's errors hide secrets (the bot
 * token sits in every Bot API URL) and personal data (the payload of a failed call).
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
  "totpSecret",
  "*.totpSecret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "secretsKey",
  "*.secretsKey",
  // The Mini App's signed proof of identity: good for 15 minutes to whoever holds it.
  "initData",
  "*.initData",
];

/** A Bot API URL carries the token: `…/bot123456:AA…/sendMessage`. */
const BOT_TOKEN_IN_TEXT = /\bbot\d+:[\w-]+/g;

function scrub(text: unknown): string | undefined {
  return typeof text === "string" ? text.replace(BOT_TOKEN_IN_TEXT, "bot[redacted]") : undefined;
}

/**
 * An error as a log line may show it: name, message, code, stack and a cause, with bot tokens cut
 * out. GrammyError's `payload` (the text the bot tried to send: personal data) and HttpError's
 * wrapped fetch error (whose message holds the URL with the token) are left out.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? scrub(error) : error;
  const record = error as Error & {
    code?: unknown;
    error_code?: unknown;
    description?: unknown;
    method?: unknown;
  };
  const out: Record<string, unknown> = {
    type: error.name,
    message: scrub(error.message),
    stack: scrub(error.stack),
  };
  if (typeof record.code === "string" || typeof record.code === "number") out.code = record.code;
  if (error.name === "GrammyError") {
    out.method = record.method;
    out.error_code = record.error_code;
    out.description = record.description;
  }
  // Our own errors (ExchangeError) carry no secrets by construction; keep their diagnosis fields.
  for (const field of ["kind", "status", "path", "requestId"] as const) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === "string" || typeof value === "number") out[field] = value;
  }
  if (error.name !== "HttpError" && error.cause !== undefined && depth < 3) {
    out.cause = serializeError(error.cause, depth + 1);
  }
  return out;
}

export function createLogger(level: LevelWithSilent = "info", destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing: tests and the demo's quiet mode. */
export const silentLogger: Logger = pino({ level: "silent" });
