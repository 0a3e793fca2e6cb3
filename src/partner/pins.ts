/**
 * The 6-digit PIN that guards money leaving a partner user's account (partner users have no 2FA).
 * Stored only as a salted scrypt hash; five wrong PINs lock withdrawals for 15 minutes, counted in
 * the store so the lock holds across restarts and instances (SECURITY.md, partner mode).
 *
 * @example
 * const pins = new Pins(store, clock);
 * await pins.set(telegramId, "482913");
 * const check = await pins.verify(telegramId, typed); // { ok: true } | wrong (left) | locked (until)
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { FailureLimit } from "../session/failure-limit.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

export const PIN = /^\d{6}$/;

/**
 * Common 6-digit PINs that are neither one digit repeated nor a run (those two classes are refused
 * by rule), after the frequency lists of leaked 6-digit PINs (Markert et al., "This PIN Can Be
 * Easily Guessed", IEEE S&P 2020): repeated pairs and triples, mirror images, keypad patterns
 * (columns, diagonals, crosses) and 520520 ("I love you" in Chinese). Short on purpose: refused
 * PINs a user would have picked, no dictionary.
 */
export const WEAK_PINS: ReadonlySet<string> = new Set([
  "123123",
  "121212",
  "112233",
  "123321",
  "101010",
  "456456",
  "789789",
  "520520",
  "696969",
  "159753",
  "159357",
  "147258",
  "147852",
  "789456",
]);

/** Why a well-formed PIN is too easy to guess, or undefined when it is not. */
export type PinWeakness = "same" | "run" | "common";

/**
 * `same`: one digit six times (000000). `run`: each digit one above (123456) or one below (654321)
 * the one before, counted round the dial, so 789012 and 210987 are runs too: a guesser tries them
 * as readily, and refusing all 20 runs costs a user nothing. `common`: in `WEAK_PINS`.
 */
export function pinWeakness(pin: string): PinWeakness | undefined {
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => (d - (digits[i] ?? 0) + 10) % 10));
  if (steps.size === 1 && steps.has(0)) return "same";
  if (steps.size === 1 && (steps.has(1) || steps.has(9))) return "run";
  if (WEAK_PINS.has(pin)) return "common";
  return undefined;
}
export const PIN_MAX_TRIES = 5;
export const PIN_LOCK_MS = 15 * 60_000;
const KEY_LENGTH = 32;

interface StoredPin {
  /** base64 */
  salt: string;
  /** base64 scrypt(pin, salt) */
  hash: string;
}

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "wrong"; left: number }
  | { ok: false; reason: "locked"; until: number }
  | { ok: false; reason: "not-set" };

const pinKey = (telegramId: number) => `partner-pin:${telegramId}`;

export class Pins {
  readonly #store: Store;
  readonly #limit: FailureLimit;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#limit = new FailureLimit(store, clock, { max: PIN_MAX_TRIES, windowMs: PIN_LOCK_MS, name: "pin" });
  }

  async set(telegramId: number, pin: string): Promise<void> {
    if (!PIN.test(pin)) throw new Error("A PIN is exactly six digits.");
    // The sign-up refuses these with a sentence; nothing else may store one either.
    if (pinWeakness(pin) !== undefined) throw new Error("That PIN is too easy to guess.");
    const salt = randomBytes(16);
    const hash = await scrypt(pin, salt, KEY_LENGTH);
    await this.#store.set(pinKey(telegramId), {
      salt: salt.toString("base64"),
      hash: hash.toString("base64"),
    });
    await this.#limit.clear(String(telegramId));
  }

  /**
   * The operator desk's reset of a forgotten PIN: the hash is gone (a withdrawal is refused with
   * "no PIN yet") and the wrong tries are forgotten; the user sets a new one with /pin.
   */
  async remove(telegramId: number): Promise<void> {
    await this.#store.delete(pinKey(telegramId));
    await this.#limit.clear(String(telegramId));
  }

  async has(telegramId: number): Promise<boolean> {
    return (await this.#store.get<StoredPin>(pinKey(telegramId))) !== undefined;
  }

  /** When withdrawals unlock again, or undefined when they are not locked. */
  lockedUntil(telegramId: number): Promise<number | undefined> {
    return this.#limit.blockedUntil(String(telegramId));
  }

  async verify(telegramId: number, pin: string): Promise<PinCheck> {
    const subject = String(telegramId);
    // Reserved before the check (failure-limit.ts): concurrent guesses get at most five checks.
    const taken = await this.#limit.reserve(subject);
    if (!taken.ok) return { ok: false, reason: "locked", until: taken.until };
    const stored = await this.#store.get<StoredPin>(pinKey(telegramId));
    if (stored === undefined) {
      await this.#limit.release(taken.slot);
      return { ok: false, reason: "not-set" };
    }
    const expected = Buffer.from(stored.hash, "base64");
    const actual = await scrypt(pin, Buffer.from(stored.salt, "base64"), expected.length);
    if (PIN.test(pin) && timingSafeEqual(actual, expected)) {
      await this.#limit.clear(subject);
      return { ok: true };
    }
    const failure = await this.#limit.fail(taken.slot);
    if (failure.lockedUntil !== undefined) return { ok: false, reason: "locked", until: failure.lockedUntil };
    return { ok: false, reason: "wrong", left: PIN_MAX_TRIES - failure.failures };
  }
}
