/**
 * A Store that counts its calls, wrapped around the real one in the bench's bot process (through
 * createServices' `wrapStore`), so a report can say how many store reads and writes an update costs.
 */
import { DelegatingStore } from "../../src/store/delegating.ts";
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

/** Counts each operation, then hands it on as every DelegatingStore does. */
export class CountingStore extends DelegatingStore {
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

  override get<T>(key: string): Promise<T | undefined> {
    this.counts.get++;
    return super.get<T>(key);
  }
  override getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    this.counts.getMany++;
    return super.getMany<T>(keys);
  }
  override set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.counts.set++;
    return super.set(key, value, ttlMs);
  }
  override delete(key: string): Promise<boolean> {
    this.counts.delete++;
    return super.delete(key);
  }
  override setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    this.counts.setIfAbsent++;
    return super.setIfAbsent(key, value, ttlMs);
  }
  override setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined> {
    this.counts.setIfAbsentThenGetMany++;
    return super.setIfAbsentThenGetMany<T>(key, value, ttlMs, keys);
  }
  override increment(key: string, ttlMs: number): Promise<number> {
    this.counts.increment++;
    return super.increment(key, ttlMs);
  }
  override deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    this.counts.deleteIfEquals++;
    return super.deleteIfEquals(key, expected);
  }
  override extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    this.counts.extendIfEquals++;
    return super.extendIfEquals(key, expected, ttlMs);
  }
  override replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    this.counts.replaceIfEquals++;
    return super.replaceIfEquals(key, expected, next);
  }
  override keys(prefix: string): Promise<string[]> {
    this.counts.keys++;
    return super.keys(prefix);
  }
  override setIndexed(...args: Parameters<Store["setIndexed"]>): Promise<void> {
    this.counts.setIndexed++;
    return super.setIndexed(...args);
  }
  override addToIndex(index: string, member: string): Promise<void> {
    this.counts.addToIndex++;
    return super.addToIndex(index, member);
  }
  override indexMembers(index: string): Promise<string[]> {
    this.counts.indexMembers++;
    return super.indexMembers(index);
  }
  override unindex(index: string, member: string, key: string): Promise<boolean> {
    this.counts.unindex++;
    return super.unindex(index, member, key);
  }
}
