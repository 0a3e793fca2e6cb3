/**
 * One round trip for a chat's per-update reads, on a store where each round trip costs (Redis).
 * An update of a private chat reads, one after the other, the grammY session, the conversation
 * state, the alerts pause, the open-orders flag and (for account commands) the login record: each
 * a round trip. Inside `scope()` the first read of one of these keys reads all of them for that
 * id at once (`getMany`: one MGET) and the others are then answered from what it read, until this
 * update writes one of them (a write drops its entry: the next read asks the store).
 *
 * The scope is opened after the chat lock is held (bot.ts), so what is read at once is what the
 * chat's previous update left; outside a scope (the jobs, the Mini App) every read goes to the
 * store. Nothing else changes: writes and the atomic operations go straight through.
 *
 * @example
 * const reads = updateReads(store, { prefixes: ["session:", "conversation:"] });
 * bot.use((ctx, next) => reads.scope(next)); // after the chat lock
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DelegatingStore } from "./delegating.ts";
import type { IndexEntry, Store } from "./store.ts";

export interface UpdateReads {
  /** The store to use everywhere: reads inside a scope are batched, everything else passes. */
  store: Store;
  /** Runs `fn` (the rest of one update) with batched reads. */
  scope<T>(fn: () => Promise<T>): Promise<T>;
}

interface Scope {
  /** Values read at once, by key; a key written in this scope is no longer here. */
  values: Map<string, Promise<unknown>>;
  /** Ids whose keys were read at once already. */
  fetched: Set<string>;
  /** Keys this update wrote: never answered from a batch (one read at once may have raced the write). */
  written: Set<string>;
}

export function updateReads(inner: Store, options: { prefixes: readonly string[] }): UpdateReads {
  const scopes = new AsyncLocalStorage<Scope>();
  const store = new BatchedReads(inner, options.prefixes, scopes);
  return {
    store,
    scope: (fn) => scopes.run({ values: new Map(), fetched: new Set(), written: new Set() }, fn),
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
    // Callers change what they get: each read gets its own copy.
    return structuredClone((await read) as T | undefined);
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
