/**
 * `npm start` as it runs in production (dist/, built here as its prestart builds it, with the start
 * script's Node flags and environment; a real child process) against the sandbox and the Bot API
 * double. Account mode: it answers /start and /help and stops cleanly on SIGTERM. Partner mode
 * (EXCHANGE_MODE=partner): it logs in with the partner's service account, sets the partner command
 * menu, and serves a new customer from /start through sign-up; a bad partner variable stops it with
 * its sentence.
 */
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNER_SERVICE } from "../src/sandbox/seed.ts";
import { outputOf, type ProcessWorld, startProcessWorld, stopProcess } from "./support/bot-process.ts";
import { buildForStart, spawnStart } from "./support/start-command.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

beforeAll(() => buildForStart(ROOT), 60_000);

/** A sandbox exchange, a Bot API double and a store folder of their own, for one bot process. */
function world(extra: Record<string, string> = {}): () => ProcessWorld {
  let current: ProcessWorld | undefined;
  beforeAll(async () => {
    current = await startProcessWorld(extra);
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (current === undefined) throw new Error("world() is ready only inside its tests");
    return current;
  };
}

describe("npm start", () => {
  const w = world();

  it("answers /start and /help, and stops cleanly on SIGTERM", async () => {
    const child = spawnStart(ROOT, w().env);
    const stderr = outputOf(child);
    try {
      const user = w().telegram.user(778);
      await user.send("/start");
      expect((await user.waitForReply(/Welcome/, 20_000)).buttons.flat()).toContain("🔐 Log in");
      await user.send("/help");
      expect((await user.waitForReply(/What I can do/)).text).toContain("/balance");
    } finally {
      expect(await stopProcess(child), stderr()).toBe(0);
    }
  }, 60_000);
});

describe("npm start in partner mode", () => {
  const w = world({
    EXCHANGE_MODE: "partner",
    PARTNER_EMAIL: PARTNER_SERVICE.email,
    PARTNER_PASSWORD: PARTNER_SERVICE.password,
    PARTNER_TOTP_SECRET: PARTNER_SERVICE.totpSecret,
    OPERATOR_IDS: "9001",
    SUPPORT_CONTACT: "@acme_support",
  });

  it("serves a new customer from /start through sign-up", async () => {
    const child = spawnStart(ROOT, w().env);
    const stderr = outputOf(child);
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
      expect(await stopProcess(child), stderr()).toBe(0);
    }
  }, 60_000);

  it("stops with the sentence naming a bad partner variable", async () => {
    const child = spawnStart(ROOT, { ...w().env, SUPPORT_CONTACT: "call us" });
    const stderr = outputOf(child);
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr().trim()).toBe(
      'SUPPORT_CONTACT must be an @handle, an e-mail address or an http(s) URL, not "call us".',
    );
  }, 30_000);
});
