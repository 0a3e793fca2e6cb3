/**
 * The start-up check of Redis's settings (src/store/redis-settings.ts) against real redis-servers
 * started with good and bad settings: one sentence per problem, INFO when CONFIG is disabled (as
 * managed Redis services do), one "could not be checked" sentence when both are refused; and a
 * real `npm start` process logs the sentences as warnings.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisSettingsWarnings } from "../../src/store/redis-settings.ts";
import { type ProcessWorld, startProcessWorld } from "../support/bot-process.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { buildForStart, outputOf, spawnStart, stopChild } from "../support/start-command.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const EVICTS = (policy: string) =>
  `Redis may evict keys (maxmemory-policy ${policy}): set maxmemory-policy noeviction, or a full Redis can drop an order's exactly-once claim and place it twice (deploy/README.md).`;
const FORGETS = (snapshots: string) =>
  `Redis does not keep every write (appendonly no, ${snapshots}): a restart loses logins and order claims written since the last snapshot; set appendonly yes (deploy/README.md).`;

/** The warnings for a redis-server started with these flags (after the test defaults: no AOF, no snapshots). */
async function warningsWith(args: string[]): Promise<string[]> {
  const redis = await startRedis({ args });
  try {
    return await redisSettingsWarnings(redis.url);
  } finally {
    await redis.stop();
  }
}

describe.skipIf(!redisAvailable())("Redis's settings at start-up", () => {
  it("says nothing of a Redis that keeps every write and never evicts", async () => {
    expect(await warningsWith(["--appendonly", "yes", "--maxmemory-policy", "noeviction"])).toEqual([]);
  });

  it("one sentence each when it may evict and keeps nothing on disk", async () => {
    expect(await warningsWith(["--maxmemory-policy", "allkeys-lru"])).toEqual([
      EVICTS("allkeys-lru"),
      FORGETS("no snapshots either"),
    ]);
  });

  it("snapshots alone are not enough: the writes since the last one are lost", async () => {
    expect(await warningsWith(["--save", "900 1", "--maxmemory-policy", "noeviction"])).toEqual([
      FORGETS('only snapshots, save "900 1"'),
    ]);
  });

  it("with CONFIG disabled, reads INFO", async () => {
    const noConfig = ["--user", "default", "on", "nopass", "~*", "&*", "+@all", "-config"];
    expect(await warningsWith([...noConfig, "--maxmemory-policy", "volatile-lru"])).toEqual([
      EVICTS("volatile-lru"),
      FORGETS("its snapshot schedule could not be read"),
    ]);
    expect(
      await warningsWith([...noConfig, "--appendonly", "yes", "--maxmemory-policy", "noeviction"]),
    ).toEqual([]);
  });

  it("with CONFIG and INFO refused, says the settings could not be checked", async () => {
    // INFO server stays allowed: the test's own start-up asks it for the server's process id.
    const refused = [
      "--user",
      "default",
      "on",
      "nopass",
      "~*",
      "&*",
      "+@all",
      "-config",
      "-info",
      "+info|server",
    ];
    expect(await warningsWith(refused)).toEqual([
      "Redis's settings could not be checked (CONFIG and INFO are refused): make sure it runs with appendonly yes and maxmemory-policy noeviction (deploy/README.md).",
    ]);
  });

  describe("npm start", () => {
    let w: ProcessWorld;
    let redis: RedisServer;
    beforeAll(async () => {
      buildForStart(ROOT);
      redis = await startRedis({ args: ["--maxmemory-policy", "allkeys-lru"] });
      w = await startProcessWorld({ STORE_URL: redis.url, LOG_LEVEL: "warn" });
    }, 60_000);
    afterAll(async () => {
      await w?.close();
      await redis?.stop();
    });

    it("logs one warning line each, then serves", async () => {
      const child = spawnStart(ROOT, w.env, { stdout: true });
      const log = outputOf(child, "stdout");
      const stderr = outputOf(child, "stderr");
      try {
        const user = w.telegram.user(601);
        await user.send("/start");
        await user.waitForReply(/Welcome/, 20_000);
        const warnings = log()
          .split("\n")
          .filter((line) => line.includes('"msg":"Redis'))
          .map((line) => JSON.parse(line) as { level: number; msg: string });
        expect(warnings).toEqual([
          expect.objectContaining({ level: 40, msg: EVICTS("allkeys-lru") }),
          expect.objectContaining({ level: 40, msg: FORGETS("no snapshots either") }),
        ]);
      } finally {
        expect(await stopChild(child), stderr()).toBe(0);
      }
    }, 60_000);
  });
});
