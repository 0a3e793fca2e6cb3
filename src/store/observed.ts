/**
 * A Store that tells an observer of each operation it passes on: its name, how long it took and
 * whether it failed. services.ts puts it right around the backend, under the in-process cache
 * (store/cached.ts), so what it sees are real round trips to SQLite or Redis (metrics).
 *
 * @example
 * const store = observedStore(await openStore(url), (op, seconds, failed) => metrics.storeCall(op, seconds, failed));
 */
import type { Store } from "./store.ts";

export type StoreOperation =
  | "get"
  | "set"
  | "delete"
  | "setIfAbsent"
  | "extendIfEquals"
  | "replaceIfEquals"
  | "increment"
  | "deleteIfEquals"
  | "keys"
  | "purgeDeleted";

export type StoreObserver = (op: StoreOperation, seconds: number, failed: boolean) => void;

export function observedStore(inner: Store, observe: StoreObserver): Store {
  // `started` comes before `call` among the arguments, so the call's synchronous part is timed too.
  async function timed<T>(op: StoreOperation, started: number, call: Promise<T>): Promise<T> {
    try {
      const result = await call;
      observe(op, (performance.now() - started) / 1000, false);
      return result;
    } catch (error) {
      observe(op, (performance.now() - started) / 1000, true);
      throw error;
    }
  }
  return {
    get: <T>(key: string) => timed("get", performance.now(), inner.get<T>(key)),
    set: (key, value, ttlMs) => timed("set", performance.now(), inner.set(key, value, ttlMs)),
    delete: (key) => timed("delete", performance.now(), inner.delete(key)),
    setIfAbsent: (key, value, ttlMs) =>
      timed("setIfAbsent", performance.now(), inner.setIfAbsent(key, value, ttlMs)),
    increment: (key, ttlMs) => timed("increment", performance.now(), inner.increment(key, ttlMs)),
    deleteIfEquals: (key, expected) =>
      timed("deleteIfEquals", performance.now(), inner.deleteIfEquals(key, expected)),
    extendIfEquals: (key, expected, ttlMs) =>
      timed("extendIfEquals", performance.now(), inner.extendIfEquals(key, expected, ttlMs)),
    replaceIfEquals: (key, expected, next) =>
      timed("replaceIfEquals", performance.now(), inner.replaceIfEquals(key, expected, next)),
    keys: (prefix) => timed("keys", performance.now(), inner.keys(prefix)),
    purgeDeleted: () => timed("purgeDeleted", performance.now(), inner.purgeDeleted()),
    close: () => inner.close(),
  };
}
