/**
 * Two bot instances on one real redis-server, as behind a load balancer: the harness (polling the
 * Bot API double) and a second instance fed with `handleUpdate` (harness.ts, `secondInstance`).
 * Registers the suite's hooks: started before its tests, stopped after them. Read the parts in a
 * test or a later `beforeAll`.
 *
 * @example
 * const pair = twoInstancesOnRedis({ mode: "partner" });
 * it("…", async () => { const { h, second } = pair; … });
 */
import { afterAll, beforeAll } from "vitest";
import { type Harness, type HarnessOptions, secondInstance, startHarness } from "./harness.ts";
import { type RedisServer, startRedis } from "./redis.ts";

export type SecondInstance = Awaited<ReturnType<typeof secondInstance>>;

export interface InstancePair {
  redis: RedisServer;
  h: Harness;
  second: SecondInstance;
}

export function twoInstancesOnRedis(options: Omit<HarnessOptions, "storeUrl"> = {}): InstancePair {
  const pair: Partial<InstancePair> = {};
  beforeAll(async () => {
    pair.redis = await startRedis();
    pair.h = await startHarness({ ...options, storeUrl: pair.redis.url });
    pair.second = await secondInstance(pair.h);
  });
  afterAll(async () => {
    await pair.second?.close();
    await pair.h?.stop();
    await pair.redis?.stop();
  });
  return pair as InstancePair;
}
