import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot, webhookCallback } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BotApiDouble, startBotApiDouble } from "../support/chat.ts";

let double: BotApiDouble;
let server: Server | undefined;

beforeEach(async () => {
  double = await startBotApiDouble();
});

afterEach(async () => {
  await double.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves the bot's webhook on loopback, recording the headers of every delivery. */
async function serveWebhook(bot: Bot, secretToken: string, options: { webhookReply?: boolean } = {}) {
  const headers: IncomingHttpHeaders[] = [];
  const handle = webhookCallback(bot, "http", { secretToken, ...options });
  server = createServer((req, res) => {
    headers.push(req.headers);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, headers };
}

describe("webhook delivery", () => {
  it("POSTs updates to the webhook with the secret header, and the bot's replies come back", async () => {
    const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
    bot.command("start", (ctx) => ctx.reply("via webhook"));
    const hook = await serveWebhook(bot, "s3cret-token");
    await bot.api.setWebhook(hook.url, { secret_token: "s3cret-token" });
    expect(await bot.api.getWebhookInfo()).toMatchObject({ url: hook.url, pending_update_count: 0 });

    const ada = double.user(42);
    await ada.send("/start");
    expect((await ada.waitForReply()).text).toBe("via webhook");
    expect(hook.headers[0]?.["x-telegram-bot-api-secret-token"]).toBe("s3cret-token");
    await double.waitUntilIdle();
    expect(double.pendingUpdates).toBe(0);
  });

  it("executes a method call sent back in the webhook's response (grammY's webhookReply)", async () => {
    const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
    bot.on("message", (ctx) => ctx.reply("in the response body"));
    const hook = await serveWebhook(bot, "abc", { webhookReply: true });
    await bot.api.setWebhook(hook.url, { secret_token: "abc" });
    const ada = double.user(42);
    await ada.send("hi");
    expect((await ada.waitForReply()).text).toBe("in the response body");
  });

  it("delivers nothing twice when the same webhook is set again while a delivery is under way", async () => {
    const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
    const gate = Promise.withResolvers<void>();
    const arrived = Promise.withResolvers<void>();
    bot.on("message", async (ctx) => {
      arrived.resolve();
      await gate.promise;
      await ctx.reply("once");
    });
    const hook = await serveWebhook(bot, "same");
    await bot.api.setWebhook(hook.url, { secret_token: "same" });
    const ada = double.user(42);
    await ada.send("hi");
    await arrived.promise;
    // A second instance of the same deploy starts and sets the same webhook.
    await bot.api.setWebhook(hook.url, { secret_token: "same" });
    gate.resolve();
    expect((await ada.waitForReply()).text).toBe("once");
    await double.waitUntilIdle({ quietMs: 300 });
    expect(hook.headers).toHaveLength(1);
    expect(ada.messages().map((m) => m.text)).toEqual(["once"]);
    expect(double.pendingUpdates).toBe(0);
  });

  it("keeps retrying while the webhook refuses (wrong secret), and reports the error", async () => {
    const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
    const hook = await serveWebhook(bot, "right");
    await bot.api.setWebhook(hook.url, { secret_token: "wrong" });
    await double.user(42).send("hi");
    await expect.poll(() => hook.headers.length).toBeGreaterThanOrEqual(2);
    const info = await bot.api.getWebhookInfo();
    expect(info.pending_update_count).toBe(1);
    expect(info.last_error_message).toMatch(/401/);
  });

  it("refuses getUpdates while a webhook is set, until deleteWebhook drops the pending updates", async () => {
    const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
    await bot.api.setWebhook("http://127.0.0.1:9/unreachable");
    await double.user(42).send("hi");
    await expect(bot.api.getUpdates()).rejects.toMatchObject({
      error_code: 409,
      description:
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    await bot.api.deleteWebhook({ drop_pending_updates: true });
    expect(await bot.api.getUpdates()).toEqual([]);
  });
});
