/**
 * The one Store implementation: plain reads and writes go through Keyv, the atomic operations through
 * a small per-backend `AtomicBackend` that speaks to the same driver with the same key layout and the
 * same serialized form (`{"value":...,"expires":...}`, made by Keyv's own serializer), so `get()`
 * sees exactly what `setIfAbsent()` or `increment()` wrote.
 */
import { isDeepStrictEqual } from "node:util";
import type { Keyv } from "keyv";
import { StoreError, StoreUnavailableError } from "./errors.ts";
import type { IndexEntry, Store } from "./store.ts";

/**
 * What a backend does atomically on raw keys and raw (serialized) values. `raw` strings are always
 * produced by Keyv's serializer; `now` is the caller's clock, the same one Keyv uses for `expires`.
 *
 * @example
 * const backend: AtomicBackend = sqliteAtomicBackend(adapter);
 * await backend.insertIfAbsent("bot:confirm:n1", '{"value":1,"expires":1767225600000}', 1767225000000, 600_000);
 */
export interface AtomicBackend {
  /** Sets `raw` unless a live value is there (an expired one counts as absent); true when it set. */
  insertIfAbsent(rawKey: string, raw: string, now: number, ttlMs: number | undefined): Promise<boolean>;
  /**
   * Adds 1 to the integer in `{"value":N,...}` keeping its expiry; writes `initialRaw` (value 1) when the
   * key is absent or expired. Rejects when the value there is not an integer.
   */
  increment(rawKey: string, initialRaw: string, now: number, ttlMs: number): Promise<number>;
  /** The raw value, live or expired, or undefined. */
  getRaw(rawKey: string): Promise<string | undefined>;
  /** Deletes only if the raw value is exactly `raw`; true when it deleted. */
  deleteIfRaw(rawKey: string, raw: string): Promise<boolean>;
  /**
   * Writes `newRaw` only if the raw value is exactly `raw`; true when it wrote. It expires in `ttlMs`,
   * or, with none, when the value it replaced would have (`newRaw` carries the same `expires`).
   */
  replaceIfRaw(rawKey: string, raw: string, newRaw: string, ttlMs: number | undefined): Promise<boolean>;
  /** The raw values of several keys, live or expired, in one round trip where the backend has one. */
  getManyRaw(rawKeys: readonly string[]): Promise<Array<string | undefined>>;
  /**
   * Optional, for a backend where a round trip costs (Redis): insertIfAbsent with a TTL and, only
   * when it inserted, the raw values of `rawKeys` read after it, in one round trip. Undefined when
   * the key was there. Without it, KeyvStore calls insertIfAbsent, then getManyRaw.
   */
  insertThenGetManyRaw?(
    rawKey: string,
    raw: string,
    ttlMs: number,
    rawKeys: readonly string[],
  ): Promise<Array<string | undefined> | undefined>;
  /**
   * Optional, for a backend where a round trip costs (Redis): deletes in one step if the raw value
   * is `head` + `}` or `head` + `,"expires":N}` with N ≥ now (`head` is `{"value":<JSON>`, the
   * serializer's form of the expected value). False leaves the decision to the general path.
   */
  deleteIfValueText?(rawKey: string, head: string, now: number): Promise<boolean>;
  /** Every raw entry whose key starts with `rawPrefix` (expired ones included). */
  scan(rawPrefix: string): Promise<Array<[rawKey: string, raw: string]>>;
  /** Writes `raw` (with `ttlMs` when given) and adds each member to its raw index, atomically. */
  setIndexed(
    rawKey: string,
    raw: string,
    ttlMs: number | undefined,
    entries: ReadonlyArray<readonly [rawIndex: string, member: string]>,
  ): Promise<void>;
  indexAdd(rawIndex: string, member: string): Promise<void>;
  /** The members of a raw index, in any order. */
  indexMembers(rawIndex: string): Promise<string[]>;
  /** Removes the member unless `rawKey` holds a value live at `now`, atomically; true when removed. */
  indexRemoveUnlessLive(rawIndex: string, member: string, rawKey: string, now: number): Promise<boolean>;
}

