import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { SentMessage } from "../../src/telegram-double/state.ts";
import { actionIdOf, answerOf, pushTap } from "../orders/helpers.ts";
import { type Harness, secondInstance, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { withLoggedInUser } from "../support/suites.ts";

const buys = (h: Harness) => h.sandbox.countRequests("POST", "/v1/buy");
/** A live quote card (sent with its buttons; an edited old card has none). */
const CARD = (m: SentMessage) => /your quote/.test(m.text) && m.buttons.length > 0;
const ALREADY = "This order was already placed. Nothing was ordered twice.";

describe("exactly once, one instance", () => {
  let h: Harness;
  let ada: FakeUser;
  withLoggedInUser((harness, user) => {
    h = harness;
    ada = user;
  });

  it("two Confirm taps delivered concurrently: one POST, and 'already placed' to the extra tap", async () => {
    await ada.send("/buy btc 100");
    const card = await ada.waitForReply(CARD);
    const data = `ord:c:${actionIdOf(card)}`;
    const before = buys(h);
    const [first, second] = await Promise.all([
      ada.tapData(card.messageId, data),
      ada.tapData(card.messageId, data),
    ]);
    const answers = [await answerOf(h, first), await answerOf(h, second)].sort();
    expect(answers).toEqual(["Placing your order…", ALREADY].sort());
    await ada.waitForReply(/Order placed/);
    expect(buys(h)).toBe(before + 1);
  });

  it("the same update delivered twice: one POST, and 'already placed' in the chat", async () => {
    await ada.send("/buy btc 50");
    const card = await ada.waitForReply(CARD);
    const before = buys(h);
    const tap = pushTap(h, ada, card.messageId, `ord:c:${actionIdOf(card)}`);
    await ada.waitForReply(/Order placed/);
    h.telegram.redeliver(tap.updateId);
    // The query was answered already, so the refusal comes as a message.
    await ada.waitForReply(ALREADY);
    expect(buys(h)).toBe(before + 1);
  });

  it("Confirm on an old card after a new quote was made: refused as replaced, no POST", async () => {
    await ada.send("/buy btc 30");
    const old = await ada.waitForReply(CARD);
    await ada.send("/buy btc 40");
    const fresh = await ada.waitForReply(CARD);
    const before = buys(h);
    const query = await ada.tapData(old.messageId, `ord:c:${actionIdOf(old)}`);
    expect(await answerOf(h, query)).toBe("This quote was replaced by a newer one. Use the newest card.");
    expect(buys(h)).toBe(before);
    const edited = await ada.waitForReply((m) => m.messageId === old.messageId);
    expect(edited.text).toContain("This quote was replaced by a newer one.");
    expect(edited.buttons).toEqual([]);
    await ada.tap("✅ Confirm", fresh);
    await ada.waitForReply(/Order placed: buy BTC for €40.00/);
    expect(buys(h)).toBe(before + 1);
  });

  it("a stale quote (past its TTL, e.g. a tap queued while the bot was down) re-quotes, no POST", async () => {
    await ada.send("/buy btc 20");
    const card = await ada.waitForReply(CARD);
    const before = buys(h);
    h.clock.advance(61_000);
    const query = await ada.tapData(card.messageId, `ord:c:${actionIdOf(card)}`);
    expect(await answerOf(h, query)).toBe("This quote expired; here is a new one.");
    await ada.waitForReply(/more than a minute old/);
    const fresh = await ada.waitForReply(CARD);
    expect(actionIdOf(fresh)).not.toBe(actionIdOf(card));
    expect(buys(h)).toBe(before);
    // The stale card is dead for good; the new one orders.
    const again = await ada.tapData(card.messageId, `ord:c:${actionIdOf(card)}`);
    expect(await answerOf(h, again)).toBe(
      "This quote expired and was quoted again already. Use the newest card.",
    );
    await ada.tap("✅ Confirm", fresh);
    await ada.waitForReply(/Order placed: buy BTC for €20.00/);
    expect(buys(h)).toBe(before + 1);
  });

  it("a tap from another Telegram user on someone's card does nothing", async () => {
    await ada.send("/buy btc 15");
    const card = await ada.waitForReply(CARD);
    const mallory = await h.loggedInUser();
    const before = buys(h);
    // Mallory forges the callback data of Ada's card into her own chat.
    await mallory.send("/buy btc 15");
    const hers = await mallory.waitForReply(CARD);
    const query = await mallory.tapData(hers.messageId, `ord:c:${actionIdOf(card)}`);
    expect(await answerOf(h, query)).toBe("This button is not for you.");
    expect(buys(h)).toBe(before);
  });
});

describe.skipIf(!redisAvailable())(
  `exactly once, two instances on one Redis${redisAvailable() ? "" : ` (${redisUnavailableReason})`}`,
  () => {
    let redis: RedisServer;
    let h: Harness;
    let second: Awaited<ReturnType<typeof secondInstance>>;
    let ada: FakeUser;
    beforeAll(async () => {
      redis = await startRedis();
      h = await startHarness({ storeUrl: redis.url });
      ada = await h.loggedInUser();
      h.sandbox.setPrice("btc", "60000");
      // A second instance on the same Redis, sandbox and double, fed by handleUpdate.
      second = await secondInstance(h);
    });
    afterAll(async () => {
      await second?.close();
      await h?.stop();
      await redis?.stop();
    });

    it("a Confirm tap delivered to each instance at once: one POST", async () => {
      await ada.send("/buy btc 100");
      const card = await ada.waitForReply(CARD);
      const data = `ord:c:${actionIdOf(card)}`;
      const before = buys(h);
      // Two taps (two devices), one handled by each instance, concurrently.
      const one = pushTap(h, ada, card.messageId, data, { push: false });
      const two = pushTap(h, ada, card.messageId, data, { push: false });
      await Promise.all([h.bot.handleUpdate(one.update), second.bot.handleUpdate(two.update)]);
      const answers = [await answerOf(h, one.queryId), await answerOf(h, two.queryId)].sort();
      expect(answers).toEqual(["Placing your order…", ALREADY].sort());
      expect(buys(h)).toBe(before + 1);
    });

    it("the same update delivered to both instances: one POST", async () => {
      await ada.send("/buy btc 60");
      const card = await ada.waitForReply(CARD);
      const before = buys(h);
      const tap = pushTap(h, ada, card.messageId, `ord:c:${actionIdOf(card)}`, { push: false });
      await Promise.all([
        h.bot.handleUpdate(tap.update),
        second.bot.handleUpdate(structuredClone(tap.update)),
      ]);
      expect(buys(h)).toBe(before + 1);
      await ada.waitForReply(ALREADY);
    });
  },
);
