/**
 * What an operator watches, from a real bot process (src/process/main.ts under Node, as `npm start` runs
 * it but from the sources, so no build is shared with other test files) against the sandbox and
 * the Bot API double, in polling mode:
 * - the HTTP server runs in polling mode too: /healthz and /readyz answer on PORT;
 * - /metrics is off by default (404 on PORT, no metrics server); with METRICS_PORT it is served
 *   on a port of its own, and counts the updates a user sent;
 * - an uncaught exception and an unhandled rejection are logged by pino as one JSON line with the
 *   stack, and the process exits with 1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { Vault } from "../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../src/telegram-double/index.ts";
import { logIn } from "./support/harness.ts";
import { startCommand, startEnv, stopChild } from "./support/start-command.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface BotProcess {
  child: ChildProcess;
  /** The JSON lines pino wrote so far. */
  lines: Array<Record<string, unknown>>;
  /** Resolves with the first line (already written or still to come) that passes `test`. */
  line(
    test: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  stderr(): string;
}

/** The bot from its sources with the start script's Node flags and environment, stdout read as JSON lines. */
function startBot(env: Record<string, string | undefined>, extraNodeFlags: string[] = []): BotProcess {
  const start = startCommand(ROOT);
  const child = spawn(process.execPath, [...start.nodeFlags, ...extraNodeFlags, "src/process/main.ts"], {
    cwd: ROOT,
    env: { ...env, ...start.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let buffered = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split("\n");
    buffered = complete.pop() ?? "";
    for (const text of complete) if (text.trim()) lines.push(JSON.parse(text) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return {
    child,
    lines,
    stderr: () => stderr,
    line(test, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(test);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such log line within ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

function stop(bot: BotProcess): Promise<number | null> {
  return stopChild(bot.child);
}

/** The port a "… listening" line names. */
async function portFrom(bot: BotProcess, msg: string): Promise<number> {
  const line = await bot.line((l) => l.msg === msg);
  return line.port as number;
}

describe("a real bot process", () => {
  let sandbox: Sandbox;
  let telegram: BotApiDouble;
  let folder: string;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    telegram = await startBotApiDouble({ token: "123456789:TEST-double-token-for-observing" });
    folder = mkdtempSync(join(tmpdir(), "bot-observe-"));
    env = {
      ...startEnv({
        sandbox,
        telegram,
        secretsKey: Vault.generateKey(),
        storeUrl: `sqlite://${join(folder, "bot.sqlite")}`,
      }),
      LOG_LEVEL: "info",
    };
  });
  afterAll(async () => {
    await telegram?.close();
    await sandbox?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("answers /healthz and /readyz in polling mode, and serves no /metrics by default", async () => {
    const bot = startBot({ ...env, STORE_URL: `sqlite://${join(folder, "default.sqlite")}` });
    try {
      const port = await portFrom(bot, "http server listening");
      const base = `http://127.0.0.1:${port}`;
      const health = await fetch(`${base}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([
        200,
        { ready: true, failed: [], checks: { store: "ok", telegram: "ok", shutdown: "ok" } },
      ]);
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect(bot.lines.some((l) => l.msg === "metrics server listening")).toBe(false);
    } finally {
      expect(await stop(bot), bot.stderr()).toBe(0);
    }
  }, 60_000);

  it("serves /metrics on METRICS_PORT, counting what a user did", async () => {
    const bot = startBot({
      ...env,
      STORE_URL: `sqlite://${join(folder, "metrics.sqlite")}`,
      METRICS_PORT: "0",
      // The jobs take their lease at their first tick.
      ALERT_INTERVAL_SECONDS: "1",
    });
    try {
      const port = await portFrom(bot, "metrics server listening");
      expect((await bot.line((l) => l.msg === "metrics server listening")).host).toBe("127.0.0.1");
      await portFrom(bot, "http server listening");
      const user = telegram.user(4242);
      await user.send("/start");
      await user.waitForReply(/Welcome/, 20_000);
      await logIn(user, sandbox);
      await user.send("/prices");
      await user.waitForReply();
      await user.send("/balance");
      await user.waitForReply(/Euro/);
      await telegram.waitUntilIdle();

      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      const text = await response.text();
      // /start, /login, e-mail, password, code, /prices, /balance.
      expect(text).toContain('bot_updates_seconds_count{kind="message"} 7');
      expect(text).toContain('bot_exchange_calls_total{operation="POST /v1/auth/login",outcome="ok"} 1');
      expect(text).toContain('bot_login_attempts_total{outcome="ok"} 1');
      expect(text).toMatch(/^bot_store_seconds_count\{op="set"\} [1-9]/m);
      expect(text).toContain("bot_delivery_queue_depth 0");
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      const metrics = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      await expect.poll(metrics, { timeout: 10_000 }).toMatch(/^bot_jobs_leader 1$/m);
    } finally {
      expect(await stop(bot), bot.stderr()).toBe(0);
    }
  }, 60_000);

  it.each([
    [
      "an uncaught exception",
      "uncaught exception: exiting",
      "setTimeout(() => { throw new Error('boom from a timer'); })",
    ],
    [
      "an unhandled rejection",
      "unhandled promise rejection: exiting",
      "Promise.reject(new Error('boom from a promise'))",
    ],
  ])(
    "logs %s through pino, with its stack, and exits with 1",
    async (_what, msg, crash) => {
      // A module loaded before the bot that crashes it on SIGUSR2, once the bot runs.
      const preload = `data:text/javascript,process.once("SIGUSR2", () => { ${crash}; })`;
      const bot = startBot({ ...env, STORE_URL: `sqlite://${join(folder, "crash.sqlite")}` }, [
        "--import",
        preload,
      ]);
      await bot.line((l) => l.msg === "http server listening");
      const exited = once(bot.child, "exit");
      bot.child.kill("SIGUSR2");
      const [code] = await exited;
      expect(code).toBe(1);
      const fatal = bot.lines.at(-1) ?? {};
      expect(fatal).toMatchObject({ level: 60, msg, err: { type: "Error" } });
      const err = fatal.err as { message: string; stack: string };
      expect(err.message).toMatch(/^boom from a/);
      expect(err.stack).toMatch(/^Error: boom from a .*\n\s+at /);
    },
    60_000,
  );
});
