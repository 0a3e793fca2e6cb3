/**
 * `npm run backup [PATH]`: a consistent copy of the SQLite store named by STORE_URL, taken while
 * the bot runs (store/sqlite-backup.ts), to PATH or to a timestamped file beside the store. Redis
 * is backed up by Redis itself (its AOF and RDB files; deploy/README.md), so it is refused here.
 * Exit status: 0 done, 1 refused or failed (one sentence on stderr), 2 a bad STORE_URL.
 */
import { ConfigError, storeUrlOf } from "../config/config.ts";
import { StoreError } from "../store/errors.ts";
import { sqliteFileOf } from "../store/open-store.ts";
import { backupSqliteFile, timestampedBackupPath } from "../store/sqlite-backup.ts";

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let storeUrl: string;
try {
  storeUrl = storeUrlOf(process.env);
} catch (error) {
  if (error instanceof ConfigError) fail(error.message, 2);
  throw error;
}
const file = sqliteFileOf(storeUrl);
if (file === undefined) {
  fail(
    "STORE_URL names Redis: npm run backup copies a SQLite store only; back Redis up from its own persistence files (appendonly.aof and dump.rdb, deploy/README.md).",
    1,
  );
}
const dest = process.argv[2] ?? timestampedBackupPath(file, new Date());
try {
  const { bytes } = backupSqliteFile(file, dest);
  process.stdout.write(`Backed up ${file} to ${dest} (${bytes} bytes).\n`);
} catch (error) {
  if (error instanceof StoreError) fail(error.message, 1);
  throw error;
}
