/**
 * Webhook mode (rule 7): requests without the right secret get 401 and change nothing; with it,
 * the update is handled. Telegram's side is the Bot API double, which delivers to the webhook
 * with the secret header once setWebhook named one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBot } from "../src/bot/bot.ts";
import { createServices, type Services } from "../src/process/services.ts";
import { startWebhookServer, type WebhookServer } from "../src/process/webhook.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { Vault } from "../src/store/vault.ts";
import { ManualClock } from "../src/support/clock.ts";
import { silentLogger } from "../src/support/logger.ts";
import { type BotApiDouble, startBotApiDouble } from "../src/telegram-double/index.ts";
import { WEBAPP_LOGIN_PATH, webAppRoutes } from "../src/webapp/routes.ts";

const SECRET = "hook-secret_123";

describe("webhook mode", () => {
  let sandbox: Sandbox;
  let telegram: BotApiDouble;
  let services: Services;
  let server: WebhookServer;

  beforeAll(async () => {
    const clock = new ManualClock();
    sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
    telegram = await startBotApiDouble({ clock });
    services = await createServices(
      {
        exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
        storeUrl: "memory://",
        secretsKey: Vault.generateKey(),
        defaultLocale: "en",
        telegramApiRoot: telegram.apiRoot,
      },
      { clock, log: silentLogger },
    );
    const bot = createBot(services.deps, {
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
    });
    // The Mini App login page rides on the same server (WEBAPP_URL in webhook mode).
    server = await startWebhookServer(bot, {
      port: 0,
      host: "127.0.0.1",
      path: "/telegram",
      secret: SECRET,
      routes: [webAppRoutes({ deps: services.deps, botToken: telegram.token, api: bot.api })],
    });
    await bot.api.setWebhook(server.url, { secret_token: SECRET });
  });

  afterAll(async () => {
    await server.close();
    await services.close();
    await telegram.close();
    await sandbox.close();
  });

  const update = (text: string) => ({
    update_id: 999_001,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 777, type: "private", first_name: "Eve" },
      from: { id: 777, is_bot: false, first_name: "Eve" },
      text,
      entities: [{ type: "bot_command", offset: 0, length: text.length }],
    },
  });

  it.each([
    ["no secret", {}],
    ["a wrong secret", { "x-telegram-bot-api-secret-token": "guess" }],
    ["a secret of the right length but wrong", { "x-telegram-bot-api-secret-token": "hook-secret_124" }],
  ])("answers 401 to a request with %s and changes nothing", async (_name, headers) => {
    const callsBefore = telegram.calls.length;
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(update("/start")),
    });
    expect(response.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(telegram.calls.length).toBe(callsBefore);
    expect(await services.deps.store.keys("")).toEqual([]);
  });

  it("handles an update delivered with the secret", async () => {
    const eve = telegram.user(778);
    await eve.send("/help");
    expect((await eve.waitForReply()).text).toContain("What I can do");
  });

  it("answers the health check", async () => {
    const response = await fetch(server.url.replace("/telegram", "/healthz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("refuses to start without a secret", async () => {
    const bot = createBot(services.deps, {
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
    });
    await expect(startWebhookServer(bot, { port: 0, path: "/telegram", secret: "" })).rejects.toThrow(
      /WEBHOOK_SECRET/,
    );
  });

  it("serves the Mini App login page on the same server as the webhook", async () => {
    const base = new URL(server.url).origin;
    const page = await fetch(`${base}${WEBAPP_LOGIN_PATH}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="login"');
    const post = await fetch(`${base}${WEBAPP_LOGIN_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ initData: "forged", email: "a@b.cd", password: "x", code: "123456" }),
    });
    expect(post.status).toBe(401);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });
});
