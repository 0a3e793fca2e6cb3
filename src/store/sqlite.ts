/**
 * The embedded default: one SQLite file through @keyv/sqlite, shared safely by several processes.
 *
 * @keyv/sqlite keeps Keyv's layout: table `keyv(key PRIMARY KEY, value TEXT)`, key `namespace:key`,
 * value `{"value":...,"expires":ms}` (it has no TTL of its own: expiry lives in the JSON). The atomic
 * operations are single SQL statements on the adapter's own connection, so they are atomic across
 * connections and processes: `INSERT ... ON CONFLICT DO UPDATE ... WHERE <expired>` treats an expired
 * row as absent, and `RETURNING` tells whether this statement wrote it. One statement, not a
 * BEGIN...COMMIT: the adapter's connection is shared by concurrent calls, which would interleave
 * inside a multi-statement transaction.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { KeyvSqlite } from "@keyv/sqlite";
import { Keyv } from "keyv";
import { StoreError } from "./errors.ts";
import { type AtomicBackend, KeyvStore } from "./keyv-store.ts";
import type { Store } from "./store.ts";

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
const defaultBusyTimeoutMs = 5_000;

/** @keyv/sqlite's default table name. */
const table = "keyv";

/**
 * Index rows live in the same table as records (`bot:#index:NAME|MEMBER`, no expiry), so a record
 * and its index rows are written by one statement, which is atomic: no record key starts with `#`.
 */
const INDEX_MARK = "#index:";
const INDEX_ROW_VALUE = '{"value":1}';
const indexRow = (rawIndex: string, member: string) => `${rawIndex}|${member}`;
/** Rows whose key starts with ?N, by the primary key's range (not LIKE: `_` and `%` are wildcards). */
const keyRange = (param: string) =>
  `key >= ${param} AND key < ${param} || char(1114111) AND substr(key, 1, length(${param})) = ${param}`;

/** A row's `expires` as SQLite sees it; NULL when the value is not JSON or has no expiry. */
const expiresOf = (column: string) =>
  `(CASE WHEN json_valid(${column}) THEN json_extract(${column}, '$.expires') END)`;
/** True when the row in `column` has expired at `now` (Keyv's rule: now > expires). */
const expiredAt = (column: string, now: string) =>
  `(${expiresOf(column)} IS NOT NULL AND ${expiresOf(column)} < ${now})`;

/**
 * Opens a SQLite store at `path` (relative to the working directory, or absolute; `:memory:` for a
 * private in-memory database). Creates the folder, switches the file to WAL, turns on
 * secure_delete and sets a busy timeout, and sweeps rows of this namespace that have expired.
 *
 * @example
 * const store = await openSqliteStore("data/bot.sqlite", { namespace: "bot", onError: console.error });
 */
