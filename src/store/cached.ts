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
  /** Most entries kept; the least recently used go first. */
  maxEntries?: number;
}

interface Entry {
  /** The value's JSON (a fresh copy on each read: callers mutate what they get), or absent. */
  json: string | undefined;
  /** Date.now() after which the store no longer has it (the store's own expiry rule). */
  expires: number | undefined;
}

export function cachedStore(inner: Store, options: CachedStoreOptions): Store {
  return new CachedStore(inner, options);
}

class CachedStore extends DelegatingStore {
  readonly #prefixes: ReadonlyArray<[string, "untimed" | "timed"]>;
  readonly #max: number;
  readonly #entries = new Map<string, Entry>();
  /** Writes of a key under way: no read fills the cache meanwhile. */
  readonly #writing = new Map<string, number>();
  /** Reads of a key under way; a write marks them stale, so they do not fill the cache afterwards. */
  readonly #reading = new Map<string, Set<{ stale: boolean }>>();

  constructor(inner: Store, options: CachedStoreOptions) {
    super(inner);
    this.#prefixes = Object.entries(options.prefixes);
    this.#max = options.maxEntries ?? 20_000;
  }

  override async get<T>(key: string): Promise<T | undefined> {
    const kind = this.#kind(key);
    if (kind === undefined) return this.inner.get<T>(key);
    const entry = this.#entries.get(key);
    if (entry !== undefined && (entry.expires === undefined || Date.now() <= entry.expires)) {
      // Most recently used last, so the oldest is first to go.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return entry.json === undefined ? undefined : (JSON.parse(entry.json) as T);
    }
    const read = { stale: false };
    let readers = this.#reading.get(key);
    if (readers === undefined) {
      readers = new Set();
      this.#reading.set(key, readers);
    }
    readers.add(read);
    let value: T | undefined;
    try {
      value = await this.inner.get<T>(key);
    } finally {
      readers.delete(read);
      if (readers.size === 0) this.#reading.delete(key);
    }
    // The store does not say when a value it returns expires: under a `timed` prefix only absence
    // is kept, and a present value is read from the store until this process writes it.
    if (!read.stale && !this.#writing.has(key) && (value === undefined || kind === "untimed")) {
      this.#remember(key, value === undefined ? undefined : JSON.stringify(value), undefined);
    }
    return value;
  }

  /** Each key as `get` reads it: cached keys from memory, the rest from the store. */
  override getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return Promise.all(keys.map((key) => this.get<T>(key)));
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
    this.#entries.delete(key);
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
    this.#entries.delete(key);
    this.#entries.set(key, { json, expires });
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}
