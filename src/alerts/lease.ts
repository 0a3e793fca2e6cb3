/**
 * A lock with a lease, on the store's atomic operations only (setIfAbsent with a TTL, and
 * deleteIfEquals), so it works the same on SQLite, Redis and memory: with several instances on one
 * store, one holds the lease and runs the scheduler; if it dies, the lease runs out and another
 * instance takes over at its next try.
 *
 * - acquire: `setIfAbsent(key, holderId, ttl)`.
 * - renew: `deleteIfEquals(key, holderId)` then `setIfAbsent(key, holderId, ttl)`. Neither step can
 *   take the lease from another holder: if ours ran out and someone else took it, the delete does
 *   nothing and the set fails, and we step down. (In the instant between the two steps another
 *   instance may take it: that is a clean hand-over, never two holders.)
 * - a holder counts itself as holding only until `ttl − safety` after its last successful renewal,
 *   so a process that stalled past its lease stops before it would run beside the new holder.
 *
 * @example
 * const lease = new Lease(store, "alerts:scheduler", { ttlMs: 30_000 });
 * if (await lease.hold()) await runOneTick();
 * await lease.release();
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.ts";

export interface LeaseOptions {
  /** How long the lease lasts without renewal. */
  ttlMs: number;
  /** This holder's id (default: random). */
  holderId?: string;
  /** Time source for the holder's own view of its lease (default Date.now: TTLs in stores are real time). */
  now?: () => number;
}

export class Lease {
  readonly key: string;
  readonly holderId: string;
  readonly ttlMs: number;
  readonly #store: Store;
  readonly #now: () => number;
  #validUntil = 0;
  #renewedAt = 0;
  #pending: Promise<boolean> | undefined;

  constructor(store: Store, key: string, options: LeaseOptions) {
    this.#store = store;
    this.key = key;
    this.ttlMs = options.ttlMs;
    this.holderId = options.holderId ?? randomBytes(8).toString("hex");
    this.#now = options.now ?? Date.now;
  }

  /** Whether this holder held the lease at its last renewal and it has not run out since. */
  get held(): boolean {
    return this.#now() < this.#validUntil;
  }

  /**
   * Takes the lease if it is free, or renews it if it is ours; true while we hold it. Call it before
   * each piece of work; it renews at most once per third of the TTL.
   */
  hold(): Promise<boolean> {
    // One renewal at a time: two interleaved ones (the jobs' tick and the keep-alive timer) would
    // both delete, one set would win and the other fail, and the loser would step down from a
    // lease this very holder has.
    this.#pending ??= this.#hold().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #hold(): Promise<boolean> {
    const now = this.#now();
    if (this.held && now - this.#renewedAt < this.ttlMs / 3) return true;
    if (this.#validUntil > 0) await this.#store.deleteIfEquals(this.key, this.holderId);
    const got = await this.#store.setIfAbsent(this.key, this.holderId, this.ttlMs);
    if (!got) {
      this.#validUntil = 0;
      return false;
    }
    this.#renewedAt = now;
    this.#validUntil = now + this.ttlMs - Math.min(this.ttlMs / 3, 5_000);
    return true;
  }

  /** Gives the lease up at once (clean shutdown), so another instance need not wait for it to run out. */
  async release(): Promise<void> {
    this.#validUntil = 0;
    await this.#store.deleteIfEquals(this.key, this.holderId);
  }
}
