/**
 * A Store that hands every operation to another one: the base of the wrappers (the SQLite cache,
 * Redis's batched per-update reads), which override only what they change.
 */
import type { IndexEntry, Store } from "./store.ts";

export class DelegatingStore implements Store {
  protected readonly inner: Store;

  constructor(inner: Store) {
    this.inner = inner;
  }

  get<T>(key: string): Promise<T | undefined> {
    return this.inner.get<T>(key);
  }

  getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return this.inner.getMany<T>(keys);
  }

  set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    return this.inner.set(key, value, ttlMs);
  }

  delete(key: string): Promise<boolean> {
    return this.inner.delete(key);
  }

  setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined> {
    return this.inner.setIfAbsentThenGetMany<T>(key, value, ttlMs, keys);
  }

  setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    return this.inner.setIfAbsent(key, value, ttlMs);
  }

  increment(key: string, ttlMs: number): Promise<number> {
    return this.inner.increment(key, ttlMs);
  }

  deleteIfEquals(key: string, expected: unknown): Promise<boolean> {
    return this.inner.deleteIfEquals(key, expected);
  }

  extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean> {
    return this.inner.extendIfEquals(key, expected, ttlMs);
  }

  replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean> {
    return this.inner.replaceIfEquals(key, expected, next);
  }

  keys(prefix: string): Promise<string[]> {
    return this.inner.keys(prefix);
  }

  setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void> {
    return this.inner.setIndexed(key, value, ttlMs, entries);
  }

  addToIndex(index: string, member: string): Promise<void> {
    return this.inner.addToIndex(index, member);
  }

  indexMembers(index: string): Promise<string[]> {
    return this.inner.indexMembers(index);
  }

  unindex(index: string, member: string, key: string): Promise<boolean> {
    return this.inner.unindex(index, member, key);
  }

  purgeDeleted(): Promise<void> {
    return this.inner.purgeDeleted();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
