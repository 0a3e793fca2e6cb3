/**
 * Failed attempts counted per subject in the store (so the limit holds across restarts and
 * instances): after `max` failures within the window, the subject is blocked until the window
 * that began with its first failure ends.
 *
 * @example
 * const limit = new FailureLimit(store, clock, { max: 5, windowMs: 15 * 60_000, name: "login-user" });
 * if ((await limit.blockedUntil("42")) === undefined) { … if (failed) await limit.record("42"); }
 */
import type { Clock } from "../clock.ts";
import type { Store } from "../store/store.ts";

export class FailureLimit {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly max: number;
  readonly #windowMs: number;
  readonly #name: string;
  readonly #hashSubject: (subject: string) => string;

  constructor(
    store: Store,
    clock: Clock,
    options: {
      max: number;
      windowMs: number;
      name: string;
      /** Subjects that name a person (an e-mail) are kept in the store's keys only through this (a keyed hash). */
      hashSubject?: (subject: string) => string;
    },
  ) {
    this.#store = store;
    this.#clock = clock;
    this.max = options.max;
    this.#windowMs = options.windowMs;
    this.#name = options.name;
    this.#hashSubject = options.hashSubject ?? ((subject) => subject);
  }

  /** When the subject may try again, or undefined when it may now. */
  async blockedUntil(subject: string): Promise<number | undefined> {
    const failures = (await this.#store.get<number>(this.#countKey(subject))) ?? 0;
    if (failures < this.max) return undefined;
    const now = this.#clock.now();
    const until = (await this.#store.get<number>(this.#windowKey(subject))) ?? now + this.#windowMs;
    // The window ends on the injected clock too, not only by the store's TTL (which counts real time).
    return until > now ? until : undefined;
  }

  /** Counts one failure; returns how many there are in the current window. */
  async record(subject: string): Promise<number> {
    const windowEnds = await this.#store.get<number>(this.#windowKey(subject));
    if (windowEnds !== undefined && windowEnds <= this.#clock.now()) {
      // An old window (ended on the injected clock): its failures no longer count.
      await this.#store.delete(this.#countKey(subject));
      await this.#store.delete(this.#windowKey(subject));
    }
    const failures = await this.#store.increment(this.#countKey(subject), this.#windowMs);
    if (failures === 1) {
      await this.#store.set(this.#windowKey(subject), this.#clock.now() + this.#windowMs, this.#windowMs);
    }
    return failures;
  }

  async clear(subject: string): Promise<void> {
    await this.#store.delete(this.#countKey(subject));
  }

  #countKey(subject: string): string {
    return `${this.#name}-failures:${this.#hashSubject(subject)}`;
  }

  #windowKey(subject: string): string {
    return `${this.#name}-window:${this.#hashSubject(subject)}`;
  }
}
