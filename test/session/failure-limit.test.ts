/**
 * FailureLimit on every store backend, with two Store instances on the same data standing for two
 * processes: a reservation is taken atomically before the guarded work, so a burst gets at most
 * `max` of them; a released one is given back, a failed one counts until the window ends (on the
 * injected clock), a cleared subject starts afresh.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FailureLimit } from "../../src/session/failure-limit.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const MAX = 5;
const WINDOW_MS = 15 * 60_000;
let subjectCounter = 0;

describe.each([
  { backend: "memory", skip: false },
  { backend: "sqlite", skip: false },
  { backend: "redis", skip: !redisAvailable() },
])("FailureLimit on $backend", ({ backend, skip }) => {
  let redis: RedisServer | undefined;
  let dir = "";
  let stores: Store[] = [];
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  /** One limit per Store instance: two "processes" on the same data. */
  let limits: FailureLimit[] = [];

  beforeAll(async () => {
    if (skip) return;
    let url = "memory://failure-limit";
    if (backend === "sqlite") {
      dir = await mkdtemp(join(tmpdir(), "bot-failure-limit-"));
      url = `sqlite://${join(dir, "bot.sqlite")}`;
    } else if (backend === "redis") {
      redis = await startRedis();
      url = redis.url;
    }
    stores = [await openStore(url), await openStore(url)];
    limits = stores.map(
      (store) => new FailureLimit(store, clock, { max: MAX, windowMs: WINDOW_MS, name: "t" }),
    );
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const limit = (i = 0) => limits[i % limits.length] as FailureLimit;
  const subject = () => `s${++subjectCounter}`;

  it.skipIf(skip)("grants exactly max of 300 concurrent reservations across two instances", async () => {
    const s = subject();
    const taken = await Promise.all(Array.from({ length: 300 }, (_, i) => limit(i).reserve(s)));
    expect(taken.filter((t) => t.ok)).toHaveLength(MAX);
    const refused = taken.filter((t) => !t.ok);
    expect(new Set(refused.map((t) => t.until))).toEqual(new Set([clock.now() + WINDOW_MS]));
    expect(await limit(1).blockedUntil(s)).toBe(clock.now() + WINDOW_MS);
  });

  it.skipIf(skip)(
    "never has more than max attempts under way or failed while others are released",
    async () => {
      const s = subject();
      let underWay = 0;
      let peak = 0;
      let failed = 0;
      await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const taken = await limit(i).reserve(s);
          if (!taken.ok) return;
          underWay++;
          peak = Math.max(peak, underWay);
          // The guarded work: other attempts run meanwhile.
          await new Promise((resolve) => setImmediate(resolve));
          underWay--;
          if (i % 3 === 0) {
            failed++;
            await limit(i).fail(taken.slot);
          } else {
            await limit(i).release(taken.slot);
          }
        }),
      );
      expect(peak).toBeLessThanOrEqual(MAX);
      expect(failed).toBeLessThanOrEqual(MAX);
      expect(failed).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip)("counts failures one by one, gives a released attempt back, and locks at max", async () => {
    const s = subject();
    for (let n = 1; n < MAX; n++) {
      const taken = await limit(n).reserve(s);
      if (!taken.ok) throw new Error("refused too early");
      expect(await limit(n).fail(taken.slot)).toEqual({ failures: n, lockedUntil: undefined });
    }
    // An attempt that neither failed nor succeeded (the exchange did not answer) does not count.
    const unanswered = await limit().reserve(s);
    if (!unanswered.ok) throw new Error("refused too early");
    await limit().release(unanswered.slot);
    expect(await limit(1).blockedUntil(s)).toBeUndefined();
    const last = await limit(1).reserve(s);
    if (!last.ok) throw new Error("refused too early");
    const until = clock.now() + WINDOW_MS;
    expect(await limit(1).fail(last.slot)).toEqual({ failures: MAX, lockedUntil: until });
    expect(await limit().blockedUntil(s)).toBe(until);
    expect(await limit().reserve(s)).toEqual({ ok: false, until });
  });

  it.skipIf(skip)("ends the window on the injected clock, and a clear starts afresh", async () => {
    const s = subject();
    const start = clock.now();
    for (let n = 0; n < MAX; n++) {
      const taken = await limit(n).reserve(s);
      if (taken.ok) await limit(n).fail(taken.slot);
    }
    expect(await limit().blockedUntil(s)).toBe(start + WINDOW_MS);
    clock.advance(WINDOW_MS - 1);
    expect(await limit().blockedUntil(s)).toBe(start + WINDOW_MS);
    clock.advance(1);
    expect(await limit().blockedUntil(s)).toBeUndefined();
    // The new window is shared by concurrent attempts: still max of them.
    const taken = await Promise.all(Array.from({ length: 50 }, (_, i) => limit(i).reserve(s)));
    expect(taken.filter((t) => t.ok)).toHaveLength(MAX);
    await limit(1).clear(s);
    expect(await limit().blockedUntil(s)).toBeUndefined();
    expect((await limit().reserve(s)).ok).toBe(true);
  });
});
