/**
 * On Redis an update's store work is a few round trips, whatever it reads: the chat lock, one MGET
 * for the chat's keys (session, conversation state, alerts pause, open-orders flag, login record)
 * once the lock is held, and the lock's release in one script. Counted by the redis-server itself
 * (its per-command statistics) while a logged-in user asks for /help and /balance.
 */
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainUpdates } from "../../src/bot/bot.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("store round trips per update on Redis", () => {
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
      // The lock taken (SET NX) and released (one script: its GET and DEL), one MGET, nothing else.
      expect(seen).toEqual({ set: 1, mget: 1, eval: 1, get: 1, del: 1 });
    }
  });
});
