/**
 * An in-process cache in front of the Store for the per-chat keys every private update reads —
 * the grammY session, the conversation state, the alerts pause — so that an update of a user this
 * process has seen needs no store round trip for them, and a write of an unchanged value is not
 * sent. Everything else (the exactly-once claims, counters, locks, listings) goes straight through.
 *
 * Only correct when this process is the only writer of those keys: one bot process per SQLite file
 * (one poller per token; main.ts refuses a second). It is never put in front of Redis, where
 * several instances write the same keys. Every write goes to the store first and reaches the cache
 * only once the store has it, so a restart (an empty cache) reads exactly what was written.
 *
 * @example
 * const store = cachedStore(await openStore("sqlite://data/bot.sqlite"), { prefixes: { "session:": "untimed" } });
 */
import { DelegatingStore } from "./delegating.ts";
import type { IndexEntry, Store } from "./store.ts";

export interface CachedStoreOptions {
  /**
   * Keys starting with one of these are cached. `untimed`: nothing under it is ever written with a
   * TTL, so a value read from the store can be kept; `timed`: only what this process wrote (its
   * expiry is then known) and absence are kept.
   */
  prefixes: Readonly<Record<string, "untimed" | "timed">>;
  /**
   * Most memory the entries may take, in bytes as `entryBytes` estimates them; the least recently
   * used go first. Sized by bytes, not by a count: an absent key costs a small fraction of a
   * session, and the count of keys per user differs by feature. Default `DEFAULT_CACHE_BYTES`.
   */
  maxBytes?: number;
}

/**
 * 8 MiB: the per-update keys of about 7,000 users who were active lately (bench/README.md, (u):
 * about 1.2 KiB a user on /help), about what the old 20,000-entry cache held. A chat that fell out
 * costs one statement for all its keys (sqlite.ts), so a larger cache buys little per update and
 * costs memory that grows with the community: 32 MiB raised (c)'s peak RSS after 100,000 users
 * from 185 to 233 MiB.
 */
export const DEFAULT_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * What one entry holds on the V8 heap, estimated: the key's and the JSON's characters (two bytes
 * each at most) and the Map slot, the entry object and the strings' headers (~100 bytes).
 */
export function entryBytes(key: string, json: string | undefined): number {
  return 100 + 2 * (key.length + (json?.length ?? 0));
}

interface Entry {
  /** The value's JSON (a fresh copy on each read: callers mutate what they get), or absent. */
  json: string | undefined;
  /** Date.now() after which the store no longer has it (the store's own expiry rule). */
  expires: number | undefined;
  /** entryBytes of this entry. */
  bytes: number;
}

/** A read under way: a write meanwhile marks it stale, so it does not fill the cache afterwards. */
interface Read {
  stale: boolean;
}

export function cachedStore(inner: Store, options: CachedStoreOptions): Store {
  return new CachedStore(inner, options);
}

class CachedStore extends DelegatingStore {
  readonly #prefixes: ReadonlyArray<[string, "untimed" | "timed"]>;
  readonly #maxBytes: number;
  #bytes = 0;
  readonly #entries = new Map<string, Entry>();
  /** Where eviction goes on from (#oldest). */
  #cursor: MapIterator<string> | undefined;
  /** Writes of a key under way: no read fills the cache meanwhile. */
  readonly #writing = new Map<string, number>();
  /** Reads of a key under way; a write marks them stale, so they do not fill the cache afterwards. */
  readonly #reading = new Map<string, Set<Read>>();

  constructor(inner: Store, options: CachedStoreOptions) {
    super(inner);
    this.#prefixes = Object.entries(options.prefixes);
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
  }

  override async get<T>(key: string): Promise<T | undefined> {
    const kind = this.#kind(key);
    if (kind === undefined) return this.inner.get<T>(key);
    const hit = this.#hit<T>(key);
    if (hit !== undefined) return hit.value;
    const read = this.#startRead(key);
    let value: T | undefined;
    try {
      value = await this.inner.get<T>(key);
    } finally {
      this.#endRead(key, read);
    }
    this.#fill(key, kind, read, value);
    return value;
  }

