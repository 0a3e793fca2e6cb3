/**
 * Self-set daily caps: per kind of money action (send per crypto currency, counted in the crypto;
 * withdraw, buy and sell counted in EUR; partner kinds count as their account twins). Lowering or
 * setting a cap holds at once; raising or removing one holds 24 hours later (a taken-over
 * account cannot lift it and spend at once).
 *
 * "Daily" is the last 24 hours, not a calendar day: no midnight lets the cap be spent twice in a
 * row. What counts is each order reserved in `safety-spent:` at the pipeline's last step before
 * the send claim (guards.ts), by compare-and-set, so two instances cannot both pass a cap; an
 * order that then did not happen (cancelled, refused, never placed: its ledger state says so)
 * stops counting.
 *
 * @example
 * await caps.set(userId, "withdraw", "500");         // lower: at once
 * const left = await caps.left(userId, "withdraw", stateOf); // Big or undefined (no cap)
 */
import Big from "big.js";
import { EUR } from "../domain/currency.ts";
import type { ActionState } from "../orders/action.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import { HOUR_MS } from "./cooling.ts";
import { changeRecord } from "./record.ts";

export const RAISE_DELAY_MS = 24 * HOUR_MS;
const WINDOW_MS = 24 * HOUR_MS;

/** `send:<crypto>`, `withdraw`, `buy` or `sell`. */
export type CapKey = `send:${string}` | "withdraw" | "buy" | "sell";

export interface Cap {
  /** Decimal text; undefined: no cap. */
  amount?: string;
  /** A raise (or removal: `amount` undefined) that holds from `at`. */
  raise?: { amount?: string; at: number };
}

type Caps = Record<string, Cap>;

interface Spent {
  id: string;
  amount: string;
  at: number;
}

/** States of an order that did not take money out: they stop counting against a cap. */
const NOT_SPENT: readonly ActionState[] = ["cancelled", "expired", "failed", "not-placed", "replaced"];

export type StateOf = (actionId: string) => Promise<ActionState | undefined>;

export function capCurrency(key: CapKey): string {
  return key.startsWith("send:") ? key.slice("send:".length) : EUR;
}

export class SelfCaps {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Every cap as it holds now (raises whose time came applied). */
  async all(userId: number): Promise<Record<string, Cap>> {
    const stored = (await this.#store.get<Caps>(capsKey(userId))) ?? {};
    return Object.fromEntries(Object.entries(stored).map(([k, cap]) => [k, this.#due(cap)]));
  }

  async get(userId: number, key: CapKey): Promise<Cap> {
    return (await this.all(userId))[key] ?? {};
  }

  /** Sets the cap (`undefined` removes it); when it holds. */
  async set(userId: number, key: CapKey, amount: string | undefined): Promise<{ effectiveAt: number }> {
    const now = this.#clock.now();
    let effectiveAt = now;
    await changeRecord<Caps>(this.#store, capsKey(userId), (stored = {}) => {
      const { raise: _dropped, ...cap } = this.#due(stored[key] ?? {});
      const lower = amount !== undefined && (cap.amount === undefined || new Big(amount).lte(cap.amount));
      if (lower) {
        effectiveAt = now;
        return { ...stored, [key]: { amount } };
      }
      if (cap.amount === undefined) {
        effectiveAt = now;
        return undefined;
      }
      effectiveAt = now + RAISE_DELAY_MS;
      const raise = amount === undefined ? { at: effectiveAt } : { amount, at: effectiveAt };
      return { ...stored, [key]: { ...cap, raise } };
    });
    return { effectiveAt };
  }

  /** What is left of the cap in the last 24 hours, not counting `except` (an order asked again). */
  async left(userId: number, key: CapKey, stateOf: StateOf, except?: string): Promise<Big | undefined> {
    const cap = await this.get(userId, key);
    if (cap.amount === undefined) return undefined;
    const entries = (await this.#store.get<Spent[]>(spentKey(userId, key))) ?? [];
    const used = await this.#counted(entries, stateOf, except);
    return new Big(cap.amount).minus(used);
  }

  /**
   * Reserves `amount` for the order `id` if it fits what is left, atomically (compare-and-set):
   * the cap's left before it, or "over" (nothing reserved). Undefined cap: nothing to reserve.
   */
  async reserve(
    userId: number,
    key: CapKey,
    id: string,
    amount: Big,
    stateOf: StateOf,
  ): Promise<{ ok: true } | { ok: false; cap: string; left: Big }> {
    const cap = await this.get(userId, key);
    if (cap.amount === undefined) return { ok: true };
    const capAmount = cap.amount;
    const now = this.#clock.now();
    for (let attempt = 0; attempt < 50; attempt++) {
      const current = await this.#store.get<Spent[]>(spentKey(userId, key));
      const live = (current ?? []).filter((entry) => entry.at > now - WINDOW_MS && entry.id !== id);
      const used = await this.#counted(live, stateOf);
      const left = new Big(capAmount).minus(used);
      if (amount.gt(left)) return { ok: false, cap: capAmount, left: left.gt(0) ? left : new Big(0) };
      const next = [...live, { id, amount: amount.toFixed(), at: now }];
      const written =
        current === undefined
          ? await this.#store.setIfAbsent(spentKey(userId, key), next, WINDOW_MS * 2)
          : await this.#store.replaceIfEquals(spentKey(userId, key), current, next);
      if (written) return { ok: true };
    }
    throw new Error("The cap's record kept changing under this reservation.");
  }

  async #counted(entries: readonly Spent[], stateOf: StateOf, except?: string): Promise<Big> {
    const now = this.#clock.now();
    let used = new Big(0);
    for (const entry of entries) {
      if (entry.at <= now - WINDOW_MS || entry.id === except) continue;
      const state = await stateOf(entry.id);
      if (state !== undefined && NOT_SPENT.includes(state)) continue;
      used = used.plus(entry.amount);
    }
    return used;
  }

  #due(cap: Cap): Cap {
    if (cap.raise === undefined || cap.raise.at > this.#clock.now()) return cap;
    return cap.raise.amount === undefined ? {} : { amount: cap.raise.amount };
  }
}

const capsKey = (userId: number) => `safety-caps:${userId}`;
const spentKey = (userId: number, key: CapKey) => `safety-spent:${userId}:${key}`;
