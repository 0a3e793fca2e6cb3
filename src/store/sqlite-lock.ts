/**
 * One bot process per SQLite file. With SQLite the bot keeps a chat's session, login and profile in
 * memory between updates (`store/cached.ts`: "this process is the only writer"), so a second
 * process on the same file would serve stale state and overwrite the first one's writes.
 *
 * The lock is a kernel lock, not a marker file: a side database `<file>-lock` held in SQLite's
 * exclusive locking mode with a write transaction left open. SQLite takes it with POSIX fcntl
 * locks, which the kernel drops when the process ends however it ends (SIGKILL, OOM kill, a crash),
 * so a dead bot never leaves a stale lock behind and no process id is compared. A pid file would
 * be wrong twice here: a restarted container's bot may have the dead one's pid (1, in every
 * container), and a process in another container sharing the volume cannot be asked whether it
 * lives. The side file may stay on disk; it holds nothing. The store file itself is not locked this
 * way, so `npm run backup` and tools can still read it while the bot runs.
 *
 * @example
 * const lock = lockSqliteFile("data/bot.sqlite"); // throws StoreError when another bot holds it
 * // … run the bot …
 * lock.release();
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { StoreError } from "./errors.ts";

/** SQLite's result code when another connection holds the lock. */
const SQLITE_BUSY = 5;

export interface SqliteFileLock {
  /** The side file whose lock is held. */
  readonly path: string;
  /** Gives the lock up (ending the process does too); idempotent. */
  release(): void;
}

/**
 * Takes the lock of the SQLite store at `file` for this process, or throws a StoreError whose
 * message is the one sentence to show when another process holds it. Never waits.
 */
export function lockSqliteFile(file: string): SqliteFileLock {
  const path = `${resolve(file)}-lock`;
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode keeps the lock past any statement; BEGIN EXCLUSIVE takes it now.
    db.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE");
  } catch (error) {
    db.close();
    if ((error as { errcode?: unknown }).errcode === SQLITE_BUSY) {
      throw new StoreError(
        `Another bot process is already running on ${resolve(file)}: stop it first, or give this one its own STORE_URL (one process per SQLite file; several instances need Redis).`,
      );
    }
    throw new StoreError(`Could not lock ${path} for this process.`, { cause: error });
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}
