import { Api, GrammyError, HttpError } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiDeliveryQueue } from "../../src/notify/notifier.ts";
import { DeliveryQueue, type Outgoing } from "../../src/notify/queue.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";
import { drainQueue } from "../support/virtual-delivery.ts";

function apiError(code: number, description: string, retryAfter?: number): GrammyError {
  return new GrammyError(
    description,
    {
      ok: false,
      error_code: code,
      description,
      ...(retryAfter ? { parameters: { retry_after: retryAfter } } : {}),
    },
    "sendMessage",
    {},
  );
}

describe("DeliveryQueue against the Bot API double with Telegram's limits on", () => {
  // The double measures Telegram's limits on the same virtual time the queue paces itself by.
  const timers = new ManualTimers(Date.parse("2026-01-01T00:00:00Z"));
  let double: BotApiDouble;
  beforeAll(async () => {
    double = await startBotApiDouble({ limits: {}, limitsClock: timers });
  });
  afterAll(async () => {
    await double.close();
  });

  it("delivers 200 messages to 20 chats, all of them, in order per chat, any 429 handled", async () => {
    const chats = Array.from({ length: 20 }, (_, i) => 5000 + i);
    for (const id of chats) double.user(id);
    const queue = apiDeliveryQueue(new Api(double.token, { apiRoot: double.apiRoot }), { timers });
    const started = timers.now();
    for (let n = 0; n < 10; n++) {
      for (const chatId of chats) queue.enqueue({ chatId, text: `notice ${n} for ${chatId}` });
    }
    expect(queue.pending).toBe(200);
    await drainQueue(queue, timers);
    await queue.idle();
    const elapsed = timers.now() - started;

    expect(queue.stats).toMatchObject({ sent: 200, failed: 0, blocked: 0 });
    // Paced under the limits, so 429s are rare (on real time: only when a loaded machine delays one
    // request's arrival more than the next one's). Any that happen are the queue's to handle.
    expect(double.stats.rateLimited).toBeLessThanOrEqual(3);
    expect(queue.stats.rateLimited).toBe(double.stats.rateLimited);
    for (const chatId of chats) {
      expect(double.messages(chatId).map((m) => m.text)).toEqual(
        Array.from({ length: 10 }, (_, n) => `notice ${n} for ${chatId}`),
      );
      const times = double.calls
        .filter((c) => c.method === "sendMessage" && c.chatId === chatId && c.ok)
        .map((c) => c.at);
      for (let i = 1; i < times.length; i++) {
        expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(1000);
      }
    }
    // Ten per chat at one a second: at least nine seconds, and not much more.
    expect(elapsed).toBeGreaterThanOrEqual(9000);
    await queue.stop();
  });
});

describe("DeliveryQueue errors", () => {
  const fast = { globalPerSecond: 1000, perChatIntervalMs: 5 };
  const virtual = () => new ManualTimers(Date.parse("2026-01-01T00:00:00Z"));

  it("retries a 429 after retry_after and loses nothing", async () => {
    const attempts = new Map<string, number>();
    const sent: string[] = [];
    const timers = virtual();
    const queue = new DeliveryQueue({
      ...fast,
      timers,
      send: async (m: Outgoing) => {
        const n = (attempts.get(m.text) ?? 0) + 1;
        attempts.set(m.text, n);
        if (m.text === "b" && n === 1) throw apiError(429, "Too Many Requests: retry after 1", 1);
        sent.push(m.text);
      },
    });
    const started = timers.now();
    for (const text of ["a", "b", "c"]) queue.enqueue({ chatId: 1, text });
    queue.enqueue({ chatId: 2, text: "d" });
    await drainQueue(queue, timers);
    await queue.idle();
    expect(sent).toEqual(["a", "d", "b", "c"]);
    expect(timers.now() - started).toBeGreaterThanOrEqual(950);
    expect(queue.stats).toMatchObject({ sent: 4, rateLimited: 1, failed: 0 });
  });

  it("a 403 drops the chat's notices, tells onBlocked once, and is not retried", async () => {
    const blocked: number[] = [];
    let tries = 0;
    const sent: string[] = [];
    const timers = virtual();
    const queue = new DeliveryQueue({
      ...fast,
      timers,
      send: async (m) => {
        if (m.chatId === 7) {
          tries++;
          throw apiError(403, "Forbidden: bot was blocked by the user");
        }
        sent.push(m.text);
      },
      onBlocked: (chatId) => {
        blocked.push(chatId);
      },
    });
    for (const text of ["x1", "x2", "x3"]) queue.enqueue({ chatId: 7, text });
    queue.enqueue({ chatId: 8, text: "y" });
    await drainQueue(queue, timers);
    await queue.idle();
    // onBlocked is told after the drop, on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(tries).toBe(1);
    expect(blocked).toEqual([7]);
    expect(sent).toEqual(["y"]);
    expect(queue.stats).toMatchObject({ sent: 1, blocked: 3, failed: 0 });
  });

  it("drops a 400 at once, retries network errors and 5xx with backoff", async () => {
    const seen = new Map<string, number>();
    const timers = virtual();
    const queue = new DeliveryQueue({
      ...fast,
      timers,
      send: async (m) => {
        const n = (seen.get(m.text) ?? 0) + 1;
        seen.set(m.text, n);
        if (m.text === "bad") throw apiError(400, "Bad Request: chat not found");
        if (m.text === "flaky" && n === 1)
          throw new HttpError("Network request failed", new Error("ECONNRESET"));
        if (m.text === "flaky" && n === 2) throw apiError(502, "Bad Gateway");
      },
    });
    queue.enqueue({ chatId: 1, text: "bad" });
    queue.enqueue({ chatId: 2, text: "flaky" });
    await drainQueue(queue, timers);
    await queue.idle();
    expect(seen.get("bad")).toBe(1);
    expect(seen.get("flaky")).toBe(3);
    expect(queue.stats).toMatchObject({ sent: 1, failed: 1, retried: 2 });
  });

  it("paces the overall rate and one chat's messages", async () => {
    const at: Array<{ chatId: number; t: number }> = [];
    const timers = virtual();
    const queue = new DeliveryQueue({
      globalPerSecond: 100,
      perChatIntervalMs: 100,
      timers,
      send: async (m) => {
        at.push({ chatId: m.chatId, t: timers.now() });
      },
    });
    for (let i = 0; i < 30; i++) queue.enqueue({ chatId: i % 3, text: String(i) });
    await drainQueue(queue, timers);
    await queue.idle();
    // 30 messages at 100/s: ≥ ~290 ms; each chat's 10 at one per 100 ms: ≥ ~900 ms.
    const span = (at.at(-1)?.t ?? 0) - (at[0]?.t ?? 0);
    expect(span).toBeGreaterThanOrEqual(880);
    for (let i = 1; i < at.length; i++)
      expect((at[i]?.t ?? 0) - (at[i - 1]?.t ?? 0)).toBeGreaterThanOrEqual(7);
  });
});
