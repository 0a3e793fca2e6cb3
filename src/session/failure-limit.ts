/**
 * Failed attempts limited per subject in the store (so the limit holds across restarts and
 * instances): at most `max` attempts that failed or are still under way within a window; the
 * window begins with the first attempt (a failure or not) and the subject is blocked until it ends.
 *
 * An attempt is reserved BEFORE the guarded work (a login call, a PIN check) with one atomic
 * increment, and counts as a failure from then on unless it is released. So N concurrent attempts
 * get at most `max` reservations, on one instance or several: checking first and counting after
 * let a burst of 300 Mini App logins for one user put 50 to 300 of them through to the exchange.
 *
 * The store has no decrement, so a released attempt is counted in a second counter ("released")
 * that only grows: in use = reserved − released. That stays exact under concurrency because a
 * refused attempt is never released: every reservation has a distinct number, a reservation is
 * granted only while its number is at most `max` + released, hence the reservations granted are
 * at most `max` + released and those not released at most `max`. (Releasing refused ones too would
 * let a stale read of "released" admit more than `max`.) An attempt refused while the limit is full
 * therefore counts against it until the window ends, like a failure.
 *
 * Each window has its own random id in its counters' keys, so a new window (the old one ended on
 * the injected clock, or `clear` after a success) starts from zero without deleting counters an
 * attempt of the old one may still write to.
 *
 * @example
 * const limit = new FailureLimit(store, clock, { max: 5, windowMs: 15 * 60_000, name: "login-user" });
 * const taken = await limit.reserve("42");
 * if (!taken.ok) return tooMany(taken.until);
 * const ok = await tryIt();
 * if (ok) await limit.clear("42"); else if ((await limit.fail(taken.slot)).lockedUntil) tooMany(…);
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";

/** One reserved attempt. */
export interface Slot {
  readonly subject: string;
  /** The window's id and end (injected clock). */
  readonly window: Window;
  /** The reservation's number in its window (released ones included). */
  readonly number: number;
}

interface Window {
  id: string;
  until: number;
}

export type Reservation = { ok: true; slot: Slot } | { ok: false; until: number };

/** What a failed attempt leaves: the attempts that count now, and the lock it set. */
export interface Failure {
  /** Failed or still under way in the window, this one included. */
  failures: number;
  /** Set when this failure used up the limit: blocked until then. */
  lockedUntil: number | undefined;
}

/** A window is opened by one attempt; this many tries when others open and clear it meanwhile. */
const OPEN_TRIES = 5;

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

  /** When the subject may try again, or undefined when it may now (reads only). */
  async blockedUntil(subject: string): Promise<number | undefined> {
    const window = await this.#liveWindow(subject);
    if (window === undefined) return undefined;
    const reserved = (await this.#store.get<number>(this.#reservedKey(subject, window))) ?? 0;
    if (reserved < this.max) return undefined;
    return reserved - (await this.#released(subject, window)) >= this.max ? window.until : undefined;
  }

  /** Takes one attempt, atomically; refused (with when to try again) when the limit is used up. */
  async reserve(subject: string): Promise<Reservation> {
    const window = await this.#openWindow(subject);
    const number = await this.#store.increment(this.#reservedKey(subject, window), this.#windowMs);
    // Within the first `max` numbers no release needs reading: in use ≤ number.
    if (number > this.max && number - (await this.#released(subject, window)) > this.max) {
      return { ok: false, until: window.until };
    }
    return { ok: true, slot: { subject, window, number } };
  }

  /** The attempt failed: it stays counted (the reservation already counts it). */
  async fail(slot: Slot): Promise<Failure> {
    const failures = slot.number - (await this.#released(slot.subject, slot.window));
    return { failures, lockedUntil: failures >= this.max ? slot.window.until : undefined };
  }

  /** The attempt neither failed nor succeeded (the exchange did not answer): it no longer counts. */
  async release(slot: Slot): Promise<void> {
    await this.#store.increment(this.#releasedKey(slot.subject, slot.window), this.#windowMs);
  }

  /**
   * Forgets the subject's failures (a success): the next attempt opens a new window. Attempts of
   * the old window still under way cannot count against the new one (at most `max` − 1 of them).
   */
  async clear(subject: string): Promise<void> {
    const window = await this.#store.get<Window>(this.#windowKey(subject));
    if (window === undefined) return;
    await this.#store.delete(this.#windowKey(subject));
    await this.#store.delete(this.#reservedKey(subject, window));
    await this.#store.delete(this.#releasedKey(subject, window));
  }

  async #released(subject: string, window: Window): Promise<number> {
    return (await this.#store.get<number>(this.#releasedKey(subject, window))) ?? 0;
  }

  async #liveWindow(subject: string): Promise<Window | undefined> {
    const window = await this.#store.get<Window>(this.#windowKey(subject));
    // The window ends on the injected clock too, not only by the store's TTL (which counts real time).
    return window !== undefined && window.until > this.#clock.now() ? window : undefined;
  }

  /** The live window, or a new one that every concurrent attempt then shares (setIfAbsent). */
  async #openWindow(subject: string): Promise<Window> {
    const key = this.#windowKey(subject);
    for (let i = 0; i < OPEN_TRIES; i++) {
      const current = await this.#store.get<Window>(key);
      const now = this.#clock.now();
      if (current !== undefined && current.until > now) return current;
      // Ended on the injected clock but not yet by the TTL: only the attempt that removes it opens anew.
      if (current !== undefined) await this.#store.deleteIfEquals(key, current);
      const fresh: Window = { id: randomBytes(8).toString("hex"), until: now + this.#windowMs };
      if (await this.#store.setIfAbsent(key, fresh, this.#windowMs)) return fresh;
    }
    throw new Error(`${this.#name}: the failure window kept changing; try again.`);
  }

  #windowKey(subject: string): string {
    return `${this.#name}-window:${this.#hashSubject(subject)}`;
  }

  #reservedKey(subject: string, window: Window): string {
    return `${this.#name}-reserved:${this.#hashSubject(subject)}:${window.id}`;
  }

  #releasedKey(subject: string, window: Window): string {
    return `${this.#name}-released:${this.#hashSubject(subject)}:${window.id}`;
  }
}
