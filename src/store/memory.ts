/**
 * An in-process store with the same semantics as SQLite and Redis, for unit tests of other modules.
 * Keyv runs over a plain Map of serialized strings, so values make the same JSON round trip as in
 * production; each atomic operation is one synchronous step on the Map, which makes it atomic in a
 * single-threaded process.
 */
import { Keyv } from "keyv";
import { StoreError } from "./errors.ts";
import { type AtomicBackend, KeyvStore } from "./keyv-store.ts";
import type { Store } from "./store.ts";

const INDEX_ROW_VALUE = '{"value":1}';

/** Named maps, so two stores opened as `memory://shared` see the same data (two "instances" in a test). */
const shared = new Map<string, Map<string, string>>();

/**
 * Opens an in-memory store: `name` empty gives a private map, any other name a map shared by every
 * store opened with that name in this process.
 *
 * @example
 * const a = await openMemoryStore("two-bots", { namespace: "bot" });
 * const b = await openMemoryStore("two-bots", { namespace: "bot" });
 * await a.setIfAbsent("confirm:n1", 1); // true
 * await b.setIfAbsent("confirm:n1", 1); // false
 */
export async function openMemoryStore(name: string, options: { namespace: string }): Promise<Store> {
  let map = name === "" ? undefined : shared.get(name);
  if (!map) {
    map = new Map<string, string>();
    if (name !== "") shared.set(name, map);
  }
  const keyv = new Keyv({ store: map, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  const deserialize = keyv.deserialize;
  if (!deserialize) throw new StoreError("The Keyv deserializer is missing.");
  const data = map;
  // The Map holds only strings made by Keyv's serializer: read them back the same way.
  const read = (raw: string) => deserialize(raw) as { value?: unknown; expires?: number | null } | undefined;
  const live = (rawKey: string, now: number) => {
    const raw = data.get(rawKey);
    if (raw === undefined) return undefined;
    const entry = read(raw);
    if (!entry || (typeof entry.expires === "number" && now > entry.expires)) return undefined;
    return entry;
  };
  const serialize = keyv.serialize;
  if (!serialize) throw new StoreError("The Keyv serializer is missing.");

  const atomic: AtomicBackend = {
    async insertIfAbsent(rawKey, raw, now) {
      if (live(rawKey, now)) return false;
      data.set(rawKey, raw);
      return true;
    },
    async increment(rawKey, initialRaw, now) {
      const entry = live(rawKey, now);
      if (!entry) {
        data.set(rawKey, initialRaw);
        return 1;
      }
      if (!Number.isSafeInteger(entry.value)) {
        throw new StoreError("increment: the value at this key is not a counter.");
      }
      const count = (entry.value as number) + 1;
      // The serializer is synchronous for Keyv's default; anything else would break atomicity here.
      const raw = serialize({ value: count, expires: entry.expires ?? undefined });
      if (typeof raw !== "string") throw new StoreError("The memory store needs a synchronous serializer.");
      data.set(rawKey, raw);
      return count;
    },
    async getRaw(rawKey) {
      return data.get(rawKey);
    },
    async getManyRaw(rawKeys) {
      return rawKeys.map((key) => data.get(key));
    },
    async deleteIfRaw(rawKey, raw) {
      if (data.get(rawKey) !== raw) return false;
      return data.delete(rawKey);
    },
    async replaceIfRaw(rawKey, raw, newRaw) {
      if (data.get(rawKey) !== raw) return false;
      data.set(rawKey, newRaw);
      return true;
    },
    async scan(rawPrefix) {
      return [...data].filter(([key]) => key.startsWith(rawPrefix));
    },
    // Index rows in the same map, as SQLite keeps them in its table (`bot:#index:NAME|MEMBER`).
    async setIndexed(rawKey, raw, _ttlMs, entries) {
      data.set(rawKey, raw);
      for (const [rawIndex, member] of entries) data.set(`${rawIndex}|${member}`, INDEX_ROW_VALUE);
    },
    async indexAdd(rawIndex, member) {
      data.set(`${rawIndex}|${member}`, INDEX_ROW_VALUE);
    },
    async indexMembers(rawIndex) {
      const start = `${rawIndex}|`;
      return [...data.keys()].filter((key) => key.startsWith(start)).map((key) => key.slice(start.length));
    },
    async indexRemoveUnlessLive(rawIndex, member, rawKey, now) {
      if (live(rawKey, now)) return false;
      return data.delete(`${rawIndex}|${member}`);
    },
  };
  const keyPrefix = `${options.namespace}:`;
  return new KeyvStore({
    keyv,
    atomic,
    keyPrefix,
    indexPrefix: `${keyPrefix}#index:`,
    close: async () => {},
  });
}
