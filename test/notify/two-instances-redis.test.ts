/**
 * Two bot instances on one Redis: the daily digest goes out once per user and day, and notices held
 * in quiet hours are delivered once, whichever instance ticks, when the lease changes hands, and
 * even when both run the step at the same moment (the store's claims decide, not the lease).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDelivery, type Delivery } from "../../src/notify/delivery.ts";
import { DailyDigest } from "../../src/process/jobs/digest.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/process/jobs.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { HARNESS_EPOCH, type Harness } from "../support/harness.ts";
import { redisAvailable, redisUnavailableReason } from "../support/redis.ts";
import { type SecondInstance, twoInstancesOnRedis } from "../support/two-instances.ts";
import { drainQueue } from "../support/virtual-delivery.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("notifications with two instances on one Redis", () => {
  const pair = twoInstancesOnRedis({ marketData: true });
  let h: Harness;
  let second: SecondInstance;
  const timers = new ManualTimers(HARNESS_EPOCH);
  let deliveries: Delivery[];
  let jobs: BackgroundJobs[];

  beforeAll(async () => {
    ({ h, second } = pair);
    deliveries = [
      createDelivery({ deps: h.deps, api: h.bot.api, queue: { timers } }),
      createDelivery({ deps: second.deps, api: second.bot.api, queue: { timers } }),
    ];
    jobs = [
      startBackgroundJobs({
        deps: h.deps,
        api: h.bot.api,
        intervalMs: 60_000,
        autoStart: false,
        delivery: deliveries[0] as Delivery,
      }),
      startBackgroundJobs({
        deps: second.deps,
        api: second.bot.api,
        intervalMs: 60_000,
        autoStart: false,
        delivery: deliveries[1] as Delivery,
      }),
    ];
  });
  afterAll(async () => {
    for (const job of jobs ?? []) await job.stop();
  });

  const drain = async () => {
    for (const delivery of deliveries) await drainQueue(delivery.queue, timers);
  };
  const digestsOf = (user: FakeUser) =>
    h.telegram.calls.filter(
      (c) =>
        c.method === "sendMessage" &&
        c.chatId === user.id &&
        /Your daily digest/.test(String(c.payload.text)),
    );
  function moveClockTo(iso: string): void {
    h.clock.advance(Date.parse(iso) - h.clock.now());
  }

  async function subscribers(count: number): Promise<FakeUser[]> {
    const users = Array.from({ length: count }, () => h.user());
    for (const user of users) {
      await h.deps.profiles.update(user.id, (p) => ({
        ...p,
        timeZone: "Europe/Berlin",
        digestHour: 8,
        notifications: { ...p.notifications, digest: "on" },
      }));
    }
    return users;
  }

  it("the digest goes out once per user, across a hand-over of the lease and two instances running it at once", async () => {
    const users = await subscribers(6);
    moveClockTo("2026-11-23T07:00:00Z"); // 08:00 in Berlin
    // Both instances tick together: the lease lets one run the jobs.
    await Promise.all(jobs.map((job) => job.tick()));
    await drain();
    for (const user of users) expect(digestsOf(user)).toHaveLength(1);

    // The holder stops (a deploy); the other takes over within the same day and finds the claims.
    await jobs[0]?.stopTicks();
    h.clock.advance(60_000);
    await jobs[1]?.tick();
    await drain();
    expect(jobs[1]?.lease.held).toBe(true);
    for (const user of users) expect(digestsOf(user)).toHaveLength(1);

    // The next day, both instances run the digest step at the same moment, lease or not.
    moveClockTo("2026-11-24T07:05:00Z");
    const [a, b] = await Promise.all([
      new DailyDigest(h.deps).run(deliveries[0]?.notifier as Delivery["notifier"]),
      new DailyDigest(second.deps).run(deliveries[1]?.notifier as Delivery["notifier"]),
    ]);
    await drain();
    expect(a + b).toBe(users.length);
    for (const user of users) expect(digestsOf(user)).toHaveLength(2);
  });

  it("notices held in quiet hours are released once when both instances release at the same moment", async () => {
    const users = Array.from({ length: 5 }, () => h.user());
    for (const user of users) {
      await h.deps.profiles.update(user.id, (p) => ({
        ...p,
        timeZone: "Europe/Berlin",
        quietHours: { from: 22 * 60, to: 7 * 60 },
      }));
    }
    moveClockTo("2026-11-24T23:00:00Z"); // 00:00 in Berlin
    for (const [i, user] of users.entries()) {
      // Held by whichever instance raised them.
      for (let n = 0; n < 3; n++) {
        const notifier = deliveries[(i + n) % 2]?.notifier as Delivery["notifier"];
        expect(
          await notifier.notify({ userId: user.id, kind: "alerts", render: () => ({ text: `alert ${n}` }) }),
        ).toBe("held");
      }
    }
    // Another restart: nothing of this lives in either process.
    moveClockTo("2026-11-25T06:00:00Z"); // 07:00 in Berlin
    await Promise.all(deliveries.map((d) => d.notifier.releaseHeld()));
    await Promise.all(deliveries.map((d) => d.notifier.releaseHeld()));
    await drain();
    for (const user of users) {
      const got = h.telegram.calls.filter((c) => c.method === "sendMessage" && c.chatId === user.id);
      const texts = got.map((c) => String(c.payload.text));
      // Once each: in one merged message, or split between the two instances, never twice.
      const all = texts.join("\n");
      for (const n of [0, 1, 2]) expect(all.split(`alert ${n}`).length - 1).toBe(1);
    }
  });
});
