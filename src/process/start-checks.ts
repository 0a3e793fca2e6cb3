/**
 * What `npm start` checks before it serves, each ending in one sentence an operator can act on: the
 * port it must listen on, one bot process per SQLite file, and Redis settings that could lose the
 * ledger's claims.
 *
 * @example
 * const storeLock = await lockStore(config.storeUrl); // exits with a sentence when another process has it
 * await warnAboutRedis(config.storeUrl, log);
 */

import { StoreError } from "../store/errors.ts";
import { sqliteFileOf } from "../store/open-store.ts";
import type { Logger } from "../support/logger.ts";

/** Webhook mode (or the Mini App) cannot run without its port: one sentence, exit 2. */
export async function cannotListen(
  error: unknown,
  port: number,
  services: { close(): Promise<void> },
): Promise<never> {
  const code = (error as { code?: unknown }).code;
  const why = code === "EADDRINUSE" ? "another program uses it" : String(code ?? error);
  process.stderr.write(`PORT ${port} cannot be listened on (${why}): free it or set PORT to another port.\n`);
  await services.close();
  process.exit(2);
}

/**
 * One bot process per SQLite file (store/sqlite-lock.ts): a second one stops here with one
 * sentence. Nothing to lock with Redis, where several instances are the point.
 */
export async function lockStore(storeUrl: string): Promise<{ release(): void } | undefined> {
  const file = sqliteFileOf(storeUrl);
  if (file === undefined) return undefined;
  const { lockSqliteFile } = await import("../store/sqlite-lock.ts");
  try {
    return lockSqliteFile(file);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** A Redis that may evict keys or forget them gets one warning line each (store/redis-settings.ts). */
export async function warnAboutRedis(storeUrl: string, log: Logger): Promise<void> {
  if (!/^rediss?:/.test(storeUrl)) return;
  const { redisSettingsWarnings } = await import("../store/redis-settings.ts");
  const warnings = await redisSettingsWarnings(storeUrl).catch((error: unknown) => {
    log.warn({ err: error }, "Redis's settings could not be checked");
    return [];
  });
  for (const warning of warnings) log.warn(warning);
}
