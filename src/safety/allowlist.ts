/**
 * The allowlist setting and the user's cooling-off, with the rule that makes them worth having:
 * whatever loosens them (turning the allowlist off, a shorter cooling-off) waits for the current
 * cooling-off before it holds, so whoever takes over an account cannot loosen them and send at
 * once; whatever tightens them holds at once. Pending changes are applied when read (no timer).
 *
 * "New user" (issue: on by default for new users): a user without an allowlist record. Every user
 * who had none before this version counts as new too, and meets the allowlist at their next
 * /send: the threat it answers (a phished code, a taken-over Telegram with a remembered password)
 * is the same for them, and /send offers to save the address typed there. The operator may start
 * them with it off (SAFETY_ALLOWLIST_DEFAULT=off: an exchange that enforces a whitelist of its
 * own); the record is written only by a user's own change, so the operator's default holds for
 * everyone who never made one, and a user's own change follows the rules above either way.
 *
 * @example
 * const { on, hours } = await allowlist.get(userId);
 * const { effectiveAt } = await allowlist.setOn(userId, false); // off from effectiveAt
 */

import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import { type CoolingConfig, HOUR_MS, MAX_COOLING_HOURS } from "./cooling.ts";
import { changeRecord } from "./record.ts";

export interface AllowlistState {
  on: boolean;
  /** Hours a destination saved now cools off. */
  hours: number;
  /** The allowlist goes off at this time (set while it is still on). */
  offAt?: number;
  /** The cooling-off becomes `hours` at `at` (a shortening). */
  shorter?: { hours: number; at: number };
}

export type ChangeOutcome = { ok: true; effectiveAt: number } | { ok: false; reason: "hours" };

export class Allowlist {
  /** The operator's default and minimum (SAFETY_COOLING_OFF_*). */
  readonly config: CoolingConfig;
  readonly #store: Store;
  readonly #clock: Clock;
  /** SAFETY_ALLOWLIST_DEFAULT: the setting of a user who never chose one. */
  readonly #defaultOn: boolean;

  constructor(parts: { store: Store; clock: Clock; config: CoolingConfig; defaultOn?: boolean }) {
    ({ store: this.#store, clock: this.#clock, config: this.config } = parts);
    this.#defaultOn = parts.defaultOn ?? true;
  }

  /** The setting as it holds now (pending changes whose time came applied). */
  async get(userId: number): Promise<AllowlistState> {
    return this.#due(await this.#store.get<AllowlistState>(key(userId)));
  }

  /** On: at once. Off: after the current cooling-off (undone by turning it on meanwhile). */
  async setOn(userId: number, on: boolean): Promise<ChangeOutcome> {
    const now = this.#clock.now();
    let effectiveAt = now;
    await changeRecord<AllowlistState>(this.#store, key(userId), (stored) => {
      const state = this.#due(stored);
      if (on) {
        const { offAt: _dropped, ...rest } = state;
        effectiveAt = now;
        return { ...rest, on: true };
      }
      if (!state.on) {
        effectiveAt = now;
        return stored === undefined ? state : undefined;
      }
      effectiveAt = state.offAt ?? now + state.hours * HOUR_MS;
      return { ...state, offAt: effectiveAt };
    });
    return { ok: true, effectiveAt };
  }

  /** Longer (or equal): at once. Shorter: after the current cooling-off. */
  async setHours(userId: number, hours: number): Promise<ChangeOutcome> {
    if (!Number.isInteger(hours) || hours < this.config.minimumHours || hours > MAX_COOLING_HOURS) {
      return { ok: false, reason: "hours" };
    }
    const now = this.#clock.now();
    let effectiveAt = now;
    await changeRecord<AllowlistState>(this.#store, key(userId), (stored) => {
      const { shorter: _dropped, ...state } = this.#due(stored);
      if (hours >= state.hours) {
        effectiveAt = now;
        return { ...state, hours };
      }
      effectiveAt = now + state.hours * HOUR_MS;
      return { ...state, shorter: { hours, at: effectiveAt } };
    });
    return { ok: true, effectiveAt };
  }

  #due(stored: AllowlistState | undefined): AllowlistState {
    const now = this.#clock.now();
    let state: AllowlistState = stored ?? { on: this.#defaultOn, hours: this.config.defaultHours };
    if (state.offAt !== undefined && state.offAt <= now) {
      const { offAt: _done, ...rest } = state;
      state = { ...rest, on: false };
    }
    if (state.shorter !== undefined && state.shorter.at <= now) {
      const { shorter, ...rest } = state;
      state = { ...rest, hours: shorter.hours };
    }
    return state;
  }
}

const key = (userId: number) => `safety-allowlist:${userId}`;
