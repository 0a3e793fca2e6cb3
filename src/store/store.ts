/**
 * The store port: the one small interface every other module uses for state that must outlive an
 * update (sessions, conversations, exactly-once guards, failed-login counters, alerts, pending orders).
 * `openStore(url)` (open-store.ts) picks the backend; the backends implement this port, so the port
 * imports none of them.
 */

/**
 * A key-value store with TTLs and the few atomic operations money and login safety stand on.
 * Values are JSON-like (objects, arrays, strings, numbers, booleans, null); they come back as JSON
 * would give them (a `Date` comes back as a string). Every operation rejects when the backend fails:
 * the store fails closed, it never pretends a write happened.
 *
 * @example
 * const store = await openStore("memory://"); // open-store.ts
 * await store.set("alert:42:1", { pair: "btceur", above: "60000" });
 * const alert = await store.get<{ pair: string; above: string }>("alert:42:1");
 */
export interface Store {
  /** The value, or `undefined` when the key is absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /**
   * The values of several keys in one round trip (MGET on Redis), each as `get` would give it:
   * the per-update reads of a chat (store/update-reads.ts).
   */
  getMany<T>(keys: readonly string[]): Promise<Array<T | undefined>>;
  /** Sets the value; with `ttlMs` (> 0) it expires that many milliseconds from now. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /** Deletes the key; true when something was deleted. */
  delete(key: string): Promise<boolean>;
  /**
   * Atomic across processes and instances: sets the key only if it is absent (or expired); true when
   * this call set it. The exactly-once guard for money actions (one Confirm = one order) stands on this.
   */
  setIfAbsent(key: string, value: unknown, ttlMs?: number): Promise<boolean>;
  /**
   * setIfAbsent with a TTL and, only when it set the key, the values of `keys` as getMany gives
   * them, read after the set: in one round trip on Redis (a script). Undefined when the key was
   * there. A chat's lease and the chat's per-update reads (bot/middleware/chat-lock.ts).
   */
  setIfAbsentThenGetMany<T>(
    key: string,
    value: unknown,
    ttlMs: number,
    keys: readonly string[],
  ): Promise<Array<T | undefined> | undefined>;
  /**
   * Atomic increment of an integer counter with a TTL set when the counter is created (failed-login
   * limits). Returns the new value. An expired counter starts again at 1 with a fresh TTL.
   */
  increment(key: string, ttlMs: number): Promise<number>;
  /**
   * Atomic compare-and-delete: deletes only if the current value equals `expected` (lock release).
   * Equality is deep equality of the JSON forms.
   */
  deleteIfEquals(key: string, expected: unknown): Promise<boolean>;
  /**
   * Atomic compare-and-extend: when the live value equals `expected` (as deleteIfEquals compares),
   * its TTL starts again at `ttlMs` from now and the call returns true; otherwise nothing changes
   * (lease renewal: only the holder extends its lease, and never one that ran out).
   */
  extendIfEquals(key: string, expected: unknown, ttlMs: number): Promise<boolean>;
  /**
   * Atomic compare-and-set: replaces the value only if the current one equals `expected` (deep
   * equality of the JSON forms), keeping the key's expiry as it was; true when it replaced. How a
   * chore running beside the bot (re-sealing under a new key) changes a value without clobbering
   * a write the bot made meanwhile.
   */
  replaceIfEquals(key: string, expected: unknown, next: unknown): Promise<boolean>;
  /**
   * Live keys starting with a prefix, sorted. On Redis a SCAN over the whole keyspace: never on the
   * jobs' tick or per update (those read an index, below); for the one-time indexing of records
   * written before indexes existed, and tools.
   */
  keys(prefix: string): Promise<string[]>;
  /**
   * Indexes: named sets of members kept beside the records, so a listing reads what it lists
   * instead of the keyspace (on Redis a set, on SQLite and memory rows under their own key range).
   * Writes the value like `set` and adds each entry's member to its index in the same atomic step,
   * so a live record is never missing from its index. Deleting a record does not touch indexes:
   * the member stays until `unindex` (a reader that finds the record gone calls it).
   */
  setIndexed(
    key: string,
    value: unknown,
    ttlMs: number | undefined,
    entries: readonly IndexEntry[],
  ): Promise<void>;
  /** Adds a member without writing a record (indexing a record written before its index existed). */
  addToIndex(index: string, member: string): Promise<void>;
  /** The members of an index, sorted; some may name records that are gone (expired, deleted). */
  indexMembers(index: string): Promise<string[]>;
  /**
   * Removes `member` from `index` unless `key` holds a live value, atomically: a record written
   * meanwhile by `setIndexed` keeps its member. True when it removed it.
   */
  unindex(index: string, member: string, key: string): Promise<boolean>;
  /**
   * Makes what was deleted so far unrecoverable from the backend's files, not only from its live
   * data (SECURITY.md, Reliability: what the bot deletes stays deleted). SQLite overwrites freed
   * bytes (secure_delete) but keeps older copies of pages in its write-ahead log until a checkpoint:
   * this checkpoints and empties the log. Nothing to do for Redis and memory.
   */
  purgeDeleted(): Promise<void>;
  /** Releases the connection; idempotent. Every later operation rejects. */
  close(): Promise<void>;
}

/** One member of one index, written with a record by `Store.setIndexed`. */
export interface IndexEntry {
  /** Letters, digits, `:`, `_` and `-`, e.g. `"auth"` or `"alerts:42"`. */
  index: string;
  /** Non-empty, e.g. a user id or `"42:abc"`. */
  member: string;
}
