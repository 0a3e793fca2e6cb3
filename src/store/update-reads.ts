/**
 * One round trip for a chat's per-update reads: on Redis one MGET (or the lease's script), on
 * SQLite one statement for the keys its cache (store/cached.ts) does not hold.
 * An update of a private chat reads, one after the other, the grammY session, the conversation
 * state, the alerts pause, the open-orders flag and (for account commands) the login record: each
 * a round trip. Inside `scope()` the first read of one of these keys reads all of them for that
 * id at once (`getMany`: one MGET) and the others are then answered from what it read, until this
 * update writes one of them (a write drops its entry: the next read asks the store).
 *
 * The scope is opened once the chat lock is held, so what is read at once is what the chat's
 * previous update left. The lock reads these keys in the round trip that takes it
 * (`setIfAbsentThenGetMany`, bot/middleware/chat-lock.ts) and opens the scope with them; without
 * the lock the first read in the scope fetches them. Outside a scope (the jobs, the Mini App)
 * every read goes to the store. Nothing else changes: writes and the atomic operations go straight
 * through.
 *
 * @example
 * const reads = updateReads(store, { prefixes: ["session:", "conversation:"] });
 * const values = await reads.store.setIfAbsentThenGetMany("chat-lock:42", holder, 30_000, reads.keysFor("42"));
 * await reads.scope(next, values && { id: "42", values });
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DelegatingStore } from "./delegating.ts";
import type { IndexEntry, Store } from "./store.ts";

/** What the chat lock needs to read a chat's keys with its lease and hand them to the update. */
export interface ChatReads {
  /** The keys read at once for one id (a chat), in the order of `values` below. */
  keysFor(id: string): string[];
  /** Runs `fn` (the rest of one update) with batched reads; `read`: the id's keys, read already. */
  scope<T>(fn: () => Promise<T>, read?: { id: string; values: readonly unknown[] }): Promise<T>;
}

export interface UpdateReads extends ChatReads {
  /** The store to use everywhere: reads inside a scope are batched, everything else passes. */
  store: Store;
}

/** One id's keys (`session:42`, `conversation:42`, …) in one update. */
interface Batch {
  id: string;
  /**
   * What the store gave, in the order of the prefixes: undefined until read, a promise while it is
   * read, null when that read failed (each key then asks the store: a failed read is not kept).
   */
  values: readonly unknown[] | Promise<readonly unknown[]> | null | undefined;
  /** Bit i set: the key of prefix i was written in this update (read from the store from then on). */
  written: number;
}

/** An update's batches: nearly always one, its chat's (no Map or Set per update). */
interface Scope {
  batches: Batch[];
}

export function updateReads(inner: Store, options: { prefixes: readonly string[] }): UpdateReads {
  const scopes = new AsyncLocalStorage<Scope>();
  const { prefixes } = options;
  // One bit per prefix in Batch.written.
  if (prefixes.length > 31) throw new RangeError("updateReads takes at most 31 prefixes.");
  const store = new BatchedReads(inner, prefixes, scopes);
  return {
    store,
    keysFor: (id) => prefixes.map((prefix) => prefix + id),
    scope: (fn, read) =>
      scopes.run({ batches: read ? [{ id: read.id, values: read.values, written: 0 }] : [] }, fn),
  };
}

class BatchedReads extends DelegatingStore {
  readonly #prefixes: readonly string[];
  readonly #scopes: AsyncLocalStorage<Scope>;

  constructor(inner: Store, prefixes: readonly string[], scopes: AsyncLocalStorage<Scope>) {
    super(inner);
    this.#prefixes = prefixes;
    this.#scopes = scopes;
  }

  override async get<T>(key: string): Promise<T | undefined> {
    const scope = this.#scopes.getStore();
    const index = scope === undefined ? -1 : this.#prefixIndex(key);
    if (scope === undefined || index < 0) return this.inner.get<T>(key);
    const bit = 1 << index;
    const batch = this.#batch(scope, key, index);
    if (batch.written & bit) return this.inner.get<T>(key);
    if (batch.values === undefined) {
      const pending = this.inner.getMany(this.#prefixes.map((prefix) => prefix + batch.id));
      batch.values = pending;
      pending.then(
        (values) => {
          if (batch.values === pending) batch.values = values;
        },
        () => {
          if (batch.values === pending) batch.values = null;
        },
      );
    }
    if (batch.values === null) return this.inner.get<T>(key);
    // A rejected read rejects here: the caller sees the failure.
    const values = batch.values instanceof Promise ? await batch.values : batch.values;
    // Written while the batch was on its way: what was read may be older than the write.
    if (batch.written & bit) return this.inner.get<T>(key);
    const value = values[index];
    // Callers change what they get: each read gets its own copy (absent and plain values need none).
    // Through JSON, as the SQLite cache copies (store/cached.ts): the store's values are JSON-like,
    // and this costs half of structuredClone's time and little of its garbage.
    return (typeof value === "object" && value !== null ? JSON.parse(JSON.stringify(value)) : value) as
      | T
      | undefined;
  }

  override getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return Promise.all(keys.map((key) => this.get<T>(key)));
  }

  override set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.#written(key);
    return this.inner.set(key, value, ttlMs);
  }

  override delete(key: string): Promise<boolean> {
    this.#written(key);
    return this.inner.delete(key);
  }

  override setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    this.#written(key);
    return this.inner.setIfAbsent(key, value, ttlMs);
  }

  override increment(key: string, ttlMs: number): Promise<number> {
    this.#written(key);
    return this.inner.increment(key, ttlMs);
  }

  override deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    this.#written(key);
    return this.inner.deleteIfEquals(key, expected);
  }

  override setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void> {
    this.#written(key);
    return this.inner.setIndexed(key, value, ttlMs, entries);
  }

  /** Which prefix a per-chat key has (`session:42` → the index of "session:"), or -1 for any other key. */
  #prefixIndex(key: string): number {
    for (let i = 0; i < this.#prefixes.length; i++) {
      const prefix = this.#prefixes[i] as string;
      if (key.length > prefix.length && key.startsWith(prefix)) return i;
    }
    return -1;
  }

  /** The scope's batch for the id of `key` (whose prefix is prefixes[index]), added when new. */
  #batch(scope: Scope, key: string, index: number): Batch {
    const idLength = key.length - (this.#prefixes[index] as string).length;
    for (const batch of scope.batches) {
      if (batch.id.length === idLength && key.endsWith(batch.id)) return batch;
    }
    const batch: Batch = { id: key.slice(key.length - idLength), values: undefined, written: 0 };
    scope.batches.push(batch);
    return batch;
  }

  /** What this update writes is read from the store afterwards, never from the batch. */
  #written(key: string): void {
    const scope = this.#scopes.getStore();
    if (scope === undefined) return;
    const index = this.#prefixIndex(key);
    if (index >= 0) this.#batch(scope, key, index).written |= 1 << index;
  }
}
