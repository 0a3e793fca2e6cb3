/**
 * The store goes away and comes back: with Redis killed in the middle of
 * use, or a SQLite file locked by another process past the busy timeout, the user gets a sentence
 * (nothing reaches the exchange, nothing crashes), and the bot works again when the store does,
 * without a restart. Against a real redis-server.
 */
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../../src/store/errors.ts";
import type { Store } from "../../src/store/store.ts";
import { startHarness } from "../support/harness.ts";
import { redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { holdWriteLock } from "../support/sqlite-lock.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const STORE_DOWN = /cannot reach my storage.*nothing was done/;

/** Waits (bounded) until the store answers again: node-redis reconnects in the background. */
async function untilAnswering(store: Store): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      await store.get("probe").then(
        () => true,
        () => false,
      )
    )
      return;
    await delay(50);
  }
  throw new Error("the store did not come back within 10 s");
}

describe.skipIf(!redisAvailable())("Redis goes away and comes back", () => {
  it("answers with a sentence while Redis is down, and works again when it is back", async () => {
    const redis = await startRedis({ persist: true });
    const h = await startHarness({ storeUrl: redis.url });
    try {
      const ada = await h.loggedInUser();
      await ada.send("/balance");
      await ada.waitForReply(/Euro/);

      // Between two messages of the user: an update cut off while holding its chat lock would
      // leave the lease behind (persisted) until it runs out, 30 s.
      await h.telegram.waitUntilIdle();
      await redis.down();
      const before = h.sandbox.requests.length;
      await ada.send("/balance");
      expect((await ada.waitForReply()).text).toMatch(STORE_DOWN);
      await ada.send("/login");
      expect((await ada.waitForReply()).text).toMatch(STORE_DOWN);
      const bob = h.user(undefined, { languageCode: "de" });
      await bob.send("/start");
      expect((await bob.waitForReply()).text).toMatch(/erreiche meinen Speicher/);
      // Nothing reached the exchange while the store could not record it.
      expect(h.sandbox.requests.length).toBe(before);

      await redis.up();
      await untilAnswering(h.deps.store);
      // Same process, same session (Redis kept its data): the bot simply works again.
      await ada.send("/balance");
      expect((await ada.waitForReply()).text).toMatch(/Euro/);
    } finally {
      await h.stop();
      await redis.stop();
    }
  });
});

describe("SQLite locked by another process", () => {
  it("answers with a sentence when the lock outlasts the busy timeout, and works once it is gone", async () => {
    // A short busy timeout: SQLite waits it out in real time.
    const h = await startHarness({ storeBusyTimeoutMs: 300 });
    try {
      const ada = await h.loggedInUser();
      const lock = await holdWriteLock(h.storeUrl.slice("sqlite://".length));
      try {
        // Reads go on (WAL: a writer does not block readers, and this process keeps what it
        // wrote itself in memory: store/cached.ts); what must be written cannot be.
        await ada.send("/language de");
        expect((await ada.waitForReply()).text).toMatch(STORE_DOWN);
      } finally {
        await lock.release();
      }
      await ada.send("/balance");
      expect((await ada.waitForReply()).text).toMatch(/Euro/);
    } finally {
      await h.stop();
    }
  });
});

describe("the store fails inside a flow", () => {
  it("gives the storage sentence, not the generic apology", async () => {
    const h = await startHarness();
    try {
      const ada = h.user();
      // The login flow reads the anti-phishing phrase through the store, inside the conversation.
      const down = new StoreUnavailableError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
      const read = vi.spyOn(h.deps.phishing, "get").mockRejectedValueOnce(down);
      await ada.send("/login");
      expect((await ada.waitForReply()).text).toMatch(STORE_DOWN);
      expect(read).toHaveBeenCalled();
      read.mockRestore();
    } finally {
      await h.stop();
    }
  });
});
