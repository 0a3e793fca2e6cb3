/**
 * The per-chat lease across instances (bot/middleware/chat-lock.ts): renewed every third of its
 * length while its update runs, so a slow update keeps its chat past the lease's first length;
 * never taken back once it ran out; released when the update ends, or at once by a shutdown that
 * cannot wait; and the time an update waits for its chat is not charged to its exchange deadline,
 * so the user hears the exchange's answer, not "the exchange did not answer in time".
 *
 * The lease's renewals wait on ManualTimers and the store's TTLs on a fake `Date` (memory store),
 * so the test moves both instead of waiting.
 */
import { Api, Context } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotContext } from "../../src/bot/context.ts";
import { ChatLock } from "../../src/bot/middleware/chat-lock.ts";
import { timeLeft, withDeadline } from "../../src/exchange/deadline.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import { silentLogger } from "../../src/support/logger.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const LEASE_MS = 30_000;
const KEY = "chat-lock:42";

/** A private message in chat 42, as a real grammY context (the lease reads only its chat). */
function context(chatId = 42): BotContext {
  const update = {
    update_id: 1,
    message: {
      message_id: 1,
      date: 0,
      chat: { id: chatId, type: "private", first_name: "Ada" },
      from: { id: chatId, is_bot: false, first_name: "Ada" },
      text: "/balance",
    },
  } as Update;
  const me = { id: 1, is_bot: true, first_name: "Bot", username: "bot" } as Context["me"];
  return new Context(update, new Api("1:unused"), me) as BotContext;
}

let round = 0;

