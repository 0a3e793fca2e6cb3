/**
 * A freeze holds across instances: two bots on one real redis-server, one sandbox and one Bot
 * API double, as behind a load balancer. Instance A runs the harness's runner; instance B is fed
 * with `bot.handleUpdate`, as a webhook instance would be.
 */
import type { Message, Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLBACK } from "../../src/bot/ui/callback-data.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { actionIdOf, answerOf, liveCard, pushTap } from "../orders/helpers.ts";
import { type Harness, secondInstance, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

let nextUpdateId = 810_000_000;

/** A text message as Telegram would deliver it, known to the double but pushed to nobody. */
function messageUpdate(h: Harness, user: FakeUser, text: string): Update {
  const state = user.state;
  const message = {
    message_id: state.nextMessageId++,
    date: Math.floor(h.clock.now() / 1000),
    chat: state.chat,
    from: user.from,
    text,
    ...(text.startsWith("/")
      ? { entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]?.length ?? 0 }] }
      : {}),
  } as Message;
  h.telegram.world.store(state, message, false);
  return { update_id: nextUpdateId++, message } as Update;
}

describe.skipIf(!redisAvailable())("a freeze across two instances on one Redis store", () => {
  let redis: RedisServer;
  let h: Harness;
  let b: Awaited<ReturnType<typeof secondInstance>>;

  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({ storeUrl: redis.url });
    b = await secondInstance(h);
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(async () => {
    await b?.close();
    await h?.stop();
    await redis?.stop();
  });

  it("a user frozen on instance A cannot order on instance B, neither from a card B showed nor anew", async () => {
    const ada = await h.loggedInUser();
    // B shows the card.
    await b.bot.handleUpdate(messageUpdate(h, ada, "/buy btc 100"));
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    const before = h.sandbox.countRequests("POST", "/v1/buy");

    // A takes the Freeze.
    await ada.send("/freeze");
    await ada.waitForReply(/You froze the money actions of your account/);
    expect(await b.deps.freezes.isFrozen(ada.id)).toBe(true);

    // B: the card's Confirm, after a fresh login on A (the session went with the freeze).
    await ada.send("/login");
    await ada.waitForReply(/e-mail/);
    await ada.send(h.sandbox.demo.email);
    await ada.waitForReply(/password/);
    await ada.send(h.sandbox.demo.password);
    await ada.waitForReply(/6-digit/);
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/Logged in/);
    const tap = pushTap(h, ada, card.messageId, CALLBACK.order.data("c", actionIdOf(card)), { push: false });
    await b.bot.handleUpdate(tap.update);
    await answerOf(h, tap.queryId);
    expect((await ada.waitForReply(/frozen/)).text).toContain("nothing was sent");

    // B: a new /buy is refused before the exchange is asked.
    const rates = h.sandbox.countRequests("GET", "/v1/exchange-rates");
    await b.bot.handleUpdate(messageUpdate(h, ada, "/buy btc 100"));
    expect((await ada.waitForReply(/frozen/)).text).toContain("nothing was sent");
    expect(h.sandbox.countRequests("GET", "/v1/exchange-rates")).toBe(rates);
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(before);
  });
});
