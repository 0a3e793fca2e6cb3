/**
 * deploy/compose.yaml and deploy/Caddyfile, proved without Docker: the topology is started from
 * their settings with real processes. redis-server runs with the compose's command flags, one
 * `npm start` process per bot service with the compose's environment in webhook mode (the
 * operator's .env stands for the sandbox exchange and the Bot API double), and a round-robin
 * forwarder (test/support/round-robin.ts, skipping a refused instance as Caddy does) in front, over the upstreams the Caddyfile names, as
 * Telegram's webhook target. Each container has its own network, so the shared PORT becomes one
 * loopback port per process, and the compose's host names the addresses started here.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProcessWorld, startProcessWorld } from "../support/bot-process.ts";
import { freePort, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { type RoundRobin, startRoundRobin } from "../support/round-robin.ts";
import { buildForStart, outputOf, spawnStart, stopChild } from "../support/start-command.ts";
import { readYamlSubset, type YamlValue } from "../support/yaml-subset.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const USERS = 30;
const UPDATES_PER_USER = 3;

/** A mapping of the compose file (empty when it is not one). */
const mapping = (value: YamlValue | undefined): { [key: string]: YamlValue } =>
  value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value) ? value : {};
const strings = (value: YamlValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
const text = (value: YamlValue | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

const services = mapping(
  mapping(readYamlSubset(readFileSync(`${ROOT}deploy/compose.yaml`, "utf8"))).services,
);
const service = (name: string) => mapping(services[name]);
/** The bot instances: the services running the bot's image. */
const botNames = Object.keys(services).filter((name) => service(name).image === "exchange-bot");
const envOf = (name: string): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(mapping(service(name).environment)).map(([k, v]) => [k, text(v)]));

/** The Caddyfile's reverse_proxy: its upstreams and the directives of its block. */
function reverseProxy(): { upstreams: string[]; directives: Map<string, string> } {
  const caddyfile = readFileSync(`${ROOT}deploy/Caddyfile`, "utf8").replace(/#.*$/gm, "");
  const block = /^\s*reverse_proxy\s+([^{\n]+)\{([^}]*)\}/m.exec(caddyfile);
  const directives = new Map<string, string>();
  for (const line of (block?.[2] ?? "").split("\n").map((l) => l.trim())) {
    const [name, ...args] = line.split(/\s+/);
    if (name) directives.set(name, args.join(" "));
  }
  return { upstreams: (block?.[1] ?? "").trim().split(/\s+/), directives };
}

/** `35s`, `1m30s` in seconds. */
function seconds(duration: string | undefined): number {
  const parts = [...(duration ?? "").matchAll(/(\d+)(h|m|s)/g)];
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * { h: 3600, m: 60, s: 1 }[unit as "h"], 0);
}

describe("the YAML reader of the compose test", () => {
  it("reads anchors, merges and flow sequences, and refuses what it does not know", () => {
    const doc = 'a: &x\n  b: "1"\n  c: [d, \'e f\']\ng:\n  <<: *x\n  b: two # a comment\nh:\n  - "80:80"\n';
    expect(readYamlSubset(doc)).toEqual({
      a: { b: "1", c: ["d", "e f"] },
      g: { b: "two", c: ["d", "e f"] },
      h: ["80:80"],
    });
    expect(() => readYamlSubset("a: |\n  text\n")).toThrow(/line 1/);
    expect(() => readYamlSubset("a:\n  - b: c\n")).toThrow(/line 2: a mapping inside a sequence/);
  });
});

describe("deploy/compose.yaml's settings", () => {
  it("three bot instances in webhook mode on the compose's Redis, stopped after their drain deadline", () => {
    expect(botNames).toEqual(["bot1", "bot2", "bot3"]);
    for (const name of botNames) {
      const env = envOf(name);
      expect(env.BOT_MODE, name).toBe("webhook");
      expect(Object.keys(services)).toContain(new URL(env.STORE_URL ?? "").hostname);
      expect(service(name).stop_signal).toBe("SIGTERM");
      expect(seconds(text(service(name).stop_grace_period))).toBeGreaterThan(
        Number(env.SHUTDOWN_TIMEOUT_SECONDS),
      );
    }
  });

  it("the balancer sends to every instance at its PORT, round-robin, checking /readyz", () => {
    const { upstreams, directives } = reverseProxy();
    expect(upstreams).toEqual(botNames.map((name) => `${name}:${envOf(name).PORT}`));
    expect(directives.get("lb_policy")).toBe("round_robin");
    expect(directives.get("health_uri")).toBe("/readyz");
  });
});

describe.skipIf(!redisAvailable())("the compose topology, started from its settings", () => {
  let w: ProcessWorld;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let lb: RoundRobin;
  /** Each bot service's PORT, as its own network would give it. */
  const ports = new Map<string, number>();
  const bots: { name: string; child: ChildProcess; port: number; log: () => string; stderr: () => string }[] =
    [];

  beforeAll(async () => {
    buildForStart(ROOT);
    const [program, ...flags] = strings(service("redis").command);
    expect(program).toBe("redis-server");
    redis = await startRedis({ args: flags });
    w = await startProcessWorld();
    const { upstreams } = reverseProxy();
    for (const name of botNames) ports.set(name, await freePort());
    lb = await startRoundRobin(
      upstreams.map((upstream) => ports.get(upstream.split(":")[0] ?? "") ?? 0),
      { skipRefused: true },
    );
    for (const name of botNames) {
      const env = envOf(name);
      const store = new URL(env.STORE_URL ?? "");
      expect(`${store.hostname}:${store.port}`).toBe("redis:6379");
      const port = ports.get(name) ?? 0;
      const child = spawnStart(
        ROOT,
        {
          ...w.env, // the operator's .env: the exchange, the Bot API, SECRETS_KEY
          WEBHOOK_URL: `${lb.url}/telegram`,
          WEBHOOK_SECRET: "compose-test-secret",
          LOG_LEVEL: "warn",
          ...env,
          STORE_URL: redis.url,
          PORT: String(port),
        },
        { stdout: true },
      );
      bots.push({ name, child, port, log: outputOf(child, "stdout"), stderr: outputOf(child, "stderr") });
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(bots.map((bot) => stopChild(bot.child)));
    await lb?.close();
    await w?.close();
    await redis?.stop();
  });

  it("every instance comes up and listens", async () => {
    for (const bot of bots) {
      await expect
        .poll(
          async () => (await fetch(`http://127.0.0.1:${bot.port}/healthz`).catch(() => undefined))?.status,
          {
            timeout: 30_000,
            interval: 100,
          },
        )
        .toBe(200);
    }
  }, 60_000);

  it("Redis runs with the compose's settings", async () => {
    const { createClient } = await import("@keyv/redis");
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect(await client.configGet(["appendonly", "appendfsync", "maxmemory-policy"])).toEqual({
        appendonly: "yes",
        appendfsync: "always",
        "maxmemory-policy": "noeviction",
      });
    } finally {
      await client.close();
    }
  });

  it("updates delivered through the balancer are each answered once, by every instance in turn", async () => {
    const users = Array.from({ length: USERS }, (_, i) => w.telegram.user(70_000 + i));
    // One chat's updates in order (the next is sent when the last was answered); the chats at once.
    await Promise.all(
      users.map(async (user) => {
        for (let k = 0; k < UPDATES_PER_USER; k++) {
          await user.send("/help");
          await user.waitForReply(/What I can do/, 20_000);
        }
      }),
    );
    await w.telegram.waitUntilIdle({ quietMs: 300, timeoutMs: 10_000 });

    const replies = w.telegram.calls.filter((call) => call.method.toLowerCase() === "sendmessage");
    for (const user of users) {
      expect(replies.filter((call) => call.chatId === user.id).length, `chat ${user.id}`).toBe(
        UPDATES_PER_USER,
      );
    }
    const webhook = lb.log.filter((request) => request.path === "/telegram");
    const answeredOk = new Map<number, number>();
    for (const request of webhook.filter(
      (r) => r.status !== undefined && r.status >= 200 && r.status < 300,
    )) {
      const id = request.updateId ?? 0;
      answeredOk.set(id, (answeredOk.get(id) ?? 0) + 1);
    }
    expect(answeredOk.size).toBe(USERS * UPDATES_PER_USER);
    expect([...answeredOk.values()].filter((times) => times !== 1)).toEqual([]);
    const perInstance = botNames.map(
      (name) => webhook.filter((request) => request.upstream === ports.get(name)).length,
    );
    expect(
      perInstance.every((count) => count > 0),
      `per instance: ${perInstance.join(", ")}`,
    ).toBe(true);

    // The start-up check found nothing to say of the compose's Redis.
    for (const bot of bots) expect(bot.log(), bot.name).not.toContain('"msg":"Redis');
  }, 90_000);

  it("each instance stops cleanly on the compose's stop signal", async () => {
    for (const bot of bots) {
      expect(await stopChild(bot.child), `${bot.name}: ${bot.stderr()}`).toBe(0);
    }
  }, 60_000);
});
