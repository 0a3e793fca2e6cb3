import { Api, GrammyError, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryingFetch } from "../../src/bot/transport/telegram-fetch.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";

describe("retryingFetch: Bot API 429s retried beneath grammY", () => {
  // The double's flood limits run on this clock: a retry's wait moves it instead of sleeping.
  const clock = new ManualClock(Date.parse("2026-01-01T00:00:00Z"));
  let telegram: BotApiDouble;
  beforeAll(async () => {
    // Telegram's figures: one message per second per private chat.
    telegram = await startBotApiDouble({ limits: {}, limitsClock: clock });
    telegram.user(42);
  });
  afterAll(async () => {
    await telegram.close();
  });

  it("waits retry_after and sends again, so the caller sees only the success", async () => {
    const waits: number[] = [];
    const api = new Api(telegram.token, {
      apiRoot: telegram.apiRoot,
      fetch: retryingFetch({
        sleep: async (ms) => {
          waits.push(ms);
          clock.advance(ms);
        },
      }),
    });
    const before = telegram.stats.rateLimited;
    const first = await api.sendMessage(42, "one");
    const second = await api.sendMessage(42, "two");
    expect(second.message_id).toBe(first.message_id + 1);
    expect(telegram.stats.rateLimited - before).toBe(1);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
  });

  it("does not resend an upload (its body is a used-up stream): the 429 reaches the caller", async () => {
    const api = new Api(telegram.token, {
      apiRoot: telegram.apiRoot,
      fetch: retryingFetch({ sleep: async () => {} }),
    });
    clock.advance(1100); // the chat's last second is over
    await api.sendMessage(42, "fill the second");
    const error = await api
      .sendPhoto(42, new InputFile(Buffer.from("png"), "a.png"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(429);
  });

  it("gives a long retry_after back to the caller instead of waiting it out", async () => {
    const waits: number[] = [];
    const api = new Api(telegram.token, {
      apiRoot: telegram.apiRoot,
      fetch: retryingFetch({
        maxDelaySeconds: 0,
        sleep: async (ms) => {
          waits.push(ms);
        },
      }),
    });
    clock.advance(1100); // the chat's last second is over
    await api.sendMessage(42, "a");
    const error = await api.sendMessage(42, "b").catch((e: unknown) => e);
    expect((error as GrammyError).error_code).toBe(429);
    expect(waits).toEqual([]);
  });
});
