/**
 * The failed-login limit under a burst (SECURITY.md, rule 3): 300 concurrent `POST /webapp/login`
 * reach the exchange at most the limit's worth of times — 5 for one Telegram user, 10 for one
 * e-mail tried by 300 Telegram users — at one `npm start` process on SQLite and at two on one
 * redis-server (the requests alternate between them, as a round-robin balancer would send them).
 * Real processes, real HTTP, the sandbox exchange counting the login calls it receives.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Vault } from "../../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";
import { signInitData } from "../../src/webapp/init-data.ts";
import { WEBAPP_LOGIN_PATH } from "../../src/webapp/routes.ts";
import {
  freePort,
  type RedisServer,
  redisAvailable,
  redisUnavailableReason,
  startRedis,
} from "../support/redis.ts";
import {
  buildForStart,
  spawnStart,
  startEnv,
  stderrOf,
  stopChild,
  waitUntilServing,
} from "../support/start-command.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BURST = 300;
const PER_USER = 5;
const PER_EMAIL = 10;

if (!redisAvailable()) console.warn(redisUnavailableReason);

beforeAll(() => buildForStart(ROOT), 60_000);

interface Bots {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  /** Each process's login page. */
  urls: string[];
}

/** `count` bot processes on one store, one sandbox and one Bot API double (webhook mode when several). */
function bots(count: number, storeUrl: () => string): () => Bots {
  let current: Bots | undefined;
  const children: Array<{ child: ChildProcess; stderr: () => string }> = [];
  let folder = "";
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "bot-burst-"));
    const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    const telegram = await startBotApiDouble({ token: "123456789:TEST-double-token-for-login-burst" });
    const secretsKey = Vault.generateKey();
    const urls: string[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = spawnStart(ROOT, {
        ...startEnv({ sandbox, telegram, secretsKey, storeUrl: storeUrl().replace("FOLDER", folder) }),
        PORT: String(port),
        WEBAPP_URL: base,
        ...(count > 1
          ? { BOT_MODE: "webhook", WEBHOOK_URL: `${base}/telegram`, WEBHOOK_SECRET: "burst-test-secret" }
          : {}),
      });
      children.push({ child, stderr: stderrOf(child) });
      urls.push(`${base}${WEBAPP_LOGIN_PATH}`);
    }
    for (const [i, url] of urls.entries())
      await waitUntilServing((children[i] as { child: ChildProcess }).child, url);
    current = { sandbox, telegram, urls };
  }, 60_000);
  afterAll(async () => {
    for (const { child, stderr } of children) expect(await stopChild(child), stderr()).toBe(0);
    await current?.telegram.close();
    await current?.sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);
  return () => {
    if (current === undefined) throw new Error("bots() are ready only inside their tests");
    return current;
  };
}

/** Fires every attempt at once, alternating between the processes; the answers' statuses. */
async function burst(b: Bots, attempts: Array<{ userId: number; email: string }>): Promise<number[]> {
  const responses = await Promise.all(
    attempts.map(({ userId, email }, i) =>
      fetch(b.urls[i % b.urls.length] as string, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          initData: signInitData({ id: userId, firstName: "Eve" }, b.telegram.token, Date.now()),
          email,
          password: `guess-${i}`,
          code: "123456",
        }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      }),
    ),
  );
  return responses;
}

function provesTheLimit(b: Bots, statuses: number[], limit: number, loginCallsBefore: number): void {
  const calls = b.sandbox.countRequests("POST", "/v1/auth/login") - loginCallsBefore;
  // Every attempt answered: a wrong guess (422) or the wait (429); nothing crashed or hung.
  expect(statuses.filter((s) => s !== 422 && s !== 429)).toEqual([]);
  expect(calls, `login calls that reached the exchange: ${calls}`).toBeLessThanOrEqual(limit);
  // Every answer that is not the wait was a call; the call that used the limit up says "wait" too.
  expect(statuses.filter((s) => s === 422).length).toBeLessThanOrEqual(calls);
  expect(calls).toBeGreaterThan(0);
}

function limitsHoldUnderABurst(b: () => Bots, firstUser: number): void {
  it(`${BURST} concurrent attempts of one Telegram user make at most ${PER_USER} login calls`, async () => {
    const before = b().sandbox.countRequests("POST", "/v1/auth/login");
    const email = b().sandbox.demo.email;
    const statuses = await burst(
      b(),
      Array.from({ length: BURST }, () => ({ userId: firstUser, email })),
    );
    provesTheLimit(b(), statuses, PER_USER, before);
  }, 60_000);

  it(`${BURST} concurrent attempts at one e-mail from ${BURST} Telegram users make at most ${PER_EMAIL}`, async () => {
    const before = b().sandbox.countRequests("POST", "/v1/auth/login");
    const email = b().sandbox.seeded.business.email;
    const statuses = await burst(
      b(),
      Array.from({ length: BURST }, (_, i) => ({ userId: firstUser + 1 + i, email })),
    );
    provesTheLimit(b(), statuses, PER_EMAIL, before);
  }, 60_000);
}

describe("the login limit under a burst, one process on SQLite", () => {
  const b = bots(1, () => "sqlite://FOLDER/bot.sqlite");
  limitsHoldUnderABurst(b, 5_000);
});

describe.skipIf(!redisAvailable())("the login limit under a burst, two processes on one Redis", () => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const b = bots(2, () => redis?.url ?? "");
  limitsHoldUnderABurst(b, 6_000);
});
