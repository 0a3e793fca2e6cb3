/**
 * A consistent copy of the SQLite store while the bot runs (`npm run backup`). Copying the file
 * would not do: with WAL the newest commits sit in `bot.sqlite-wal`, and a file copied during a
 * checkpoint is torn. `VACUUM INTO` instead reads the database inside one read transaction (with
 * WAL a snapshot: the bot's commits go on meanwhile and neither side waits for the other) and
 * writes a fresh, self-contained file of the live pages only, so nothing the bot deleted is carried
 * over in free pages (SECURITY.md: what the bot deletes stays deleted). It is written under a
 * `.partial` name and renamed when complete, so a copy cut short never looks like a backup.
 *
 * @example
 * const { bytes } = backupSqliteFile("data/bot.sqlite", "backups/bot-monday.sqlite");
 */
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { StoreError } from "./errors.ts";

/** How long the copy waits for a lock the bot holds (a checkpoint) before failing. */
const busyTimeoutMs = 10_000;

/**
 * Copies the store at `source` to `dest` (a new file). Throws a StoreError with the sentence to
 * show when there is no store at `source` or `dest` already exists.
 */
export function backupSqliteFile(source: string, dest: string): { bytes: number } {
  const from = resolve(source);
  const to = resolve(dest);
  if (!existsSync(from)) throw new StoreError(`There is no SQLite store at ${from}: nothing to back up.`);
  if (existsSync(to)) throw new StoreError(`${to} already exists: a backup never overwrites a file.`);
  const partial = `${to}.partial`;
  rmSync(partial, { force: true }); // left by a copy that was cut short
  const db = new DatabaseSync(from, { readOnly: true, timeout: busyTimeoutMs });
  try {
    db.prepare("VACUUM INTO ?").run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  renameSync(partial, to);
  return { bytes: statSync(to).size };
}

/** `data/bot.sqlite` at 2026-11-24 11:53:26 UTC → `data/bot.backup-20261124-115326.sqlite`. */
export function timestampedBackupPath(source: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/[-:]/g, "")
    .replace("T", "-");
  const extension = extname(source);
  return join(dirname(source), `${basename(source, extension)}.backup-${stamp}${extension || ".sqlite"}`);
}
