/**
 * One round trip for a chat's per-update reads, on a store where each round trip costs (Redis).
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

interface Scope {
  /** Values read at once, by key; a key written in this scope is no longer here. */
  values: Map<string, Promise<unknown> | Read>;
  /** Ids whose keys were read at once already. */
  fetched: Set<string>;
  /** Keys this update wrote: never answered from a batch (one read at once may have raced the write). */
  written: Set<string>;
}

/** A value read already (a Promise's resolution would cost a promise per key). */
class Read {
  readonly value: unknown;
  constructor(value: unknown) {
    this.value = value;
  }
}

export function updateReads(inner: Store, options: { prefixes: readonly string[] }): UpdateReads {
  const scopes = new AsyncLocalStorage<Scope>();
  const { prefixes } = options;
  const store = new BatchedReads(inner, prefixes, scopes);
  return {
    store,
    keysFor: (id) => prefixes.map((prefix) => prefix + id),
    scope: (fn, read) => {
      const scope: Scope = { values: new Map(), fetched: new Set(), written: new Set() };
      if (read) {
        scope.fetched.add(read.id);
        for (const [i, prefix] of prefixes.entries()) {
          scope.values.set(prefix + read.id, new Read(read.values[i]));
        }
      }
      return scopes.run(scope, fn);
    },
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
    if (scope === undefined || scope.written.has(key)) return this.inner.get<T>(key);
    const id = this.#idOf(key);
    if (id !== undefined && !scope.fetched.has(id)) {
      scope.fetched.add(id);
      const keys = this.#prefixes.map((prefix) => prefix + id);
      const all = this.inner.getMany(keys);
      keys.forEach((k, i) => {
        if (scope.written.has(k)) return;
        const value = all.then((values) => values[i]);
        // A failed read is not kept: the caller sees the failure, a later read asks again.
        value.catch(() => scope.values.delete(k));
        scope.values.set(k, value);
      });
    }
    const read = scope.values.get(key);
    if (read === undefined) return this.inner.get<T>(key);
    const value = read instanceof Read ? read.value : await read;
    // Callers change what they get: each read gets its own copy (absent and plain values need none).
    return (typeof value === "object" && value !== null ? structuredClone(value) : value) as T | undefined;
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

  /** The id a per-chat key is for (`session:42` → "42"), or undefined for any other key. */
  #idOf(key: string): string | undefined {
    for (const prefix of this.#prefixes) {
      if (key.startsWith(prefix) && key.length > prefix.length) return key.slice(prefix.length);
    }
    return undefined;
  }

  /** What this update writes is read from the store afterwards, never from the batch. */
  #written(key: string): void {
    const scope = this.#scopes.getStore();
    if (scope === undefined) return;
    scope.written.add(key);
    scope.values.delete(key);
  }
}
