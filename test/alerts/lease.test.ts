/**
 * The job lease: one holder at a time on one store, another takes over when the holder stops
 * (released) or dies (its lease runs out). On memory for the rules, on real Redis with two bot
 * instances for the real thing.
 */
import { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Lease } from "../../src/alerts/lease.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/process/jobs.ts";
import { createServices, type Services } from "../../src/process/services.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { silentLogger } from "../../src/support/logger.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { shortenTtls } from "../support/redis-time.ts";

describe("Lease", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("has one holder; the other takes over when it is released or runs out", async () => {
    // The lease and the memory store both read the time from Date: stop it, and move it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const pass = (ms: number) => vi.setSystemTime(Date.now() + ms);
    const store = await openStore("memory://");
    const a = new Lease(store, "lock", { ttlMs: 300, holderId: "a" });
    const b = new Lease(store, "lock", { ttlMs: 300, holderId: "b" });
    expect(await a.hold()).toBe(true);
    expect(await b.hold()).toBe(false);
    // a keeps renewing past several TTLs: b never gets it.
    for (let i = 0; i < 6; i++) {
      pass(110);
      expect(await a.hold()).toBe(true);
      expect(await b.hold()).toBe(false);
    }
    await a.release();
    expect(await b.hold()).toBe(true);
    // a dies without releasing: b stops renewing here; a takes over once the lease ran out.
    expect(await a.hold()).toBe(false);
    pass(350);
    expect(a.held || b.held).toBe(false);
    expect(await a.hold()).toBe(true);
    // b wakes up: its lease is gone and someone else holds it.
    expect(await b.hold()).toBe(false);
    await store.close();
  });

  it("keeps the lease when its holder renews it twice at once (the tick and the keep-alive timer)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const store = await openStore("memory://");
    const a = new Lease(store, "lock", { ttlMs: 300, holderId: "a" });
    expect(await a.hold()).toBe(true);
    vi.setSystemTime(Date.now() + 110);
    expect(await Promise.all([a.hold(), a.hold()])).toEqual([true, true]);
    expect(a.held).toBe(true);
    vi.setSystemTime(Date.now() + 110);
    expect(await a.hold()).toBe(true);
    await store.close();
  });
});

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("the job lease with two bot instances on real Redis", () => {
  let redis: RedisServer;
  let one: Harness;
  /** The second instance: the same services on the same Redis; it takes no updates (one poller per token). */
  let two: Services;
  let stores: Store[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    one = await startHarness({ storeUrl: redis.url, storeNamespace: "pair" });
    two = await createServices(
      {
        exchange: {
          url: one.sandbox.url,
          clientId: one.sandbox.clientId,
          clientSecret: one.sandbox.clientSecret,
        },
        storeUrl: redis.url,
        secretsKey: one.secretsKey,
        defaultLocale: "en",
        telegramApiRoot: one.telegram.apiRoot,
      },
      { clock: one.clock, log: silentLogger, storeNamespace: "pair" },
    );
    await one.loggedInUser(); // a session the market feed can borrow a token from
  });
  afterAll(async () => {
    await two.close();
    await one.stop();
    for (const store of stores) await store.close();
    stores = [];
    await redis.stop();
  });

  it("one instance runs the alert scheduler; the other takes over after the first stops", async () => {
    const api = new Api(one.telegram.token, { apiRoot: one.telegram.apiRoot });
    const jobs = (deps: Harness["deps"]): BackgroundJobs =>
      startBackgroundJobs({ deps, api, intervalMs: 60_000, autoStart: false, leaseTtlMs: 900 });
    const first = jobs(one.deps);
    const second = jobs(two.deps);
    const move = async (price: string) => {
      one.sandbox.setPrice("btc", price);
      one.clock.advance(11_000);
      await first.tick();
      await second.tick();
      await first.notifier.queue.idle();
      await second.notifier.queue.idle();
    };

    await move("60000");
    expect(first.lease.held).toBe(true);
    expect(second.lease.held).toBe(false);

    const ada = one.user();
    await ada.send("/alert btc above 61000");
    await ada.waitForReply(/Alert set/);
    await move("61500");
    expect((await ada.waitForReply(/at or above/)).text).toContain("€61,000.00");
    expect(first.notifier.queue.stats.sent).toBe(1);
    expect(second.notifier.queue.stats.sent).toBe(0);

    // The first instance dies: no release, no more renewals. Until its lease runs out, the second waits.
    await move("60000"); // re-arms, on the first
    const firstSent = first.notifier.queue.stats.sent;
    await first.stop().catch(() => {});
    // (stop released the lease: a clean shutdown hands over at once; prove the lease-expiry path too)
    expect(await second.lease.hold()).toBe(true);
    await second.lease.release();
    const third = await openStore(redis.url, { namespace: "pair" });
    stores.push(third);
    const holder = new Lease(third, "jobs:leader", { ttlMs: 900 });
    expect(await holder.hold()).toBe(true); // a "third instance" takes the lease, then dies silently
    await second.tick();
    expect(second.lease.held).toBe(false);
    // The third instance's lease runs out on Redis's clock.
    await shortenTtls(redis.url, "pair::jobs:leader", 1000);

    const bo = one.user();
    await bo.send("/alert btc above 61000");
    await bo.waitForReply(/Alert set/);
    one.sandbox.setPrice("btc", "61500");
    one.clock.advance(11_000);
    await second.tick();
    await second.notifier.queue.idle();
    expect(second.lease.held).toBe(true);
    expect((await ada.waitForReply(/at or above/)).text).toContain("€61,000.00");
    expect((await bo.waitForReply(/at or above/)).text).toContain("€61,000.00");
    expect(second.notifier.queue.stats.sent).toBe(2);
    expect(first.notifier.queue.stats.sent).toBe(firstSent);
    await second.stop();
  }, 30_000);
});