describe("the chat lease", () => {
  let timers: ManualTimers;
  let store: Store;
  let otherInstance: Store;
  let lock: ChatLock;

  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  afterEach(async () => {
    await store.close();
    await otherInstance.close();
  });

  async function setUp(): Promise<void> {
    const name = `chat-lock-${++round}`;
    store = await openStore(`memory://${name}`);
    otherInstance = await openStore(`memory://${name}`);
    timers = new ManualTimers(Date.now());
    lock = new ChatLock(store, silentLogger, { leaseMs: LEASE_MS, timers });
  }

  /** Lets `ms` pass for the store (its TTLs) and for the lease's renewal timer, then lets them run. */
  async function pass(ms: number): Promise<void> {
    vi.setSystemTime(Date.now() + ms);
    timers.advance(ms);
    // The renewal is a store round trip: memory answers within a few turns of the event loop.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** An update in chat 42 (or another) that runs until `finish()`. */
  function slowUpdate(chatId = 42): { done: Promise<void>; finish: () => void; started: Promise<void> } {
    const gate = Promise.withResolvers<void>();
    const started = Promise.withResolvers<void>();
    const done = Promise.resolve(
      lock.middleware(context(chatId), async () => {
        started.resolve();
        await gate.promise;
      }),
    ).then(() => undefined);
    return { done, finish: gate.resolve, started: started.promise };
  }

  it("is renewed while its update runs, past its first length, and released when it ends", async () => {
    await setUp();
    const update = slowUpdate();
    await update.started;
    const holder = await store.get<string>(KEY);
    expect(holder).toBeTypeOf("string");
    for (let i = 0; i < 6; i++) await pass(LEASE_MS / 3);
    // Twice its length later the lease is still this update's: another instance waits.
    expect(await otherInstance.get(KEY)).toBe(holder);
    expect(await otherInstance.setIfAbsent(KEY, "other", LEASE_MS)).toBe(false);
    expect(lock.heldCount).toBe(1);

    update.finish();
    await update.done;
    expect(lock.heldCount).toBe(0);
    expect(await otherInstance.setIfAbsent(KEY, "other", LEASE_MS)).toBe(true);
    // No renewal is left behind: the next holder's lease runs out when it should.
    await pass(LEASE_MS + 1);
    expect(await otherInstance.get(KEY)).toBeUndefined();
  });

  it("leases taken at different times share one renewal timer and each outlives its first length", async () => {
    await setUp();
    const first = slowUpdate(42);
    await first.started;
    // The second chat's lease is taken between two of the timer's ticks.
    await pass(LEASE_MS / 2);
    const second = slowUpdate(43);
    await second.started;
    const held = [await store.get<string>(KEY), await store.get<string>("chat-lock:43")];
    for (let i = 0; i < 9; i++) await pass(LEASE_MS / 6);
    // 2 lengths after the first was taken, 1.5 after the second: both still this process's.
    expect([await otherInstance.get(KEY), await otherInstance.get("chat-lock:43")]).toEqual(held);
    first.finish();
    await first.done;
    for (let i = 0; i < 6; i++) await pass(LEASE_MS / 3);
    expect(await otherInstance.get("chat-lock:43")).toBe(held[1]);
    expect(await otherInstance.get(KEY)).toBeUndefined();
    second.finish();
    await second.done;
    expect(lock.heldCount).toBe(0);
    expect(await otherInstance.get("chat-lock:43")).toBeUndefined();
    // With no lease held, no timer is left waiting.
    expect(timers.nextAt).toBeUndefined();
  });

  it("is never taken back once it ran out, and its update does not release the next holder's", async () => {
    await setUp();
    const update = slowUpdate();
    await update.started;
    // A stall longer than the lease: no renewal ran (the timers did not move), the lease ran out.
    vi.setSystemTime(Date.now() + LEASE_MS + 1);
    expect(await otherInstance.setIfAbsent(KEY, "other", LEASE_MS)).toBe(true);
    await pass(LEASE_MS / 3);
    expect(await otherInstance.get(KEY)).toBe("other");
    update.finish();
    await update.done;
    expect(await otherInstance.get(KEY)).toBe("other");
  });

  it("is given back at once by releaseAll (a shutdown past its deadline)", async () => {
    await setUp();
    const update = slowUpdate();
    await update.started;
    await lock.releaseAll();
    expect(lock.heldCount).toBe(0);
    expect(await otherInstance.setIfAbsent(KEY, "other", LEASE_MS)).toBe(true);
    await pass(LEASE_MS / 3);
    update.finish();
    await update.done;
    expect(await otherInstance.get(KEY)).toBe("other");
  });
});

describe("waiting for the chat", () => {
  it("is not charged to the update's exchange deadline", async () => {
    const name = `chat-lock-wait-${++round}`;
    const store = await openStore(`memory://${name}`);
    const otherInstance = await openStore(`memory://${name}`);
    try {
      // Another instance holds the chat and lets it go a little later.
      await otherInstance.setIfAbsent(KEY, "other", LEASE_MS);
      const lock = new ChatLock(store, silentLogger, { leaseMs: LEASE_MS, pollMs: 5 });
      setTimeout(() => void otherInstance.deleteIfEquals(KEY, "other"), 300);
      let left: number | undefined;
      const started = performance.now();
      await withDeadline(1_000, async () => {
        await lock.middleware(context(), async () => {
          left = timeLeft();
        });
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      // The whole deadline is still there after the wait (it would be ~700 ms if charged).
      expect(left).toBeGreaterThan(950);
    } finally {
      await store.close();
      await otherInstance.close();
    }
  });
});

describe("what the user is told after waiting for the chat", () => {
  // The exchange answers in 2 s, well within the 3.4 s an update's exchange calls may use; the chat
  // is held by another instance for 2.5 s first. Charged to the deadline, that wait left 0.9 s for
  // the call (1 s at least, GET's floor): it timed out and the user read "did not answer in time".
  const EXCHANGE_MS = 2_000;
  const HELD_MS = 2_500;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ chatLock: true, answerDeadline: { finalMs: 4_000 } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("gets the exchange's answer, not 'the exchange did not answer in time'", {
    timeout: 30_000,
  }, async () => {
    const ada = await h.loggedInUser();
    const key = `chat-lock:${ada.id}`;
    expect(await h.deps.store.setIfAbsent(key, "another-instance", LEASE_MS)).toBe(true);
    setTimeout(() => void h.deps.store.deleteIfEquals(key, "another-instance"), HELD_MS);
    h.sandbox.faults.addLatency(EXCHANGE_MS, { method: "GET", path: "/v1/balance" });
    try {
      await ada.send("/balance");
      const answer = await ada.waitForReply(undefined, 15_000);
      expect(answer.text).not.toMatch(/did not answer in time/);
      expect(answer.text).toMatch(/Euro/);
    } finally {
      h.sandbox.faults.reset();
    }
  });
});
