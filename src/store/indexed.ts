/**
 * Reading records through an index, and indexing records written before the index existed.
 * An index may name records that are gone (expired by TTL, or deleted by a writer that stopped
 * before it unindexed them): a reader drops those members as it meets them, so a listing costs
 * what is listed, not what the keyspace holds.
 *
 * @example
 * const sessions = await readIndexed<AuthRecord>(store, "auth", (id) => `auth:${id}`);
 */
import type { IndexEntry, Store } from "./store.ts";

/** Records read at once (on Redis, concurrent reads go out in one pipeline). */
const CHUNK = 500;

/**
 * The live records of an index's members, in member order, as `[member, value]`. Members whose
 * record is gone are removed from the index (only if the record is still gone at that moment).
 */
export async function readIndexed<T>(
  store: Store,
  index: string,
  keyOf: (member: string) => string,
): Promise<Array<[member: string, value: T]>> {
  const members = await store.indexMembers(index);
  const found: Array<[string, T]> = [];
  for (let i = 0; i < members.length; i += CHUNK) {
    const chunk = members.slice(i, i + CHUNK);
    const values = await Promise.all(chunk.map((member) => store.get<T>(keyOf(member))));
    const gone: Promise<boolean>[] = [];
    chunk.forEach((member, j) => {
      const value = values[j];
      if (value === undefined) gone.push(store.unindex(index, member, keyOf(member)));
      else found.push([member, value]);
    });
    await Promise.all(gone);
  }
  return found;
}

/**
 * Adds every live key under `prefix` to the indexes `entriesOf` names for it (records written by a
 * version that kept no index). One key listing: on Redis a SCAN of the whole keyspace, so it runs
 * when an instance becomes the jobs leader, never per tick. Returns how many keys it indexed.
 */
export async function indexExistingKeys(
  store: Store,
  prefix: string,
  entriesOf: (key: string) => readonly IndexEntry[],
): Promise<number> {
  const keys = await store.keys(prefix);
  for (let i = 0; i < keys.length; i += CHUNK) {
    const adds = keys
      .slice(i, i + CHUNK)
      .flatMap((key) => entriesOf(key).map(({ index, member }) => store.addToIndex(index, member)));
    await Promise.all(adds);
  }
  return keys.length;
}
