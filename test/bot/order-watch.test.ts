/**
 * Reconciliation "when the user comes back": an update from a user with an open order reconciles it
 * and tells them, without waiting for the background tick; a user with nothing open costs a key
 * listing and leaves nothing behind in the store.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { drainUpdates } from "../../src/bot/bot.ts";
import { Ledger } from "../../src/orders/ledger.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { buySentBeforeCrash } from "../support/sent-order.ts";

describe("orders reconciled when their owner comes back", () => {
  let h: Harness;
  let ada: FakeUser;
  beforeEach(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "60000");
  });
  afterEach(() => h.stop());

  it("an order sent before a crash is settled on the user's next message", async () => {
    const action = await buySentBeforeCrash(h, ada.id, "75");
    await h.restartBot();

    await ada.send("/help");
    await ada.waitForReply(/buy BTC for €75.00\) did reach the exchange/);
    expect((await new Ledger(h.deps.store, h.deps.clock).get(action.id))?.state).toBe("placed");
    expect(await h.deps.store.keys("order-watch:")).toEqual([`order-watch:${ada.id}`]);
  });

  it("a user with nothing open: no claim is written", async () => {
    const bo = h.user();
    await bo.send("/start");
    await bo.waitForReply(/Welcome/);
    await ada.send("/help");
    await ada.waitForReply(/\/balance/);
    // The watch runs after the reply: wait for the updates to be done.
    await drainUpdates(h.bot);
    expect(await h.deps.store.keys("order-watch:")).toEqual([]);
  });
});
