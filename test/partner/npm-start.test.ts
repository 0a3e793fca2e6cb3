/**
 * `npm start` (src/main.ts, a real child process) with EXCHANGE_MODE=partner against the sandbox
 * and the Bot API double: it logs in with the partner's service account, sets the partner command
 * menu, and serves a new customer from /start through sign-up. A bad partner variable stops it with
 * its sentence.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNER_SERVICE } from "../../src/sandbox/seed.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Vault } from "../../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";

describe("npm start in partner mode", () => {
  let sandbox: Sandbox;
  let telegram: BotApiDouble;
  let folder: string;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    telegram = await startBotApiDouble({ token: "123456789:TEST-double-token-for-npm-start" });
    folder = mkdtempSync(join(tmpdir(), "bot-start-"));
    env = {
      ...process.env,
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      EXCHANGE_API_URL: sandbox.url,
      EXCHANGE_CLIENT_ID: String(sandbox.clientId),
      EXCHANGE_CLIENT_SECRET: sandbox.clientSecret,
      SECRETS_KEY: Vault.generateKey(),
      STORE_URL: `sqlite://${join(folder, "bot.sqlite")}`,
      LOG_LEVEL: "silent",
      EXCHANGE_MODE: "partner",
      PARTNER_EMAIL: PARTNER_SERVICE.email,
      PARTNER_PASSWORD: PARTNER_SERVICE.password,
      PARTNER_TOTP_SECRET: PARTNER_SERVICE.totpSecret,
      OPERATOR_IDS: "9001",
      SUPPORT_CONTACT: "@acme_support",
    };
  });
  afterAll(async () => {
    await telegram?.close();
    await sandbox?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function stop(child: ChildProcess): Promise<number | null> {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    return code as number | null;
  }

  it("serves a new customer from /start through sign-up", async () => {
    const child = spawn(process.execPath, ["src/main.ts"], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    try {
      const menu = await telegram.waitForCall("setMyCommands");
      const commands = (menu.payload.commands as { command: string }[]).map((c) => c.command);
      expect(commands).toContain("verify");
      expect(commands).not.toContain("login");

      const user = telegram.user(777);
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

      const created = sandbox.state.accountByEmail("newcomer@example.com");
      expect(created?.partner?.phone).toBe("+4915112345678");
      expect(sandbox.countRequests("POST", "/v1/auth/login")).toBe(1);

      await user.send("/help");
      expect((await user.waitForReply()).text).toContain("/verify – verify your identity");
    } finally {
      expect(await stop(child), stderr).toBe(0);
    }
  }, 60_000);

  it("stops with the sentence naming a bad partner variable", async () => {
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: { ...env, SUPPORT_CONTACT: "call us" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'SUPPORT_CONTACT must be an @handle, an e-mail address or an http(s) URL, not "call us".',
    );
  }, 30_000);
});
