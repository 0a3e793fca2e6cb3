/**
 * /healthz and /readyz on the bot's HTTP server, wired as main.ts wires them (instanceReadiness),
 * against a real redis-server and the Bot API double over HTTP: ready when all answer; 503 with
 * the failing check named when Redis is down, when the Bot API cannot be reached, and while the
 * instance shuts down; /healthz stays 200 through all of it (the process is up). Telegram is
 * asked getMe at most once per interval however often /readyz is probed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceReadiness, readinessRoute } from "../src/process/readiness.ts";
import { startHttpServer, type WebhookServer } from "../src/process/webhook.ts";
import { openStore } from "../src/store/open-store.ts";
import type { Store } from "../src/store/store.ts";
import { ManualClock } from "../src/support/clock.ts";
import { silentLogger } from "../src/support/logger.ts";
import { type BotApiDouble, startBotApiDouble } from "../src/telegram-double/index.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "./support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const EVERY_MS = 30_000;

async function get(server: WebhookServer, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL(path, server.url));
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** The answer when `check` alone fails, for `reason`. */
function notReady(check: "store" | "telegram" | "shutdown", reason: string) {
  const checks = { store: "ok", telegram: "ok", shutdown: "ok", [check]: reason };
  return { status: 503, body: { ready: false, failed: [check], checks } };
}

describe.skipIf(!redisAvailable())("/healthz and /readyz", () => {
  let redis: RedisServer;
  let store: Store;
  let telegram: BotApiDouble;
  let server: WebhookServer;
  const clock = new ManualClock();
  let shuttingDown = false;

  beforeAll(async () => {
    redis = await startRedis();
    store = await openStore(redis.url, { namespace: "readyz" });
    telegram = await startBotApiDouble();
    const readiness = instanceReadiness({
      store,
      botToken: telegram.token,
      apiRoot: telegram.apiRoot,
      shuttingDown: () => shuttingDown,
      log: silentLogger,
      telegramEveryMs: EVERY_MS,
      clock,
    });
    server = await startHttpServer({ port: 0, host: "127.0.0.1", routes: [readinessRoute(readiness)] });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await telegram?.close();
    await redis?.stop();
  });

  const getMeCalls = () => telegram.calls.filter((call) => call.method === "getMe").length;

  it("is ready when the store and Telegram answer, asking Telegram once however often it is probed", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(server, "/readyz")));
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 200,
        body: { ready: true, failed: [], checks: { store: "ok", telegram: "ok", shutdown: "ok" } },
      });
    }
    expect(getMeCalls()).toBe(1);
    clock.advance(EVERY_MS - 1);
    await get(server, "/readyz");
    expect(getMeCalls()).toBe(1);
    clock.advance(1);
    expect((await get(server, "/readyz")).status).toBe(200);
    expect(getMeCalls()).toBe(2);
  });

  it("says 503 naming the store while Redis is down, and is ready again when it is back", async () => {
    await redis.down();
    expect(await get(server, "/readyz")).toEqual(notReady("store", "unreachable"));
    expect(await get(server, "/healthz")).toEqual({ status: 200, body: { ok: true } });
    await redis.up();
    await expect.poll(async () => (await get(server, "/readyz")).status, { timeout: 10_000 }).toBe(200);
  });

  it("says 503 naming the shutdown while the instance shuts down", async () => {
    shuttingDown = true;
    try {
      expect(await get(server, "/readyz")).toEqual(notReady("shutdown", "shutting down"));
      expect((await get(server, "/healthz")).status).toBe(200);
    } finally {
      shuttingDown = false;
    }
  });

  it("says 503 naming Telegram once the Bot API cannot be reached (at the next getMe, not before)", async () => {
    await telegram.close();
    // The last getMe's answer still counts until the interval is over: probes never hammer Telegram.
    expect((await get(server, "/readyz")).status).toBe(200);
    clock.advance(EVERY_MS);
    expect(await get(server, "/readyz")).toEqual(notReady("telegram", "unreachable"));
    expect((await get(server, "/healthz")).status).toBe(200);
  });
});
