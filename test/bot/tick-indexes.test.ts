/**
 * The jobs' tick on Redis lists through store indexes, not the keyspace: after the tick that takes
 * the lead (it indexes records left by the version without indexes, with one key listing), a tick
 * sends no SCAN to the redis-server (its own command statistics say so), and still finds every
 * session: one logged in through the bot, one written the old way.
 */
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackgroundJobs } from "../../src/jobs.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("the jobs' tick on Redis", () => {
  let redis: RedisServer;
  let h: Harness;
  let admin: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({ storeUrl: redis.url });
    admin = createClient({ url: redis.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.close();
    await h?.stop();
    await redis?.stop();
  });

  /** How many SCAN commands the server has run since its statistics were reset. */
  async function scans(): Promise<number> {
    const stats = await admin.info("commandstats");
    return Number(/cmdstat_scan:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  }

  it("reads indexes: no SCAN after the lead's first tick, and every session is swept", async () => {
    const indexed = await h.loggedInUser();
    const old = h.user();
    // A login record as the version without indexes left it: a plain key, in no index.
    const record = await h.deps.store.get<Record<string, unknown>>(`auth:${indexed.id}`);
    await h.deps.store.set(`auth:${old.id}`, record);
    const jobs = startBackgroundJobs({
      deps: h.deps,
      api: h.bot.api,
      intervalMs: 3_600_000,
      autoStart: false,
    });
    try {
      await jobs.tick();
      expect(await scans()).toBeGreaterThan(0);
      await admin.configResetStat();
      // Both sessions are five minutes from their end: both users are offered to stay logged in.
      h.clock.advance(56 * 60_000);
      await jobs.tick();
      await jobs.notifier.queue.idle();
      expect(await scans()).toBe(0);
      for (const user of [indexed, old]) {
        expect(user.messages().some((m) => /session ends at/.test(m.text ?? ""))).toBe(true);
      }
      // A record gone behind the index's back (as a TTL would end it) leaves the index at the next sweep.
      await h.deps.store.delete(`auth:${old.id}`);
      expect(await h.deps.sessions.userIds()).toContain(old.id);
      await jobs.tick();
      expect(await h.deps.sessions.userIds()).toEqual([indexed.id]);
      expect(await scans()).toBe(0);
    } finally {
      await jobs.stop();
    }
  });
});
