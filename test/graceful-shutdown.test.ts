/**
 * A rolling deploy seen from outside, with real processes: two `npm start` instances in webhook mode
 * on one real redis-server, behind a round-robin balancer that is not sticky, with the Bot API
 * double delivering and redelivering webhooks as Telegram does. The instance handling a user's slow
 * /balance gets SIGTERM while the exchange is still answering, and the user sends /help right after:
 *
 * - the /balance is answered exactly once, by the instance that had it, and its webhook request
 *   gets 200 (not reset, so Telegram never hands it to the other instance);
 * - /help comes after it, as soon as it is out (no wait for a lease left behind: ~20 s before);
 * - the instance exits by itself, cleanly, well within SHUTDOWN_TIMEOUT_SECONDS.
 *
 * The figures are printed for the record (time to answer, to /help, to exit).
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { Vault } from "../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../src/telegram-double/index.ts";
import { logIn } from "./support/harness.ts";
import {
  freePort,
  type RedisServer,
  redisAvailable,
  redisUnavailableReason,
  startRedis,
} from "./support/redis.ts";
import { type RoundRobin, startRoundRobin } from "./support/round-robin.ts";
import { buildForStart, spawnStart, startEnv } from "./support/start-command.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SHUTDOWN_TIMEOUT_SECONDS = 10;
const EXCHANGE_MS = 3_000;

if (!redisAvailable()) console.warn(redisUnavailableReason);

interface Instance {
  port: number;
  child: ChildProcess;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  stderr: () => string;
}

/** Resolves once `check` is true, polling; rejects after `timeoutMs` saying what was awaited. */
async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const ends = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > ends) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!redisAvailable())("SIGTERM to the instance handling an update (real processes)", () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let telegram: BotApiDouble;
  let balancer: RoundRobin;
  const instances: Instance[] = [];

  beforeAll(async () => {
    buildForStart(ROOT);
    redis = await startRedis();
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    telegram = await startBotApiDouble({ token: "123456789:TEST-double-token-for-shutdown" });
    const ports = [await freePort(), await freePort()];
    balancer = await startRoundRobin(ports);
    const secretsKey = Vault.generateKey();
    for (const port of ports) {
      const child = spawnStart(ROOT, {
        ...startEnv(sandbox, telegram, {
          STORE_URL: redis.url,
          BOT_MODE: "webhook",
          WEBHOOK_URL: `${balancer.url}/telegram`,
          WEBHOOK_SECRET: "rolling-deploy-secret",
          PORT: String(port),
          SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
          LOG_LEVEL: "warn",
        }),
        // One key for both instances: each reads what the other sealed.
        SECRETS_KEY: secretsKey,
      });
      let stderr = "";
      child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      instances.push({ port, child, exited, stderr: () => stderr });
    }
    for (const instance of instances) {
      await until(`instance on ${instance.port} answers /healthz`, async () => {
        const answer = await fetch(`http://127.0.0.1:${instance.port}/healthz`).catch(() => undefined);
        return answer?.status === 200;
      });
    }
    await until(
      "both instances set the webhook",
      () => telegram.calls.filter((c) => c.method === "setWebhook").length >= 2,
    );
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill("SIGTERM");
        await instance.exited;
      }
    }
    await balancer?.close();
    await telegram?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it("answers once, keeps the chat's order without a stall, and exits within the deadline", {
    timeout: 90_000,
  }, async () => {
    const ada = telegram.user(4711);
    await logIn(ada, sandbox);
    sandbox.faults.addLatency(EXCHANGE_MS, { method: "GET", path: "/v1/balance" });

    const sentAt = performance.now();
    await ada.send("/balance");
    // The exchange has the call: the update is in the middle of being handled.
    await until(
      "the balance call reached the exchange",
      () => sandbox.countRequests("GET", "/v1/balance") >= 1,
    );
    const delivery = balancer.log.find((r) => r.text === "/balance");
    const handler = instances.find((i) => i.port === delivery?.upstream);
    expect(handler).toBeDefined();
    if (handler === undefined || delivery === undefined) return;

    const termAt = performance.now();
    handler.child.kill("SIGTERM");
    const helpSentAt = performance.now();
    await ada.send("/help");

    const balance = await ada.waitForReply(/Euro|did not answer/, 30_000);
    const balanceAt = performance.now();
    const help = await ada.waitForReply(/What I can do/, 30_000);
    const helpAt = performance.now();
    const [code] = await handler.exited;
    const exitAt = performance.now();
    await telegram.waitUntilIdle();

    console.log(
      `SIGTERM to the instance handling /balance (exchange ${EXCHANGE_MS} ms): ` +
        `balance answered ${Math.round(balanceAt - sentAt)} ms after it was sent, ` +
        `${Math.round(balanceAt - termAt)} ms after SIGTERM; /help answered ${Math.round(helpAt - helpSentAt)} ms ` +
        `after it was sent; the instance exited ${Math.round(exitAt - termAt)} ms after SIGTERM (code ${code}).`,
    );

    expect(code, handler.stderr()).toBe(0);
    expect(exitAt - termAt).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(balance.text).toMatch(/Euro/);
    // Exactly one answer to /balance, one call to the exchange, one webhook delivery, and it got 200.
    const texts = ada.messages().map((m) => m.text);
    expect(texts.filter((t) => /Euro/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /did not answer in time/.test(t))).toHaveLength(0);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(1);
    const deliveries = balancer.log.filter((r) => r.updateId === delivery.updateId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.status).toBe(200);
    expect(deliveries[0]?.error).toBeUndefined();
    // The chat's order is kept, and /help waited only for /balance: no lease left to run out.
    expect(texts.indexOf(balance.text)).toBeLessThan(texts.indexOf(help.text));
    expect(helpAt - balanceAt).toBeLessThan(5_000);
    // /help was not taken by the instance going away: refused (503) or sent to the other one.
    const helps = balancer.log.filter((r) => r.text === "/help");
    expect(helps.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of helps.filter((r) => r.status !== 200)) {
      expect([503, undefined]).toContain(refused.status);
    }
    // The other instance still serves.
    await ada.send("/help");
    await ada.waitForReply(/What I can do/, 15_000);
  });
});
