/**
 * npm start's first call to Telegram: a refused token is one sentence; an unreachable Bot API is
 * said at info within one attempt's time and tried again until it answers. Real HTTP on loopback
 * (the Bot API double, and a raw server that drops or stalls); the pauses between attempts are
 * injected, so nothing here sleeps.
 */
import { Writable } from "node:stream";
import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { retryingFetch } from "../src/bot/transport/telegram-fetch.ts";
import { connectTelegram, TokenRefusedError } from "../src/process/connect-telegram.ts";
import { createLogger } from "../src/support/logger.ts";
import { startBotApiDouble } from "../src/telegram-double/index.ts";
import {
  drop,
  json,
  type RawServer,
  type Responder,
  sequence,
  stalled,
  startRawServer,
} from "./support/raw-server.ts";

const TOKEN = "123456789:AAH-connect-telegram-test-token";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger("info", stream), lines };
}

async function telegramThat(...responders: Responder[]): Promise<RawServer> {
  const server = await startRawServer(sequence(...responders));
  closers.push(server.close);
  return server;
}

const getMe = json(200, {
  ok: true,
  result: { id: 123456789, is_bot: true, first_name: "Exchange", username: "exchange_bot" },
});

function botAt(apiRoot: string, token = TOKEN): Bot {
  return new Bot(token, { client: { apiRoot, fetch: retryingFetch() } });
}

describe("connecting to Telegram at start-up", () => {
  it("turns a refused token into one sentence, without retrying", async () => {
    const telegram = await startBotApiDouble({ token: TOKEN });
    closers.push(() => telegram.close());
    const { log, lines } = capture();
    const error = await connectTelegram(botAt(telegram.apiRoot, "123456789:AAH-some-other-token-0000"), {
      log,
      apiRoot: telegram.apiRoot,
      wait: async () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRefusedError);
    expect((error as Error).message).toBe(
      "BOT_TOKEN was refused by Telegram (401): copy the token @BotFather gave you (/mybots → API Token) into BOT_TOKEN.",
    );
    expect(lines).toEqual([]);
  });

  it("says at info that Telegram cannot be reached, names why, and keeps trying until it answers", async () => {
    const server = await telegramThat(drop(), drop(), getMe);
    const { log, lines } = capture();
    const pauses: number[] = [];
    const bot = botAt(server.url);
    await connectTelegram(bot, { log, apiRoot: server.url, wait: async (ms) => pauses.push(ms) });
    expect(bot.botInfo.username).toBe("exchange_bot");
    expect(pauses).toEqual([2_000, 5_000]);
    const tries = lines.filter((line) => line.msg === "cannot reach Telegram; trying again");
    expect(tries).toHaveLength(2);
    expect(tries[0]).toMatchObject({ level: 30, apiRoot: server.url, retryInSeconds: 2 });
    expect(String(tries[0]?.reason)).toMatch(/ECONNRESET|socket|closed/i);
    expect(lines.at(-1)).toMatchObject({ msg: "reached Telegram", attempts: 3 });
  });

  it("gives up one attempt after attemptMs when Telegram accepts the connection and never answers", async () => {
    const server = await telegramThat(stalled(200, ""), getMe);
    const { log, lines } = capture();
    const bot = botAt(server.url);
    await connectTelegram(bot, { log, apiRoot: server.url, attemptMs: 300, wait: async () => {} });
    expect(lines[0]).toMatchObject({
      msg: "cannot reach Telegram; trying again",
      reason: "no answer in time",
    });
    expect(bot.botInfo.username).toBe("exchange_bot");
  });
});
