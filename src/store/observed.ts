/**
 * A Store that tells an observer of each operation it passes on: its name, how long it took and
 * whether it failed. services.ts puts it right around the backend, under the in-process cache
 * (store/cached.ts), so what it sees are real round trips to SQLite or Redis (metrics).
 *
 * @example
 * const store = observedStore(await openStore(url), (op, seconds, failed) => metrics.storeCall(op, seconds, failed));
 */
import { DelegatingStore } from "./delegating.ts";
import type { IndexEntry, Store } from "./store.ts";

export type StoreOperation =
  | "get"
  | "set"
  | "delete"
  | "setIfAbsent"
  | "setIfAbsentThenGetMany"
  | "getMany"
  | "setIndexed"
  | "addToIndex"
  | "indexMembers"
  | "unindex"
  | "extendIfEquals"
  | "replaceIfEquals"
  | "increment"
  | "deleteIfEquals"
  | "keys"
  | "purgeDeleted";

export type StoreObserver = (op: StoreOperation, seconds: number, failed: boolean) => void;

export function observedStore(inner: Store, observe: StoreObserver): Store {
  return new ObservedStore(inner, observe);
}

class ObservedStore extends DelegatingStore {
  readonly #observe: StoreObserver;

  constructor(inner: Store, observe: StoreObserver) {
    super(inner);
    this.#observe = observe;
  }

  // `started` comes before `call` among the arguments, so the call's synchronous part is timed too.
  async #timed<T>(op: StoreOperation, started: number, call: Promise<T>): Promise<T> {
    try {
      const result = await call;
      this.#observe(op, (performance.now() - started) / 1000, false);
      return result;
    } catch (error) {
      this.#observe(op, (performance.now() - started) / 1000, true);
      throw error;
    }
  }

  override get<T>(key: string): Promise<T | undefined> {
    return this.#timed("get", performance.now(), this.inner.get<T>(key));
  }
  override getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return this.#timed("getMany", performance.now(), this.inner.getMany<T>(keys));
  }
  override set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    return this.#timed("set", performance.now(), this.inner.set(key, value, ttlMs));
  }
  override delete(key: string): Promise<boolean> {
    return this.#timed("delete", performance.now(), this.inner.delete(key));
  }
  override setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    return this.#timed("setIfAbsent", performance.now(), this.inner.setIfAbsent(key, value, ttlMs));
  }
  override setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined> {
    return this.#timed(
      "setIfAbsentThenGetMany",
      performance.now(),
      this.inner.setIfAbsentThenGetMany<T>(key, value, ttlMs, keys),
    );
  }
  override increment(key: string, ttlMs: number): Promise<number> {
    return this.#timed("increment", performance.now(), this.inner.increment(key, ttlMs));
  }
  override deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    return this.#timed("deleteIfEquals", performance.now(), this.inner.deleteIfEquals(key, expected));
  }
  override extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    return this.#timed("extendIfEquals", performance.now(), this.inner.extendIfEquals(key, expected, ttlMs));
  }
  override replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    return this.#timed("replaceIfEquals", performance.now(), this.inner.replaceIfEquals(key, expected, next));
  }
  override keys(prefix: string): Promise<string[]> {
    return this.#timed("keys", performance.now(), this.inner.keys(prefix));
  }
  override setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void> {
    return this.#timed("setIndexed", performance.now(), this.inner.setIndexed(key, value, ttlMs, entries));
  }
  override addToIndex(index: string, member: string): Promise<void> {
    return this.#timed("addToIndex", performance.now(), this.inner.addToIndex(index, member));
  }
  override indexMembers(index: string): Promise<string[]> {
    return this.#timed("indexMembers", performance.now(), this.inner.indexMembers(index));
  }
  override unindex(index: string, member: string, key: string): Promise<boolean> {
    return this.#timed("unindex", performance.now(), this.inner.unindex(index, member, key));
  }
  override purgeDeleted(): Promise<void> {
    return this.#timed("purgeDeleted", performance.now(), this.inner.purgeDeleted());
  }
}