  /**
   * Each key as `get` reads it, and what is not in memory in one call to the store (on SQLite one
   * statement): a chat's per-update keys (store/update-reads.ts) cost one round trip when the chat
   * is not cached, none when it is.
   */
  override async getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    const values = new Array<T | undefined>(keys.length);
    const missing: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const hit = this.#kind(key) === undefined ? undefined : this.#hit<T>(key);
      if (hit === undefined) missing.push(i);
      else values[i] = hit.value;
    }
    if (missing.length === 0) return values;
    const missingKeys = missing.map((i) => keys[i] as string);
    const reads = missingKeys.map((key) =>
      this.#kind(key) === undefined ? undefined : this.#startRead(key),
    );
    let read: Array<T | undefined>;
    try {
      read = await this.inner.getMany<T>(missingKeys);
    } finally {
      for (let j = 0; j < missingKeys.length; j++) {
        const r = reads[j];
        if (r !== undefined) this.#endRead(missingKeys[j] as string, r);
      }
    }
    for (let j = 0; j < missingKeys.length; j++) {
      const key = missingKeys[j] as string;
      const value = read[j];
      values[missing[j] as number] = value;
      const kind = this.#kind(key);
      const r = reads[j];
      if (kind !== undefined && r !== undefined) this.#fill(key, kind, r, value);
    }
    return values;
  }

  /** The cached value of `key` (a fresh copy), moved to most recently used; undefined on a miss. */
  #hit<T>(key: string): { value: T | undefined } | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || (entry.expires !== undefined && Date.now() > entry.expires)) return undefined;
    // Most recently used last, so the oldest is first to go.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return { value: entry.json === undefined ? undefined : (JSON.parse(entry.json) as T) };
  }

  #startRead(key: string): Read {
    const read = { stale: false };
    let readers = this.#reading.get(key);
    if (readers === undefined) {
      readers = new Set();
      this.#reading.set(key, readers);
    }
    readers.add(read);
    return read;
  }

  #endRead(key: string, read: Read): void {
    const readers = this.#reading.get(key);
    readers?.delete(read);
    if (readers?.size === 0) this.#reading.delete(key);
  }

  /**
   * Keeps what a read found, unless a write overlapped it. The store does not say when a value it
   * returns expires: under a `timed` prefix only absence is kept, and a present value is read from
   * the store until this process writes it.
   */
  #fill(key: string, kind: "untimed" | "timed", read: Read, value: unknown): void {
    if (!read.stale && !this.#writing.has(key) && (value === undefined || kind === "untimed")) {
      this.#remember(key, value === undefined ? undefined : JSON.stringify(value), undefined);
    }
  }

  override async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    if (this.#kind(key) === undefined) return this.inner.set(key, value, ttlMs);
    const json = JSON.stringify(value);
    const entry = this.#entries.get(key);
    // Write only what changed: the same value without a TTL is already there.
    if (ttlMs === undefined && entry !== undefined && entry.expires === undefined && entry.json === json)
      return;
    const now = Date.now();
    await this.#write(key, () => this.inner.set(key, value, ttlMs));
    // Another write of the key still under way decides what is there: leave it uncached.
    if (!this.#writing.has(key)) this.#remember(key, json, ttlMs === undefined ? undefined : now + ttlMs);
  }

  override async delete(key: string): Promise<boolean> {
    if (this.#kind(key) === undefined) return this.inner.delete(key);
    const deleted = await this.#write(key, () => this.inner.delete(key));
    if (!this.#writing.has(key)) this.#remember(key, undefined, undefined);
    return deleted;
  }

  override setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    return this.#forget(key, () => this.inner.setIfAbsent(key, value, ttlMs));
  }

  override increment(key: string, ttlMs: number): Promise<number> {
    return this.#forget(key, () => this.inner.increment(key, ttlMs));
  }

  override deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    return this.#forget(key, () => this.inner.deleteIfEquals(key, expected));
  }

  override extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    return this.#forget(key, () => this.inner.extendIfEquals(key, expected, ttlMs));
  }

  override replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    return this.#forget(key, () => this.inner.replaceIfEquals(key, expected, next));
  }

  override async setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void> {
    if (this.#kind(key) === undefined) return this.inner.setIndexed(key, value, ttlMs, entries);
    const json = JSON.stringify(value);
    const now = Date.now();
    // Always written: the index entries are not cached, so "unchanged" cannot be known here.
    await this.#write(key, () => this.inner.setIndexed(key, value, ttlMs, entries));
    if (!this.#writing.has(key)) this.#remember(key, json, ttlMs === undefined ? undefined : now + ttlMs);
  }

  override close(): Promise<void> {
    this.#entries.clear();
    this.#bytes = 0;
    return this.inner.close();
  }

  #kind(key: string): "untimed" | "timed" | undefined {
    for (const [prefix, kind] of this.#prefixes) if (key.startsWith(prefix)) return kind;
    return undefined;
  }

  /**
   * Runs a write with the key's entry dropped and reads under way marked stale (before and after:
   * a read that began during the write may have seen either value). A failed write leaves the key
   * uncached, so the next read asks the store.
   */
  async #write<T>(key: string, write: () => Promise<T>): Promise<T> {
    this.#drop(key);
    this.#markReadsStale(key);
    this.#writing.set(key, (this.#writing.get(key) ?? 0) + 1);
    try {
      return await write();
    } finally {
      const left = (this.#writing.get(key) ?? 1) - 1;
      if (left === 0) this.#writing.delete(key);
      else this.#writing.set(key, left);
      this.#markReadsStale(key);
    }
  }

  #markReadsStale(key: string): void {
    for (const read of this.#reading.get(key) ?? []) read.stale = true;
  }

  /** The atomic operations are not cached: the key's entry is dropped and the store decides. */
  #forget<T>(key: string, operation: () => Promise<T>): Promise<T> {
    if (this.#kind(key) === undefined) return operation();
    return this.#write(key, operation);
  }

  #remember(key: string, json: string | undefined, expires: number | undefined): void {
    this.#drop(key);
    const bytes = entryBytes(key, json);
    this.#entries.set(key, { json, expires, bytes });
    this.#bytes += bytes;
    // The least recently used go first (a Map iterates in insertion order; a hit re-inserts).
    while (this.#bytes > this.#maxBytes) {
      const oldest = this.#oldest();
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
  }

  /**
   * The least recently used key, by an iterator kept from one eviction to the next: a Map keeps a
   * deleted entry's slot until it grows or shrinks, and a new iterator from the start steps over
   * every slot evicted so far, so eviction cost grew with the number of users (the old cache's
   * `keys().next()`: 7 % of a /help's CPU with 12,000 users, bench/README.md). The iterator
   * survives deletions and rehashing and meets what was added since at the end.
   */
  #oldest(): string | undefined {
    let next = this.#cursor?.next();
    if (next === undefined || next.done) {
      this.#cursor = this.#entries.keys();
      next = this.#cursor.next();
    }
    return next.done ? undefined : next.value;
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
