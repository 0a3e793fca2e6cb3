/**
 * Time, injected. Everything that reads the time (token expiry, quotes, alerts, the sandbox's
 * order settlement) takes a `Clock`, so tests move time forward instead of sleeping.
 *
 * @example
 * const clock = new ManualClock(Date.parse("2026-01-01T00:00:00Z"));
 * clock.advance(61 * 60_000); // a token issued at the start has now expired
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A clock that can be moved forward (never back), for tests and for the sandbox's controls. */
export interface AdjustableClock extends Clock {
  advance(ms: number): void;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Stands still until told to move: for tests. */
export class ManualClock implements AdjustableClock {
  #now: number;
  constructor(start: number = Date.now()) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("A clock only moves forward.");
    this.#now += ms;
  }
}

/** Follows real time with an offset that can be moved forward: for the demo and `npm run sandbox`. */
export class OffsetClock implements AdjustableClock {
  #offset = 0;
  now(): number {
    return Date.now() + this.#offset;
  }
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("A clock only moves forward.");
    this.#offset += ms;
  }
}
