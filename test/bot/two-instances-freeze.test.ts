/**
 * A freeze holds across instances: two bots on one real redis-server, one sandbox and one Bot
 * API double, as behind a load balancer. Instance A runs the harness's runner; instance B is fed
 * with `bot.handleUpdate`, as a webhook instance would be.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CALLBACK } from "../../src/bot/ui/callback-data.ts";
import { actionIdOf, answerOf, liveCard, pushTap } from "../orders/helpers.ts";
import { type Harness, logIn, messageUpdate } from "../support/harness.ts";
import { redisAvailable, redisUnavailableReason } from "../support/redis.ts";
import { type SecondInstance, twoInstancesOnRedis } from "../support/two-instances.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

let nextUpdateId = 810_000_000;

describe.skipIf(!redisAvailable())("a freeze across two instances on one Redis store", () => {
  const pair = twoInstancesOnRedis();
  let h: Harness;
  let b: SecondInstance;
  beforeAll(() => {
    ({ h, second: b } = pair);
    h.sandbox.setPrice("btc", "60000");
  });

  it("a user frozen on instance A cannot order on instance B, neither from a card B showed nor anew", async () => {
    const ada = await h.loggedInUser();
    // B shows the card.
    await b.bot.handleUpdate(messageUpdate(h, ada, "/buy btc 100", nextUpdateId++, { command: true }));
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    const before = h.sandbox.countRequests("POST", "/v1/buy");

    // A takes the Freeze.
    await ada.send("/freeze");
    await ada.waitForReply(/You froze the money actions of your account/);
    expect(await b.deps.freezes.isFrozen(ada.id)).toBe(true);

    // B: the card's Confirm, after a fresh login on A (the session went with the freeze).
    await logIn(ada, h.sandbox);
    const tap = pushTap(h, ada, card.messageId, CALLBACK.order.data("c", actionIdOf(card)), { push: false });
    await b.bot.handleUpdate(tap.update);
    await answerOf(h, tap.queryId);
    expect((await ada.waitForReply(/frozen/)).text).toContain("nothing was bought");

    // B: a new /buy is refused before the exchange is asked.
    const rates = h.sandbox.countRequests("GET", "/v1/exchange-rates");
    await b.bot.handleUpdate(messageUpdate(h, ada, "/buy btc 100", nextUpdateId++, { command: true }));
    expect((await ada.waitForReply(/frozen/)).text).toContain("nothing was bought");
    expect(h.sandbox.countRequests("GET", "/v1/exchange-rates")).toBe(rates);
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(before);
  });
});
