/**
 * An error nothing caught (an exception thrown from a timer or an event handler, a promise
 * rejected with no handler) ends the process, as Node does by default, but first it is written
 * through pino as one JSON line with its stack (serializeError, so no bot token), and that line
 * is flushed synchronously: the process exits right after, before an asynchronous write would
 * reach the log.
 *
 * @example
 * const log = createLogger(config.logLevel);
 * exitOnUncaught(log);
 */
import { pino } from "pino";
import type { Logger } from "../support/logger.ts";

export function exitOnUncaught(
  log: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  const fatal = (error: unknown, what: string) => {
    try {
      log.fatal({ err: error }, what);
      flushSync(log);
    } finally {
      exit(1);
    }
  };
  process.on("uncaughtException", (error) => fatal(error, "uncaught exception: exiting"));
  process.on("unhandledRejection", (reason) => fatal(reason, "unhandled promise rejection: exiting"));
}

/** Writes what pino has buffered now (its default destination, SonicBoom, writes asynchronously). */
export function flushSync(log: Logger): void {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { flushSync?: () => void }
    | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // Nothing buffered (SonicBoom throws when not ready) or the stream is gone: nothing more to do.
  }
}
