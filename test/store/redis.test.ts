import { createClient, createKeyv } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { shortenTtls } from "../support/redis-time.ts";
import { describeStoreContract } from "./contract.ts";

const available = redisAvailable();
if (!available) console.warn(redisUnavailableReason);

let redis: RedisServer | undefined;

describeStoreContract(
  "redis",
  {
    setup: async () => {
      redis = await startRedis();
    },
    open: (namespace) => {
      if (!redis) throw new Error("redis-server is not running");
      return openStore(redis.url, { namespace });
    },
    passTime: async (namespace, ms) => {
      if (!redis) throw new Error("redis-server is not running");
      await shortenTtls(redis.url, `${namespace}::*`, ms);
    },
    teardown: async () => {
      await redis?.stop();
    },
  },
  { skip: !available },
);

describe.skipIf(!available)("redis:// specifics", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("writes what a stock @keyv/redis Keyv reads, and reads what it writes", async () => {
    const store = await openStore(server.url, { namespace: "bot" });
    const stock = createKeyv(server.url, { namespace: "bot" });
    await store.setIfAbsent("guard", { order: 1 }, 60_000);
    await store.increment("count", 60_000);
    expect(await stock.get("guard")).toEqual({ order: 1 });
    expect(await stock.get("count")).toBe(1);
    await stock.set("from-keyv", { ok: true });
    expect(await store.get("from-keyv")).toEqual({ ok: true });
    await stock.disconnect();
    await store.close();
  });

  it("sends the lease with the chat's reads as one command, and the releases of one tick as one", async () => {
    const store = await openStore(server.url, { namespace: "tick" });
    const admin = createClient({ url: server.url });
    await admin.connect();
    await store.set("session:1", { n: 1 });
    for (const chat of [1, 2, 3]) {
      expect(
        await store.setIfAbsentThenGetMany(`lock:${chat}`, `h${chat}`, 60_000, [`session:${chat}`]),
      ).toEqual([chat === 1 ? { n: 1 } : undefined]);
    }
    await admin.configResetStat();
    const released = await Promise.all([
      store.deleteIfEquals("lock:1", "h1"),
      store.deleteIfEquals("lock:2", "someone else"),
      store.deleteIfEquals("lock:3", "h3"),
      store.deleteIfEquals("lock:1", "h1"),
      store.deleteIfEquals("lock:none", "h4"),
    ]);
    expect(released).toEqual([true, false, true, false, false]);
    const stats = await admin.info("commandstats");
    expect(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1]).toBe("1");
    expect(await store.get("lock:2")).toBe("h2");
    expect(await store.get("lock:1")).toBeUndefined();
    await admin.close();
    await store.close();
  });

  it("runs its scripts by EVAL when Redis lost them (SCRIPT FLUSH, as a restart does), then by EVALSHA again", async () => {
    const store = await openStore(server.url, { namespace: "flushed" });
    const admin = createClient({ url: server.url });
    await admin.connect();
    await store.set("session:1", { n: 1 });
    await admin.scriptFlush();
    await admin.configResetStat();
    expect(await store.setIfAbsentThenGetMany("lock:1", "h1", 60_000, ["session:1", "paused:1"])).toEqual([
      { n: 1 },
      undefined,
    ]);
    expect(await store.setIfAbsentThenGetMany("lock:1", "h2", 60_000, ["session:1"])).toBeUndefined();
    expect(
      await Promise.all([store.deleteIfEquals("lock:1", "h1"), store.deleteIfEquals("lock:2", "h")]),
    ).toEqual([true, false]);
    expect(await store.increment("count", 60_000)).toBe(1);
    const stats = await admin.info("commandstats");
    // Each script once by EVAL (which loads it); the second lease by EVALSHA.
    expect(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1]).toBe("3");
    expect(/cmdstat_evalsha:calls=(\d+),.*failed_calls=(\d+)/.exec(stats)?.slice(1)).toEqual(["4", "3"]);
    expect(await store.get("lock:1")).toBeUndefined();
    await admin.close();
    await store.close();
  });

  it("refuses to open when Redis cannot be reached, without printing the URL", async () => {
    const unreachable = "redis://:secret-password@127.0.0.1:1";
    const error = await openStore(unreachable).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/Could not connect to Redis at STORE_URL/);
    expect(String((error as Error).message)).not.toContain("secret-password");
  });
});

describe.skipIf(!available)("redis:// when the server goes away", () => {
  it("rejects operations at once (fails closed) instead of queueing them", async () => {
    const server = await startRedis();
    const errors: unknown[] = [];
    let store: Store | undefined;
    try {
      store = await openStore(server.url, { onError: (error) => errors.push(error) });
      await store.set("k", 1);
      await server.stop();
      const started = Date.now();
      await expect(store.get("k")).rejects.toThrow();
      await expect(store.setIfAbsent("guard", 1)).rejects.toThrow();
      await expect(store.increment("count", 1_000)).rejects.toThrow();
      await expect(store.set("k", 2)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await store?.close();
      await server.stop();
    }
  });
});
