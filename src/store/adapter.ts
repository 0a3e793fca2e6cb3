/**
 * grammY's storage port over our Store: sessions and conversations live in the same SQLite file or
 * Redis as everything else, under their own key prefix.
 */
import type { StorageAdapter } from "grammy";
import type { Store } from "./store.ts";

/** Options of {@link storageAdapter}. */
export interface StorageAdapterOptions {
  /** Entries expire this long after their last write (idle sessions clean themselves up). */
  ttlMs?: number;
}

/**
 * A grammY `StorageAdapter<T>` that keeps each value at `prefix + key` in `store`. `readAllKeys`
 * lists the keys without the prefix, so grammY tools that walk every session work too.
 *
 * @example
 * bot.use(session({ initial: () => ({}), storage: storageAdapter<SessionData>(store, "session:") }));
 */
export function storageAdapter<T>(
  store: Store,
  prefix: string,
  options: StorageAdapterOptions = {},
): StorageAdapter<T> {
  return {
    read: (key) => store.get<T>(prefix + key),
    write: (key, value) => store.set(prefix + key, value, options.ttlMs),
    delete: async (key) => {
      await store.delete(prefix + key);
    },
    has: async (key) => (await store.get(prefix + key)) !== undefined,
    readAllKeys: async function* () {
      for (const key of await store.keys(prefix)) yield key.slice(prefix.length);
    },
  };
}
