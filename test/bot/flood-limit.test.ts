import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedCall } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe("flood limit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ floodLimit: { max: 3, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers a user's first messages, says 'slow down' once, then drops the rest", async () => {
    const flooder = h.user();
    for (let i = 0; i < 6; i++) await flooder.send("/help");
    await flooder.waitForReply(/very fast/);
    await h.telegram.waitUntilIdle();
    const texts = flooder.messages().map((m) => m.text);
    expect(texts.filter((t) => t.startsWith("What I can do"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("very fast"))).toHaveLength(1);
    expect(texts).toHaveLength(4);
    // Other users are not slowed down by one user's flood.
    const calm = h.user();
    await calm.send("/help");
    await calm.waitForReply(/What I can do/);
  });
  it("answers every tap it drops with a short 'slow down', so no button is left spinning", async () => {
    const tapper = h.user();
    await tapper.send("/help");
    const help = await tapper.waitForReply(/What I can do/);
    // Every answer the double gives, from before the first tap on.
    const answered = new Map<string, RecordedCall>();
    let asked = new Set<string>();
    let allAnswered = () => {};
    const done = new Promise<void>((resolve) => {
      allAnswered = resolve;
    });
    const stopListening = h.telegram.on("call", (c) => {
      if (c.method !== "answerCallbackQuery" || !c.ok) return;
      answered.set(String(c.payload.callback_query_id), c);
      if (asked.size === 100 && [...asked].every((id) => answered.has(id))) allAnswered();
    });
    // 100 taps at once (faster than Telegram would let a thumb): the limit is 3 per minute here.
    const ids = await Promise.all(
      Array.from({ length: 100 }, (_, i) => tapper.tapData(help.messageId, `from-an-old-version:${i}`)),
    );
    asked = new Set(ids);
    if (ids.every((id) => answered.has(id))) allAnswered();
    // Once all 100 are answered; a tap left spinning fails at the deadline, with the count.
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    stopListening();
    expect(ids.filter((id) => answered.has(id))).toHaveLength(100);
    const answers = ids.map((id) => answered.get(id) as RecordedCall);
    // Two taps fit in the limit with the /help (handled: an old button); the other 98 were dropped.
    const slowDown = answers.filter((c) => c.payload.text === "Slow down, please: wait a few seconds.");
    expect(slowDown).toHaveLength(98);
    expect(tapper.messages().filter((m) => m.text.includes("very fast"))).toHaveLength(1);
  });

  it("says it in German to a German user", async () => {
    const jan = h.user(undefined, { languageCode: "de" });
    for (let i = 0; i < 3; i++) await jan.send("/help");
    // The tap comes after the three /help (one user's updates are handled in order): over the limit.
    const help = await jan.waitForReply(/Was ich kann/);
    const id = await jan.tapData(help.messageId, "from-an-old-version:1");
    const answer = await h.telegram.waitForCall(
      "answerCallbackQuery",
      (c) => c.payload.callback_query_id === id,
    );
    expect(answer.payload.text).toBe("Langsamer bitte: warte ein paar Sekunden.");
  });
});

describe.skipIf(!redisAvailable())("flood limit on Redis", () => {
  let redis: RedisServer;
  let h: Harness;
  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({ storeUrl: redis.url, floodLimit: { max: 3, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.stop();
    await redis?.stop();
  });

  it("says it in the language the user chose, though that is read only with the chat's lease", async () => {
    // An English app, German chosen: the flood warning comes before the lease that reads the choice.
    const jan = h.user(undefined, { languageCode: "en" });
    await h.deps.store.set(`profile:${jan.id}`, { locale: "de" });
    await Promise.all(["/help", "/help", "/help", "/help"].map((text) => jan.send(text)));
    await jan.waitForReply(/sehr schnell/);
    await h.telegram.waitUntilIdle();
    // Three answered in German, and the warning in German too.
    const seen = jan.messages().map(({ text }) => (text.startsWith("Was ich kann") ? "help" : text));
    expect(seen.sort()).toEqual([
      "Du schickst sehr schnell Nachrichten. Bitte warte ein paar Sekunden.",
      "help",
      "help",
      "help",
    ]);
  });
});