export async function openSqliteStore(
  path: string,
  options: {
    namespace: string;
    onError: (error: unknown) => void;
    /** Default 5 s. SQLite waits it out in real time; tests of the lock pass a short one. */
    busyTimeoutMs?: number;
    /** Told of every statement the store prepares and runs (tests count round trips with it). */
    onStatement?: StatementListener;
  },
): Promise<Store> {
  if (path.length === 0)
    throw new StoreError("STORE_URL sqlite:// needs a file path, e.g. sqlite://data/bot.sqlite.");
  const inMemory = path === ":memory:";
  const file = inMemory ? path : resolve(path);
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });

  const adapter = new KeyvSqlite({
    uri: `sqlite://${file}`,
    busyTimeout: options.busyTimeoutMs ?? defaultBusyTimeoutMs,
    table,
  });
  // No Keyv namespace: KeyvStore prefixes keys itself (the same `namespace:key` Keyv would make), so
  // the key layout is in one place for both the Keyv path and the atomic SQL below.
  const keyv = new Keyv({ store: adapter, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  keyv.on("error", options.onError);
  const adapterQuery = adapter.query as Query;
  const listen = options.onStatement;
  // The adapter prepares each query anew: a prepare and a run each.
  const query: Query = listen
    ? (sql, ...params) => {
        listen("prepare", sql);
        listen("run", sql);
        return adapterQuery(sql, ...params);
      }
    : adapterQuery;

  try {
    const [mode] = await query("PRAGMA journal_mode=WAL");
    if (!inMemory && mode?.journal_mode !== "wal") {
      throw new StoreError(
        `SQLite refused WAL journal mode for ${file} (got ${String(mode?.journal_mode)}).`,
      );
    }
    // Deleted rows are overwritten with zeros, not left in free pages (a logged-out user's
    // e-mail and sealed token would otherwise stay readable in the file).
    await query("PRAGMA secure_delete=ON");
    const keyPrefix = `${options.namespace}:`;
    await query(
      `DELETE FROM ${table} WHERE substr(key, 1, length(?1)) = ?1 AND ${expiredAt("value", "?2")}`,
      keyPrefix,
      Date.now(),
    );
    // A private in-memory database is one connection's own: its reads stay on the adapter's.
    const reader = inMemory
      ? undefined
      : new SqliteReader(file, options.busyTimeoutMs ?? defaultBusyTimeoutMs, listen);
    return new KeyvStore({
      keyv,
      atomic: { ...sqliteAtomic(query), ...sqliteIndexes(query), ...(reader ? reader.backend() : {}) },
      keyPrefix,
      indexPrefix: `${keyPrefix}${INDEX_MARK}`,
      close: async () => {
        reader?.close();
        await keyv.disconnect();
      },
      // The WAL still holds older copies of pages (deleted rows in them) until a checkpoint copies
      // the current pages into the file; TRUNCATE then empties the WAL file itself.
      purgeDeleted: async () => {
        if (!inMemory) await query("PRAGMA wal_checkpoint(TRUNCATE)");
      },
    });
  } catch (error) {
    await keyv.disconnect().catch(() => {});
    throw error;
  }
}

type Query = (sql: string, ...params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** A statement prepared, or run (once per execution). */
export type StatementListener = (event: "prepare" | "run", sql: string) => void;

/** The atomic operations on records, each one statement on the adapter's connection. */
function sqliteAtomic(
  query: Query,
): Omit<AtomicBackend, "setIndexed" | "indexAdd" | "indexMembers" | "indexRemoveUnlessLive"> {
  return {
    async insertIfAbsent(rawKey, raw, now) {
      const rows = await query(
        `INSERT INTO ${table} (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE ${expiredAt(`${table}.value`, "?3")}
         RETURNING 1 AS written`,
        rawKey,
        raw,
        now,
      );
      return rows.length === 1;
    },

    async increment(rawKey, initialRaw, now) {
      const current = `${table}.value`;
      // json_set keeps `expires` as it was: the TTL is set when the counter is created, never extended.
      const rows = await query(
        `INSERT INTO ${table} (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = CASE
             WHEN ${expiredAt(current, "?3")} THEN excluded.value
             ELSE json_set(${current}, '$.value', json_extract(${current}, '$.value') + 1) END
           WHERE ${expiredAt(current, "?3")}
              OR (json_valid(${current}) AND json_type(${current}, '$.value') = 'integer')
         RETURNING json_extract(value, '$.value') AS count`,
        rawKey,
        initialRaw,
        now,
      );
      const count = rows[0]?.count;
      if (typeof count !== "number")
        throw new StoreError("increment: the value at this key is not a counter.");
      return count;
    },

    async getRaw(rawKey) {
      const rows = await query(`SELECT value FROM ${table} WHERE key = ?1`, rawKey);
      const value = rows[0]?.value;
      return typeof value === "string" ? value : undefined;
    },

    async getManyRaw(rawKeys) {
      if (rawKeys.length === 0) return [];
      const rows = await query(
        `SELECT key, value FROM ${table} WHERE key IN (${rawKeys.map((_, i) => `?${i + 1}`).join(", ")})`,
        ...rawKeys,
      );
      const found = new Map(rows.map((row) => [row.key, row.value]));
      return rawKeys.map((key) => {
        const value = found.get(key);
        return typeof value === "string" ? value : undefined;
      });
    },

    async deleteIfRaw(rawKey, raw) {
      const rows = await query(
        `DELETE FROM ${table} WHERE key = ?1 AND value = ?2 RETURNING 1 AS gone`,
        rawKey,
        raw,
      );
      return rows.length === 1;
    },

    async replaceIfRaw(rawKey, raw, newRaw) {
      // `expires` lives in the value itself here: the caller's `newRaw` carries the TTL.
      const rows = await query(
        `UPDATE ${table} SET value = ?3 WHERE key = ?1 AND value = ?2 RETURNING 1 AS written`,
        rawKey,
        raw,
        newRaw,
      );
      return rows.length === 1;
    },

    async scan(rawPrefix) {
      // A key range, so the primary-key index is used (a full scan grew with every user); the
      // substr test keeps it exact. Not LIKE: it treats `_` and `%` as wildcards and ignores case.
      const rows = await query(
        `SELECT key, value FROM ${table} WHERE ${keyRange("?1")} ORDER BY key`,
        rawPrefix,
      );
      return rows.flatMap((row) =>
        typeof row.key === "string" && typeof row.value === "string"
          ? [[row.key, row.value] as [string, string]]
          : [],
      );
    },
  };
}

/** Indexes as rows beside the records (INDEX_MARK), written with a record by one statement. */
function sqliteIndexes(
  query: Query,
): Pick<AtomicBackend, "setIndexed" | "indexAdd" | "indexMembers" | "indexRemoveUnlessLive"> {
  return {
    async setIndexed(rawKey, raw, _ttlMs, entries) {
      // One multi-row upsert: the record and its index rows are written together or not at all.
      const params: string[] = [rawKey, raw];
      for (const [rawIndex, member] of entries) params.push(indexRow(rawIndex, member), INDEX_ROW_VALUE);
      const values = Array.from({ length: params.length / 2 }, (_, i) => `(?${2 * i + 1}, ?${2 * i + 2})`);
      await query(
        `INSERT INTO ${table} (key, value) VALUES ${values.join(", ")}
         ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
        ...params,
      );
    },

    async indexAdd(rawIndex, member) {
      await query(
        `INSERT INTO ${table} (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO NOTHING`,
        indexRow(rawIndex, member),
        INDEX_ROW_VALUE,
      );
    },

    async indexMembers(rawIndex) {
      const start = indexRow(rawIndex, "");
      const rows = await query(`SELECT key FROM ${table} WHERE ${keyRange("?1")}`, start);
      return rows.flatMap((row) => (typeof row.key === "string" ? [row.key.slice(start.length)] : []));
    },

    async indexRemoveUnlessLive(rawIndex, member, rawKey, now) {
      const rows = await query(
        `DELETE FROM ${table} WHERE key = ?1 AND NOT EXISTS (
           SELECT 1 FROM ${table} AS record WHERE record.key = ?2 AND NOT ${expiredAt("record.value", "?3")})
         RETURNING 1 AS gone`,
        indexRow(rawIndex, member),
        rawKey,
        now,
      );
      return rows.length === 1;
    },
  };
}

/**
 * The reads of the per-update path (a key, a chat's keys) on a connection of their own through
 * node:sqlite, each statement prepared once: on the adapter's sqlite3 connection every query is
 * prepared again and goes through libuv's thread pool and back, which cost more than the lookup.
 * A WAL reader never waits for the writer, and sees every write that has returned (each is its
 * own transaction); the read takes microseconds, so it runs in place.
 */
class SqliteReader {
  readonly #db: DatabaseSync;
  readonly #one: StatementSync;
  /** `WHERE key IN (?, …)` by the number of keys (a chat's reads: always the same few). */
  readonly #many = new Map<number, StatementSync>();

  readonly #listen: StatementListener;

  constructor(file: string, busyTimeoutMs: number, listen: StatementListener = () => {}) {
    this.#db = new DatabaseSync(file, { readOnly: true, timeout: busyTimeoutMs });
    this.#listen = listen;
    this.#one = this.#prepare(`SELECT value FROM ${table} WHERE key = ?`);
  }

  #prepare(sql: string): StatementSync {
    this.#listen("prepare", sql);
    return this.#db.prepare(sql);
  }

  backend(): Pick<AtomicBackend, "getRaw" | "getManyRaw"> {
    return {
      getRaw: async (rawKey) => {
        this.#listen("run", this.#one.sourceSQL);
        const value = this.#one.get(rawKey)?.value;
        return typeof value === "string" ? value : undefined;
      },
      getManyRaw: async (rawKeys) => this.#getMany(rawKeys),
    };
  }

  #getMany(rawKeys: readonly string[]): Array<string | undefined> {
    if (rawKeys.length === 0) return [];
    let statement = this.#many.get(rawKeys.length);
    if (statement === undefined) {
      statement = this.#prepare(
        `SELECT key, value FROM ${table} WHERE key IN (${rawKeys.map(() => "?").join(", ")})`,
      );
      // Up to 32 arities kept: more would only come from listings, which prepare their own.
      if (this.#many.size < 32) this.#many.set(rawKeys.length, statement);
    }
    this.#listen("run", statement.sourceSQL);
    const rows = statement.all(...rawKeys);
    const values = new Array<string | undefined>(rawKeys.length);
    for (const row of rows) {
      if (typeof row.value !== "string") continue;
      // Every place the key is asked at (a key asked twice gets its value twice).
      for (let i = 0; i < rawKeys.length; i++) if (rawKeys[i] === row.key) values[i] = row.value;
    }
    return values;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
