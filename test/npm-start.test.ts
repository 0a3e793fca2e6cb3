/**
 * `npm start` as it runs in production (dist/, built here as its prestart builds it, with the start
 * script's Node flags and environment; a real child process) against the sandbox and the Bot API
 * double. Account mode: it answers /start and /help and stops cleanly on SIGTERM. Partner mode
 * (EXCHANGE_MODE=partner): it logs in with the partner's service account, sets the partner command
 * menu, and serves a new customer from /start through sign-up; a bad partner variable stops it with
 * its sentence.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { PARTNER_SERVICE } from "../src/sandbox/seed.ts";
import { processWorld } from "./support/bot-process.ts";
import { closedPortUrl } from "./support/raw-server.ts";
import { buildForStart, outputOf, spawnStart, stderrOf, stopChild as stop } from "./support/start-command.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

beforeAll(() => buildForStart(ROOT), 60_000);

describe("npm start", () => {
  const w = processWorld();

  it("answers /start and /help, and stops cleanly on SIGTERM", async () => {
    const child = spawnStart(ROOT, w().env);
    const stderr = stderrOf(child);
    try {
      const user = w().telegram.user(778);
      await user.send("/start");
      expect((await user.waitForReply(/Welcome/, 20_000)).buttons.flat()).toContain("🔐 Log in");
      await user.send("/help");
      expect((await user.waitForReply(/What I can do/)).text).toContain("/balance");
    } finally {
      expect(await stop(child), stderr()).toBe(0);
    }
  }, 60_000);
});

describe("npm start, when PORT is taken", () => {
  const w = processWorld();
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "0.0.0.0", resolve));
    port = (taken.address() as AddressInfo).port;
    return () => new Promise<void>((resolve) => taken.close(() => resolve()));
  });

  it("polls on in polling mode, with a warning that the health checks are off", async () => {
    const child = spawnStart(ROOT, { ...w().env, PORT: String(port), LOG_LEVEL: "warn" }, { stdout: true });
    const stdout = outputOf(child, "stdout");
    const stderr = stderrOf(child);
    try {
      const user = w().telegram.user(779);
      await user.send("/start");
      await user.waitForReply(/Welcome/, 20_000);
      expect(stdout()).toContain("the HTTP server could not listen on PORT");
    } finally {
      expect(await stop(child), stderr()).toBe(0);
    }
  }, 60_000);

  it("stops with one sentence in webhook mode, which cannot run without it", async () => {
    const child = spawnStart(ROOT, {
      ...w().env,
      PORT: String(port),
      BOT_MODE: "webhook",
      WEBHOOK_URL: "https://bot.example.com/telegram",
      WEBHOOK_SECRET: "a-webhook-secret",
    });
    const stderr = stderrOf(child);
    const [code] = await once(child, "exit");
    expect({ code, stderr: stderr().trim() }).toEqual({
      code: 2,
      stderr: `PORT ${port} cannot be listened on (another program uses it): free it or set PORT to another port.`,
    });
  }, 30_000);
});

describe("npm start, when Telegram is not what .env says", () => {
  const w = processWorld();

  async function exitOf(
    child: ChildProcess,
    stderr: () => string,
  ): Promise<{ code: unknown; stderr: string }> {
    const [code] = await once(child, "exit");
    return { code, stderr: stderr().trim() };
  }

  it("refuses .env.example's placeholder token with one sentence", async () => {
    const child = spawnStart(ROOT, {
      ...w().env,
      BOT_TOKEN: "123456789:replace-with-your-token-from-botfather",
    });
    expect(await exitOf(child, stderrOf(child))).toEqual({
      code: 2,
      stderr:
        "BOT_TOKEN is still the placeholder from .env.example: put the token @BotFather gave you there.",
    });
  }, 30_000);

  it("stops with one sentence, not a stack trace, when Telegram refuses the token", async () => {
    const child = spawnStart(ROOT, { ...w().env, BOT_TOKEN: "123456789:AAH-a-token-telegram-does-not-know" });
    expect(await exitOf(child, stderrOf(child))).toEqual({
      code: 2,
      stderr:
        "BOT_TOKEN was refused by Telegram (401): copy the token @BotFather gave you (/mybots → API Token) into BOT_TOKEN.",
    });
  }, 30_000);

  it("says in one info line that it cannot reach Telegram, and keeps running to try again", async () => {
    const child = spawnStart(
      ROOT,
      { ...w().env, TELEGRAM_API_ROOT: await closedPortUrl(), LOG_LEVEL: "info" },
      { stdout: true },
    );
    const stderr = stderrOf(child);
    try {
      let stdout = "";
      const line = await new Promise<Record<string, unknown>>((resolve) => {
        child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          const found = stdout.split("\n").find((l) => l.includes("cannot reach Telegram"));
          if (found) resolve(JSON.parse(found) as Record<string, unknown>);
        });
      });
      expect(line).toMatchObject({ level: 30, reason: "ECONNREFUSED", retryInSeconds: 2 });
      expect(child.exitCode).toBe(null);
    } finally {
      // Nothing runs yet that a stop would have to finish: ending on the signal is right.
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code, signal] = await exited;
      expect([code, signal], stderr()).toEqual(code === 0 ? [0, null] : [null, "SIGTERM"]);
    }
  }, 30_000);
});

describe("npm start in partner mode", () => {
  const w = processWorld({
    EXCHANGE_MODE: "partner",
    PARTNER_EMAIL: PARTNER_SERVICE.email,
    PARTNER_PASSWORD: PARTNER_SERVICE.password,
    PARTNER_TOTP_SECRET: PARTNER_SERVICE.totpSecret,
    OPERATOR_IDS: "9001",
    SUPPORT_CONTACT: "@acme_support",
    TERMS_URL: "https://acme.example/terms",
  });

  it("serves a new customer from /start through sign-up", async () => {
    const child = spawnStart(ROOT, w().env);
    const stderr = stderrOf(child);
    try {
      const menu = await w().telegram.waitForCall("setMyCommands");
      const commands = (menu.payload.commands as { command: string }[]).map((c) => c.command);
      expect(commands).toContain("verify");
      expect(commands).not.toContain("login");

      const user = w().telegram.user(777);
      await user.send("/start");
      await user.waitForReply(/e-mail address/, 20_000);
      await user.send("newcomer@example.com");
      await user.waitForReply(/first name/);
      await user.send("Nia");
      await user.waitForReply(/surname/);
      await user.send("Newcomer");
      await user.waitForReply(/phone number/);
      await user.sendContact({ phone: "+4915112345678", userId: user.id });
      await user.tap("✅ I agree", await user.waitForReply(/terms/));
      await user.waitForReply(/6-digit PIN/);
      await user.send("864200");
      await user.waitForReply(/same PIN again/);
      await user.send("864200");
      expect((await user.waitForReply(/is open/, 20_000)).text).toContain("/verify");

      const created = w().sandbox.state.accountByEmail("newcomer@example.com");
      expect(created?.partner?.phone).toBe("+4915112345678");
      expect(w().sandbox.countRequests("POST", "/v1/auth/login")).toBe(1);

      await user.send("/help");
      expect((await user.waitForReply()).text).toContain("/verify – verify your identity");
    } finally {
      expect(await stop(child), stderr()).toBe(0);
    }
  }, 60_000);

  it("stops with the sentence naming a bad partner variable", async () => {
    const child = spawnStart(ROOT, { ...w().env, SUPPORT_CONTACT: "call us" });
    const stderr = stderrOf(child);
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr().trim()).toBe(
      'SUPPORT_CONTACT must be an @handle, an e-mail address or an http(s) URL, not "call us".',
    );
  }, 30_000);
});