/** How a KeyvStore maps keys and talks to its backend. */
export interface KeyvStoreParts {
  /** Keyv over the backend's adapter, with no namespace of its own and `throwOnErrors: true`. */
  keyv: Keyv;
  atomic: AtomicBackend;
  /** Prepended to every key, e.g. `"bot:"` (SQLite, Keyv's layout) or `"bot::"` (@keyv/redis's layout). */
  keyPrefix: string;
  /**
   * Prepended to every index name; must not start like any record key: `"bot:#index:"` (SQLite,
   * memory: rows in the same table, so a record and its index rows are written by one statement),
   * `"bot:index:"` (Redis: a set, beside `bot::` records).
   */
  indexPrefix: string;
  /** Releases the driver; called once. */
  close: () => Promise<void>;
  /** Store.purgeDeleted for this backend; nothing to do when absent. */
  purgeDeleted?: () => Promise<void>;
}

interface Entry {
  value?: unknown;
  expires?: number | null;
}

const indexPattern = /^[A-Za-z0-9:_-]+$/;

function checkMember(member: string): string {
  if (typeof member !== "string" || member.length === 0)
    throw new TypeError("An index member must be a non-empty string.");
  return member;
}

/** A compare-and-delete (or -extend) that lost a race to an equal-valued rewrite tries again this many times. */
const deleteAttempts = 5;

/**
 * Store over Keyv plus an AtomicBackend. Built by `openSqliteStore`, `openRedisStore` and
 * `openMemoryStore`; other modules use `openStore(url)`.
 *
 * @example
 * const store = new KeyvStore({ keyv, atomic, keyPrefix: "bot:", close: () => keyv.disconnect() });
 * await store.set("k", { a: 1 }, 60_000);
 */
export class KeyvStore implements Store {
  readonly #keyv: Keyv;
  readonly #atomic: AtomicBackend;
  readonly #prefix: string;
  readonly #indexPrefix: string;
  readonly #close: () => Promise<void>;
  readonly #purgeDeleted: () => Promise<void>;
  #closed: Promise<void> | undefined;

  constructor(parts: KeyvStoreParts) {
    this.#keyv = parts.keyv;
    this.#atomic = parts.atomic;
    this.#prefix = parts.keyPrefix;
    this.#indexPrefix = parts.indexPrefix;
    this.#close = parts.close;
    this.#purgeDeleted = parts.purgeDeleted ?? (async () => {});
  }

