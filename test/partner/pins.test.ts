/**
 * The partner PIN's lock under concurrent guesses (SECURITY.md, partner mode): five wrong PINs
 * lock withdrawals, and a burst of guesses sent at once — to two instances on one SQLite file —
 * gets at most five PIN checks.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PIN_LOCK_MS, PIN_MAX_TRIES, Pins } from "../../src/partner/pins.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";

const RIGHT = "482913";

/** The store, with every read of a stored PIN (that is, every PIN check) counted. */
function countingPinReads(store: Store, reads: { count: number }): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === "get") {
        return (key: string) => {
          if (key.startsWith("partner-pin:")) reads.count++;
          return target.get(key);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("partner PIN lock under concurrent guesses", () => {
  let dir = "";
  const stores: Store[] = [];
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  const checks = { count: 0 };
  let instances: Pins[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "bot-pins-"));
    for (let i = 0; i < 2; i++) stores.push(await openStore(`sqlite://${join(dir, "bot.sqlite")}`));
    instances = stores.map((store) => new Pins(countingPinReads(store, checks), clock));
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("checks at most five of 60 wrong guesses sent at once, then refuses even the right PIN", async () => {
    const telegramId = 31_337;
    await (instances[0] as Pins).set(telegramId, RIGHT);
    checks.count = 0;
    // Checked first and counted after, every one of them was checked (60 scrypt hashes, 60 guesses).
    const guesses = Array.from({ length: 60 }, (_, i) => String(100_000 + i));
    const results = await Promise.all(
      guesses.map((guess, i) => (instances[i % 2] as Pins).verify(telegramId, guess)),
    );
    expect(checks.count).toBeLessThanOrEqual(PIN_MAX_TRIES);
    expect(results.filter((r) => !r.ok && r.reason === "wrong")).toHaveLength(PIN_MAX_TRIES - 1);
    const until = clock.now() + PIN_LOCK_MS;
    expect(await (instances[1] as Pins).lockedUntil(telegramId)).toBe(until);
    // Locked: even the right PIN is not checked until the window ends on the bot's clock.
    expect(await (instances[0] as Pins).verify(telegramId, RIGHT)).toEqual({
      ok: false,
      reason: "locked",
      until,
    });
    clock.advance(PIN_LOCK_MS);
    expect(await (instances[1] as Pins).verify(telegramId, RIGHT)).toEqual({ ok: true });
  });

  it("does not count a check against a PIN never set", async () => {
    const telegramId = 31_338;
    for (let i = 0; i < PIN_MAX_TRIES + 2; i++) {
      expect(await (instances[i % 2] as Pins).verify(telegramId, RIGHT)).toEqual({
        ok: false,
        reason: "not-set",
      });
    }
    await (instances[0] as Pins).set(telegramId, RIGHT);
    expect(await (instances[1] as Pins).verify(telegramId, RIGHT)).toEqual({ ok: true });
  });
});
