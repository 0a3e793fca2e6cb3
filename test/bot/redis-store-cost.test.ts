/**
 * What the store costs on Redis, counted by the redis-server itself (its command statistics).
 * Per update: a /help and a /balance are the chat lock, one MGET for the chat's keys (session,
 * conversation state, alerts pause, open-orders flag, login record) once the lock is held, and the
 * lock's release in one script. Per tick: listings read store indexes, not the keyspace; but for
 * the tick that takes the lead and one a quarter of an hour later (they index records left by the
 * version without indexes, with one key listing), a tick sends no SCAN, and still finds every
 * session: one logged in through the bot, two written the old way.
 */
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainUpdates } from "../../src/bot/bot.ts";
import { startBackgroundJobs } from "../../src/process/jobs.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("the store's cost on Redis", () => {
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

  /** Calls per command since the statistics were reset, e.g. `{ mget: 1, set: 1 }`. */
  async function commands(): Promise<Record<string, number>> {
    const stats = await admin.info("commandstats");
    const counts: Record<string, number> = {};
    for (const [, name, calls] of stats.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) {
      if (name !== "info" && name !== "config|resetstat") counts[name as string] = Number(calls);
    }
    return counts;
  }

  const scans = async () => (await commands()).scan ?? 0;

  it("one MGET for the chat's reads, no single GET, for /help and /balance alike", async () => {
    const user = await h.loggedInUser();
    for (const [text, reply] of [
      ["/help", /\/balance/],
      ["/balance", /Euro/],
    ] as const) {
      await user.send(text);
      await user.waitForReply(reply);
      // Until the update is over: its session write and the lock's release come after the reply.
      await drainUpdates(h.bot);
      await admin.configResetStat();
      await user.send(text);
      await user.waitForReply(reply);
      await drainUpdates(h.bot);
      const seen = await commands();
      // Two round trips: the lock taken and the chat's keys read by one script (its SET NX and
      // MGET), the lock released by another (its GET and DEL), both sent as EVALSHA; nothing else.
      expect(seen).toEqual({ evalsha: 2, set: 1, mget: 1, get: 1, del: 1 });
    }
  });

  it("reads the chosen language with the chat's keys: a user this instance has not seen costs no GET of its own", async () => {
    // An English Telegram app, German chosen in /language on another instance: this instance has
    // no memory of the profile, so it reads it, with the lease (not in a GET of its own before it).
    const user = h.user(undefined, { languageCode: "en" });
    await h.deps.store.set(`profile:${user.id}`, { locale: "de" });
    await admin.configResetStat();
    await user.send("/help");
    expect((await user.waitForReply()).text).toMatch(/^Was ich kann/);
    await drainUpdates(h.bot);
    // The two scripts (lease and reads; release) and the new user's first session write: no GET
    // beside the release's own.
    expect(await commands()).toEqual({ evalsha: 2, set: 2, mget: 1, get: 1, del: 1 });
    // At once again: the profile this instance now remembers decides, before the lease.
    await admin.configResetStat();
    await user.send("/help");
    expect((await user.waitForReply()).text).toMatch(/^Was ich kann/);
    await drainUpdates(h.bot);
    expect(await commands()).toEqual({ evalsha: 2, set: 1, mget: 1, get: 1, del: 1 });
  });

  it("reads indexes: no SCAN but when taking the lead (and once after), and every session is swept", async () => {
    const indexed = await h.loggedInUser();
    const [old, late] = [h.user(), h.user()];
    // Login records as the version without indexes leaves them: plain keys, in no index.
    const record = await h.deps.store.get<Record<string, unknown>>(`auth:${indexed.id}`);
    await h.deps.store.set(`auth:${old.id}`, record);
    const jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 60_000, autoStart: false });
    try {
      await jobs.tick();
      expect(await scans()).toBeGreaterThan(0);
      expect(await h.deps.sessions.userIds()).toContain(old.id);
      await admin.configResetStat();
      h.clock.advance(60_000);
      await jobs.tick();
      expect(await scans()).toBe(0);
      // An instance of the older version, still running in a rolling deploy, logs someone in:
      // the second pass, a quarter of an hour after taking the lead, lists them too.
      await h.deps.store.set(`auth:${late.id}`, record);
      h.clock.advance(15 * 60_000);
      await jobs.tick();
      expect(await scans()).toBeGreaterThan(0);
      expect(await h.deps.sessions.userIds()).toContain(late.id);
      await admin.configResetStat();
      // Every session is five minutes from its end: each user is offered to stay logged in.
      h.clock.advance(40 * 60_000);
      await jobs.tick();
      await jobs.notifier.queue.idle();
      expect(await scans()).toBe(0);
      for (const user of [indexed, old, late]) {
        expect(user.messages().some((m) => /session ends at/.test(m.text ?? ""))).toBe(true);
      }
      // A record gone behind the index's back (as a TTL would end it) leaves the index at the next sweep.
      await h.deps.store.delete(`auth:${old.id}`);
      expect(await h.deps.sessions.userIds()).toContain(old.id);
      await jobs.tick();
      const listed = await h.deps.sessions.userIds();
      expect(listed).toContain(indexed.id);
      expect(listed).not.toContain(old.id);
      expect(await scans()).toBe(0);
    } finally {
      await jobs.stop();
    }
  });
});