  async get<T>(key: string): Promise<T | undefined> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      // Not keyv.get(): on an expired entry it deletes the key unconditionally, which could delete a
      // fresh value another instance just wrote with setIfAbsent (and so let a second order through).
      const raw = await this.#atomic.getRaw(rawKey);
      if (raw === undefined) return undefined;
      const entry = await this.#decode(raw);
      if (isExpired(entry, Date.now())) {
        await this.#atomic.deleteIfRaw(rawKey, raw);
        return undefined;
      }
      return entry.value as T;
    });
  }

  async getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return backend(async () =>
      this.#liveValues<T>(await this.#atomic.getManyRaw(keys.map((key) => this.#rawKey(key)))),
    );
  }

  // The per-update path of every private chat on Redis (the chat lock): written without backend()'s
  // closure and with no promise of its own for a plain value (asStoreError in the catch instead).
  async setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined> {
    try {
      const rawKey = this.#rawKey(key);
      checkValue(value);
      const ttl = checkTtl(ttlMs);
      if (ttl === undefined)
        throw new RangeError("setIfAbsentThenGetMany needs a TTL in milliseconds greater than 0.");
      const rawKeys = keys.map((k) => this.#rawKey(k));
      const now = Date.now();
      const raw = isPlainScalar(value) ? plainEntry(value, now + ttl) : await this.#encode(value, now + ttl);
      const raws = this.#atomic.insertThenGetManyRaw
        ? await this.#atomic.insertThenGetManyRaw(rawKey, raw, ttl, rawKeys)
        : (await this.#atomic.insertIfAbsent(rawKey, raw, now, ttl))
          ? await this.#atomic.getManyRaw(rawKeys)
          : undefined;
      if (raws === undefined) return undefined;
      return this.#plainValues<T>(raws) ?? (await this.#liveValues<T>(raws));
    } catch (error) {
      throw asStoreError(error);
    }
  }

  /** #liveValues without a promise when no value needs the deserializer (undefined when one does). */
  #plainValues<T>(raws: ReadonlyArray<string | undefined>): Array<T | undefined> | undefined {
    const now = Date.now();
    // Every index is set below (no holes), in an array of its final length from the start.
    const values = new Array<T | undefined>(raws.length);
    for (let i = 0; i < raws.length; i++) {
      const raw = raws[i];
      const entry = raw === undefined ? undefined : parsePlain(raw);
      if (raw !== undefined && entry === undefined) return undefined;
      values[i] = entry === undefined || isExpired(entry, now) ? undefined : (entry.value as T);
    }
    return values;
  }

  /** Each raw value as get() gives it: an expired entry reads as absent (get() or the backend's expiry removes it). */
  async #liveValues<T>(raws: ReadonlyArray<string | undefined>): Promise<Array<T | undefined>> {
    const now = Date.now();
    const values: Array<T | undefined> = [];
    for (const raw of raws) {
      if (raw === undefined) {
        values.push(undefined);
        continue;
      }
      const entry = parsePlain(raw) ?? (await this.#decode(raw));
      values.push(isExpired(entry, now) ? undefined : (entry.value as T));
    }
    return values;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      checkValue(value);
      // Keyv computes `expires` from the same ttl and passes it to the adapter (Redis also sets PX).
      await this.#keyv.set(rawKey, value, checkTtl(ttlMs));
    });
  }

  async delete(key: string): Promise<boolean> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      // An expired entry still sitting in SQLite was not "there": report false, as Redis would.
      const raw = await this.#atomic.getRaw(rawKey);
      if (raw === undefined) return false;
      const deleted = await this.#keyv.delete(rawKey);
      return deleted && !isExpired(await this.#decode(raw), Date.now());
    });
  }

  async setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      checkValue(value);
      const ttl = checkTtl(ttlMs);
      const now = Date.now();
      const raw = await this.#encode(value, ttl === undefined ? undefined : now + ttl);
      return this.#atomic.insertIfAbsent(rawKey, raw, now, ttl);
    });
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      const ttl = checkTtl(ttlMs);
      if (ttl === undefined) throw new RangeError("increment needs a TTL in milliseconds greater than 0.");
      const now = Date.now();
      const initialRaw = await this.#encode(1, now + ttl);
      return this.#atomic.increment(rawKey, initialRaw, now, ttl);
    });
  }

  async deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    try {
      const rawKey = this.#rawKey(key);
      checkValue(expected);
      // The same text as stored (a lock's holder id, nearly always): one round trip instead of two.
      // The head is the entry's text up to its `expires`: `{"value":<JSON>`.
      if (this.#atomic.deleteIfValueText) {
        const head = isPlainScalar(expected)
          ? `{"value":${JSON.stringify(expected)}`
          : (await this.#encode(expected, undefined)).slice(0, -1);
        if (await this.#atomic.deleteIfValueText(rawKey, head, Date.now())) return true;
      }
      return await this.#deleteIfEqualsByValue(rawKey, expected);
    } catch (error) {
      throw asStoreError(error);
    }
  }

  /** deleteIfEquals by reading the value and comparing it: any value, any backend. */
  async #deleteIfEqualsByValue(rawKey: string, expected: unknown): Promise<boolean> {
    // Compare what the stored value and `expected` look like after a trip through the serializer.
    const encoded = await this.#encode(expected, undefined);
    const wanted = (await this.#decode(encoded)).value;
    for (let attempt = 0; attempt < deleteAttempts; attempt++) {
      const raw = await this.#atomic.getRaw(rawKey);
      if (raw === undefined) return false;
      const entry = await this.#decode(raw);
      if (isExpired(entry, Date.now()) || !isDeepStrictEqual(entry.value, wanted)) return false;
      // The delete happens only if nothing changed since the read: that is the atomic step.
      if (await this.#atomic.deleteIfRaw(rawKey, raw)) return true;
    }
    return false;
  }

  async extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      checkValue(expected);
      const ttl = checkTtl(ttlMs);
      if (ttl === undefined)
        throw new RangeError("extendIfEquals needs a TTL in milliseconds greater than 0.");
      const wanted = (await this.#decode(await this.#encode(expected, undefined))).value;
      for (let attempt = 0; attempt < deleteAttempts; attempt++) {
        const raw = await this.#atomic.getRaw(rawKey);
        if (raw === undefined) return false;
        const entry = await this.#decode(raw);
        const now = Date.now();
        if (isExpired(entry, now) || !isDeepStrictEqual(entry.value, wanted)) return false;
        // As in deleteIfEquals: the write happens only if nothing changed since the read.
        const renewed = await this.#encode(entry.value, now + ttl);
        if (await this.#atomic.replaceIfRaw(rawKey, raw, renewed, ttl)) return true;
      }
      return false;
    });
  }

  async replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      checkValue(expected);
      checkValue(next);
      const wanted = (await this.#decode(await this.#encode(expected, undefined))).value;
      const raw = await this.#atomic.getRaw(rawKey);
      if (raw === undefined) return false;
      const entry = await this.#decode(raw);
      if (isExpired(entry, Date.now()) || !isDeepStrictEqual(entry.value, wanted)) return false;
      // The same `expires` as before; the write happens only if nothing changed since the read.
      const expires = typeof entry.expires === "number" ? entry.expires : undefined;
      return this.#atomic.replaceIfRaw(rawKey, raw, await this.#encode(next, expires), undefined);
    });
  }

  async keys(prefix: string): Promise<string[]> {
    return backend(async () => {
      this.#assertOpen();
      const now = Date.now();
      const rawPrefix = this.#prefix + prefix;
      const live: string[] = [];
      for (const [rawKey, raw] of await this.#atomic.scan(rawPrefix)) {
        // Index rows (SQLite, memory) share the key space of records but are not records.
        if (!rawKey.startsWith(rawPrefix) || rawKey.startsWith(this.#indexPrefix)) continue;
        if (!isExpired(await this.#decode(raw), now)) live.push(rawKey.slice(this.#prefix.length));
      }
      return live.sort();
    });
  }

  async setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void> {
    return backend(async () => {
      const rawKey = this.#rawKey(key);
      checkValue(value);
      const ttl = checkTtl(ttlMs);
      const rawEntries = entries.map(
        ({ index, member }) => [this.#rawIndex(index), checkMember(member)] as const,
      );
      const raw = await this.#encode(value, ttl === undefined ? undefined : Date.now() + ttl);
      await this.#atomic.setIndexed(rawKey, raw, ttl, rawEntries);
    });
  }

  async addToIndex(index: string, member: string): Promise<void> {
    return backend(async () => this.#atomic.indexAdd(this.#rawIndex(index), checkMember(member)));
  }

  async indexMembers(index: string): Promise<string[]> {
    return backend(async () => (await this.#atomic.indexMembers(this.#rawIndex(index))).sort());
  }

  async unindex(index: string, member: string, key: string): Promise<boolean> {
    return backend(async () =>
      this.#atomic.indexRemoveUnlessLive(
        this.#rawIndex(index),
        checkMember(member),
        this.#rawKey(key),
        Date.now(),
      ),
    );
  }

  async purgeDeleted(): Promise<void> {
    return backend(async () => {
      this.#assertOpen();
      await this.#purgeDeleted();
    });
  }

  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  #rawKey(key: string): string {
    this.#assertOpen();
    if (typeof key !== "string" || key.length === 0)
      throw new TypeError("A store key must be a non-empty string.");
    return this.#prefix + key;
  }

  #rawIndex(index: string): string {
    this.#assertOpen();
    if (typeof index !== "string" || !indexPattern.test(index))
      throw new TypeError(`An index name holds letters, digits, ":", "_" and "-", not "${index}".`);
    return this.#indexPrefix + index;
  }

  #assertOpen(): void {
    // Without this, @keyv/redis would quietly reconnect a closed client on the next call.
    if (this.#closed) throw new StoreError("The store is closed.");
  }

  async #encode(value: unknown, expires: number | undefined): Promise<string> {
    // A lock's holder id, a flag: what the serializer would write, without its walk.
    if (isPlainScalar(value)) return plainEntry(value, expires);
    const serialize = this.#keyv.serialize;
    if (!serialize) throw new StoreError("The Keyv serializer is missing.");
    return serialize({ value, expires });
  }

  async #decode(raw: string): Promise<Entry> {
    const deserialize = this.#keyv.deserialize;
    if (!deserialize) throw new StoreError("The Keyv deserializer is missing.");
    const entry = (await deserialize(raw)) as Entry | undefined;
    return entry ?? {};
  }
}

/**
 * A scalar the serializer (@keyv/serialize) writes exactly as JSON.stringify does: it only escapes
 * strings that begin with ":" (and Buffers, which are objects).
 */
function isPlainScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === "number" ||
    typeof value === "boolean" ||
    (typeof value === "string" && !value.startsWith(":"))
  );
}

