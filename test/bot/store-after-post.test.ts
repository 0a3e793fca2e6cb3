/**
 * Once the exchange has taken an order, the store failing to record it must not be told as
 * "nothing was done, try again" (SECURITY.md, rule 5): the user would order twice. The user hears
 * that the order was placed; the record stays `sent` and reconciliation settles it.
 */
import { describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../../src/store/errors.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { Harness } from "../support/harness.ts";
import { withLoggedInUser } from "../support/suites.ts";

describe("the store fails right after the order's POST", () => {
  let h: Harness;
  let ada: FakeUser;
  withLoggedInUser((harness, user) => {
    h = harness;
    ada = user;
  });

  it("says the order was placed, never 'nothing was done', and the exchange holds one order", async () => {
    await ada.send("/buy btc 100");
    const card = await ada.waitForReply(/Confirm/);
    const down = new StoreUnavailableError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    const spy = vi.spyOn(h.deps.orders.ledger, "markPlaced").mockRejectedValueOnce(down);
    try {
      await ada.tap("✅ Confirm", card);
      const reply = await ada.waitForReply(/Order placed|nothing was done/);
      expect(reply.text).toMatch(/Order placed/);
      expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(1);
      // The record stays `sent` for reconciliation to settle from the exchange's transactions.
      const confirm = card.message.reply_markup?.inline_keyboard.flat().find((b) => "callback_data" in b);
      const id = /^ord:c:(.+)$/.exec(
        confirm && "callback_data" in confirm ? (confirm.callback_data ?? "") : "",
      )?.[1];
      expect((await h.deps.orders.ledger.get(id ?? ""))?.state).toBe("sent");
    } finally {
      spy.mockRestore();
    }
  });
});
