/**
 * A Store that counts its calls, wrapped around the real one in the bench's bot process (through
 * createServices' `wrapStore`), so a report can say how many store reads and writes an update costs.
 */
import type { Store } from "../../src/store/store.ts";

// setIfAbsentThenGetMany (a chat's lease and its reads, one round trip on Redis) is both.
export const STORE_READS = ["get", "getMany", "setIfAbsentThenGetMany", "keys", "indexMembers"] as const;
export const STORE_WRITES = [
  "set",
  "delete",
  "setIfAbsent",
  "setIfAbsentThenGetMany",
  "increment",
  "deleteIfEquals",
  "extendIfEquals",
  "replaceIfEquals",
  "setIndexed",
  "addToIndex",
  "unindex",
] as const;
export type StoreOp = (typeof STORE_READS)[number] | (typeof STORE_WRITES)[number];

export class CountingStore implements Store {
  readonly counts: Record<StoreOp, number> = {
    get: 0,
    getMany: 0,
    keys: 0,
    set: 0,
    delete: 0,
    setIfAbsent: 0,
    setIfAbsentThenGetMany: 0,
    increment: 0,
    deleteIfEquals: 0,
    extendIfEquals: 0,
    replaceIfEquals: 0,
    indexMembers: 0,
    setIndexed: 0,
    addToIndex: 0,
    unindex: 0,
  };
  readonly #inner: Store;

  constructor(inner: Store) {
    this.#inner = inner;
  }

  get<T>(key: string): Promise<T | undefined> {
    this.counts.get++;
    return this.#inner.get<T>(key);
  }
  getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    this.counts.getMany++;
    return this.#inner.getMany<T>(keys);
  }
  set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.counts.set++;
    return this.#inner.set(key, value, ttlMs);
  }
  delete(key: string): Promise<boolean> {
    this.counts.delete++;
    return this.#inner.delete(key);
  }
  setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    this.counts.setIfAbsent++;
    return this.#inner.setIfAbsent(key, value, ttlMs);
  }
  setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined> {
    this.counts.setIfAbsentThenGetMany++;
    return this.#inner.setIfAbsentThenGetMany<T>(key, value, ttlMs, keys);
  }
  increment(key: string, ttlMs: number): Promise<number> {
    this.counts.increment++;
    return this.#inner.increment(key, ttlMs);
  }
  deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    this.counts.deleteIfEquals++;
    return this.#inner.deleteIfEquals(key, expected);
  }
  extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    this.counts.extendIfEquals++;
    return this.#inner.extendIfEquals(key, expected, ttlMs);
  }
  replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    this.counts.replaceIfEquals++;
    return this.#inner.replaceIfEquals(key, expected, next);
  }
  keys(prefix: string): Promise<string[]> {
    this.counts.keys++;
    return this.#inner.keys(prefix);
  }
  setIndexed(...args: Parameters<Store["setIndexed"]>): Promise<void> {
    this.counts.setIndexed++;
    return this.#inner.setIndexed(...args);
  }
  addToIndex(index: string, member: string): Promise<void> {
    this.counts.addToIndex++;
    return this.#inner.addToIndex(index, member);
  }
  indexMembers(index: string): Promise<string[]> {
    this.counts.indexMembers++;
    return this.#inner.indexMembers(index);
  }
  unindex(index: string, member: string, key: string): Promise<boolean> {
    this.counts.unindex++;
    return this.#inner.unindex(index, member, key);
  }
  purgeDeleted(): Promise<void> {
    return this.#inner.purgeDeleted();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
