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

/**
 * A clock that can also call back later: what waits on time (the delivery queue's pacing) takes
 * this, so tests fire the waits by moving a {@link ManualTimers} instead of sleeping.
 */
export interface Timers extends Clock {
  /** Calls `callback` once, `ms` from now; the returned function cancels it. */
  after(ms: number, callback: () => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };

export const systemTimers: Timers = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

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

/**
 * A ManualClock whose timers fire when it is moved past them, in time order, each at its own time.
 *
 * @example
 * const timers = new ManualTimers(0);
 * timers.after(1000, () => console.log("a second later"));
 * timers.advance(1000); // prints, at once
 */
export class ManualTimers extends ManualClock implements Timers {
  #pending: Array<{ at: number; seq: number; callback: () => void }> = [];
  #seq = 0;

  after(ms: number, callback: () => void): () => void {
    const timer = { at: this.now() + Math.max(0, ms), seq: this.#seq++, callback };
    this.#pending.push(timer);
    return () => {
      this.#pending = this.#pending.filter((t) => t !== timer);
    };
  }

  /** When the next timer is due, if any. */
  get nextAt(): number | undefined {
    return this.#next()?.at;
  }

  /** Moves forward by `ms`, firing every timer that falls due on the way (also those they set). */
  override advance(ms: number): void {
    if (ms < 0) throw new RangeError("A clock only moves forward.");
    const until = this.now() + ms;
    for (let timer = this.#next(); timer !== undefined && timer.at <= until; timer = this.#next()) {
      this.#pending = this.#pending.filter((t) => t !== timer);
      super.advance(timer.at - this.now());
      timer.callback();
    }
    super.advance(until - this.now());
  }

  #next(): { at: number; seq: number; callback: () => void } | undefined {
    let next: { at: number; seq: number; callback: () => void } | undefined;
    for (const t of this.#pending) {
      if (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)) next = t;
    }
    return next;
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
