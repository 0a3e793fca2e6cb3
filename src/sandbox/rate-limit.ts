/**
 * Laravel's `throttle:60,1`: a window opens at a key's first hit and lasts a minute of sandbox
 * time; past the allowance, 429 with the seconds until the window closes.
 */
import type { Clock } from "../support/clock.ts";

export type RateDecision =
  | { ok: true; limit: number; remaining: number }
  | { ok: false; limit: number; retryAfterSeconds: number };

const WINDOW_MS = 60_000;

export class RateLimiter {
  readonly #clock: Clock;
  readonly #perMinute: number;
  readonly #windows = new Map<string, { start: number; hits: number }>();

  /** `perMinute` 0 switches limiting off. */
  constructor(clock: Clock, perMinute: number) {
    this.#clock = clock;
    this.#perMinute = perMinute;
  }

  hit(key: string): RateDecision {
    const limit = this.#perMinute;
    if (limit <= 0) return { ok: true, limit: 0, remaining: 0 };
    const now = this.#clock.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, hits: 0 };
      this.#windows.set(key, window);
      if (this.#windows.size > 10_000) this.#sweep(now);
    }
    if (window.hits >= limit) {
      return {
        ok: false,
        limit,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)),
      };
    }
    window.hits += 1;
    return { ok: true, limit, remaining: limit - window.hits };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(key);
  }
}
