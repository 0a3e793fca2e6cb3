/**
 * The webhook server when the process shuts down (a `Draining` that started): an update in flight
 * finishes and its request gets 200 on a connection that then closes, a new webhook request gets
 * 503 (Telegram delivers it again elsewhere), an idle keep-alive connection is closed, and
 * `close()` resolves only once the answers under way are out. And bodies over the limit get 413,
 * from Content-Length before a byte is read, or where a chunked body crosses it.
 *
 * The bot is a plain grammY bot on the Bot API double whose one handler waits for the test to let
 * it go, so "in flight" is a state the test holds, not a race with a timer.
 */
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import type { Socket } from "node:net";
import { Bot } from "grammy";
import { afterEach, beforeAll, afterAll as cleanup, describe, expect, it } from "vitest";
import type { BotContext } from "../src/bot/context.ts";
import { Draining } from "../src/process/draining.ts";
import { startWebhookServer, WEBHOOK_BODY_LIMIT, type WebhookServer } from "../src/process/webhook.ts";
import { type BotApiDouble, startBotApiDouble } from "../src/telegram-double/index.ts";

const SECRET = "drain-secret";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** POSTs `body` to `url` (on `agent`'s connections), resolves with the whole answer. */
function post(
  url: string,
  body: string,
  agent: Agent,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "x-telegram-bot-api-secret-token": SECRET,
          "content-length": String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let nextUpdateId = 1;
function message(text: string): string {
  return JSON.stringify({
    update_id: nextUpdateId++,
    message: {
      message_id: nextUpdateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 4242, type: "private", first_name: "Dee" },
      from: { id: 4242, is_bot: false, first_name: "Dee" },
      text,
    },
  });
}

describe("the webhook server while the process shuts down", () => {
  let telegram: BotApiDouble;
  beforeAll(async () => {
    telegram = await startBotApiDouble();
    // The chat the updates come from exists on the Telegram side, so the bot's replies land.
    telegram.user(4242);
  });
  cleanup(async () => {
    await telegram.close();
  });

  let server: WebhookServer | undefined;
  let agent: Agent;
  afterEach(async () => {
    agent?.destroy();
    await server?.close();
  });

  /** A bot whose handler holds each update until `release()`; `entered` resolves when one is held. */
  async function start(): Promise<{
    draining: Draining;
    handled: string[];
    entered: () => Promise<void>;
    release: () => void;
  }> {
    const bot = new Bot<BotContext>(telegram.token, {
      botInfo: telegram.botInfo,
      client: { apiRoot: telegram.apiRoot },
    });
    const handled: string[] = [];
    let gate = Promise.withResolvers<void>();
    let arrived = Promise.withResolvers<void>();
    bot.on("message:text", async (ctx) => {
      arrived.resolve();
      await gate.promise;
      await ctx.reply(`done: ${ctx.message.text}`);
      handled.push(ctx.message.text);
    });
    const draining = new Draining();
    server = await startWebhookServer(bot, {
      port: 0,
      host: "127.0.0.1",
      path: "/telegram",
      secret: SECRET,
      draining,
    });
    agent = new Agent({ keepAlive: true, maxSockets: 4 });
    return {
      draining,
      handled,
      entered: async () => {
        await arrived.promise;
        arrived = Promise.withResolvers<void>();
      },
      release: () => {
        gate.resolve();
        gate = Promise.withResolvers<void>();
      },
    };
  }

  it("finishes the update in flight with 200, answers a new one 503, and close() waits for the answer", async () => {
    const bot = await start();
    const url = server?.url ?? "";
    const inFlight = post(url, message("slow"), agent);
    await bot.entered();

    bot.draining.start();
    const refused = await post(url, message("late"), new Agent());
    expect(refused.status).toBe(503);
    expect(refused.headers.connection).toBe("close");

    let closed = false;
    const closing = server?.close().then(() => {
      closed = true;
    });
    // The 503 came and went; the update in flight is still held, so the server is not closed yet.
    expect(closed).toBe(false);

    bot.release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    // Its connection closes after this answer: the balancer opens a new one elsewhere.
    expect(answer.headers.connection).toBe("close");
    await closing;
    expect(closed).toBe(true);
    expect(bot.handled).toEqual(["slow"]);
    expect(telegram.calls.filter((c) => c.method === "sendMessage").map((c) => c.payload.text)).toContain(
      "done: slow",
    );
  });

  it("closes an idle keep-alive connection when the shutdown begins, and keeps the busy one to its answer", async () => {
    const bot = await start();
    const url = server?.url ?? "";
    // Two connections: one finishes a request and sits idle, the other carries an update in flight.
    const first = post(url, message("one"), agent);
    await bot.entered();
    const second = post(url, message("two"), agent);
    bot.release();
    await bot.entered();
    expect((await first).status).toBe(200);
    const sockets = Object.values(agent.freeSockets).flat() as Socket[];
    expect(sockets).toHaveLength(1);
    const idleClosed = new Promise((resolve) => sockets[0]?.once("close", resolve));

    bot.draining.start();
    await idleClosed;
    bot.release();
    const answer = await second;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe("close");
    expect(bot.handled).toEqual(["one", "two"]);
  });
});

describe("webhook body limit", () => {
  let telegram: BotApiDouble;
  let server: WebhookServer;
  const handled: string[] = [];
  beforeAll(async () => {
    telegram = await startBotApiDouble();
    const bot = new Bot<BotContext>(telegram.token, {
      botInfo: telegram.botInfo,
      client: { apiRoot: telegram.apiRoot },
    });
    bot.on("message:text", (ctx) => {
      handled.push(ctx.message.text);
    });
    server = await startWebhookServer(bot, { port: 0, host: "127.0.0.1", path: "/telegram", secret: SECRET });
  });
  cleanup(async () => {
    await server.close();
    await telegram.close();
  });

  it("takes an ordinary update", async () => {
    expect((await post(server.url, message("/help"), new Agent())).status).toBe(200);
    expect(handled).toContain("/help");
  });

  it("refuses a declared length over 1 MiB with 413 before reading the body", async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-telegram-bot-api-secret-token": SECRET,
          "content-length": String(10 * 1024 * 1024),
        },
      });
      req.on("response", (res) => resolve(res.statusCode ?? 0));
      req.on("error", reject);
      // Only the headers go out: the answer comes without the body ever being sent.
      req.flushHeaders();
    });
    expect(answer).toBe(413);
  });

  it("stops reading a chunked body where it crosses the limit, with 413", async () => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    const result = await new Promise<{ status: number; sent: number }>((resolve) => {
      let sent = 0;
      let status = 0;
      const req = request(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
      });
      req.on("response", (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      // The server cuts the connection once it answered: the sender's writes fail from then on.
      req.on("close", () => resolve({ status, sent }));
      req.on("error", () => {});
      const pump = () => {
        while (sent < 10 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.sent).toBeGreaterThan(WEBHOOK_BODY_LIMIT);
    expect(result.sent).toBeLessThan(10 * 1024 * 1024);
    expect(handled).not.toContain("x");
  });
});