/**
 * The entry by plain JSON.parse when the serializer's reviver would change nothing, else undefined
 * (use the deserializer). The reviver changes only strings that begin with ":", and the serializer
 * writes every such string as `"::…"` (an escaped one) or `":base64:…"` (a Buffer): with neither in
 * the text, plain JSON.parse gives the same value, without a call per value.
 */
function parsePlain(raw: string): Entry | undefined {
  if (raw.includes('"::') || raw.includes('":base64:')) return undefined;
  const entry = JSON.parse(raw) as Entry | null;
  return entry ?? {};
}

/** What the serializer writes for a plain scalar (isPlainScalar): the same text, without its walk. */
function plainEntry(value: string | number | boolean | null, expires: number | undefined): string {
  return JSON.stringify({ value, expires });
}

/** A failure of the backend itself as StoreUnavailableError; a misuse of the store as it is. */
function asStoreError(error: unknown): unknown {
  if (error instanceof StoreError || error instanceof TypeError || error instanceof RangeError) return error;
  return new StoreUnavailableError(error);
}

/**
 * Runs one operation; a failure of the backend itself becomes StoreUnavailableError (the driver's
 * error as its cause), so callers can tell "the store is down" from a misuse of it.
 */
async function backend<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStoreError(error);
  }
}

/** Keyv's rule, to the millisecond: expired when now is past `expires`. */
function isExpired(entry: Entry, now: number): boolean {
  return typeof entry.expires === "number" && now > entry.expires;
}

function checkTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`A TTL must be a number of milliseconds greater than 0, not ${ttlMs}.`);
  }
  // Redis PX takes whole milliseconds; round up so a TTL never gets shorter than asked.
  return Math.ceil(ttlMs);
}

function checkValue(value: unknown): void {
  // Keyv would store `undefined` as an entry that reads back as absent: say so instead.
  if (value === undefined) throw new TypeError("A store value cannot be undefined: use delete().");
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    throw new TypeError(`A store value must be JSON-like, not a ${typeof value}.`);
  }
}
