/**
 * Every choice offered as buttons is also accepted as typed text: a quote card's Confirm and
 * Cancel, typed in the user's language (loosely: case, spaces and emoji do not matter), act on the
 * user's newest card of any kind through the same ledger path as the tap (one Confirm, one order).
 */

import { describe, expect, it } from "vitest";
import type { BankAccountRecord } from "../../../src/sandbox/state.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { liveCard, toSendCard } from "../../orders/helpers.ts";
import type { Harness } from "../../support/harness.ts";
import { withLoggedInUser } from "../../support/suites.ts";

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

describe("Confirm and Cancel typed on a quote card", () => {
  let h: Harness;
  let ada: FakeUser;
  const posts = (path: string) => h.sandbox.countRequests("POST", path);

  withLoggedInUser((harness, user) => {
    h = harness;
    ada = user;
  });

  it("buy: a typed confirm places the order once; typed again, there is no card left", async () => {
    await ada.send("/buy btc 100");
    await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    const before = posts("/v1/buy");
    await ada.send("confirm");
    await ada.waitForReply(/Order placed: buy BTC for €100.00/);
    expect(posts("/v1/buy")).toBe(before + 1);
    await ada.send("✅ Confirm");
    expect((await ada.waitForReply()).text).toMatch(/no quote waiting/);
    expect(posts("/v1/buy")).toBe(before + 1);
  });

  it("sell: a typed Cancel cancels the newest card, nothing is ordered", async () => {
    await ada.send("/sell btc 0.001");
    await ada.waitForReply(liveCard(/Sell BTC: your quote/));
    const before = posts("/v1/sell");
    await ada.send(" CANCEL ");
    expect((await ada.waitForReply()).text).toBe("Cancelled. Nothing was ordered.");
    expect(posts("/v1/sell")).toBe(before);
  });

  it("send: typed Confirm asks for the code; typed Cancel there cancels, nothing is sent", async () => {
    await toSendCard(h, ada, BTC, "0.001");
    await ada.send("Confirm");
    await ada.waitForReply(/6-digit code/);
    await ada.send("Cancel");
    expect((await ada.waitForReply()).text).toBe("Cancelled. Nothing was sent.");
    expect(posts("/v1/send")).toBe(0);
  });

  it("withdraw: typed Confirm, then the code, places the withdrawal once", async () => {
    const seeded = h.sandbox.state.bankAccountsOf(h.sandbox.seeded.demo)[0] as BankAccountRecord;
    await ada.send("/withdraw");
    await ada.waitForReply(/To which bank account/);
    await ada.send("1");
    await ada.waitForReply(/How many euros/);
    await ada.send("20");
    await ada.waitForReply(/Withdraw euros/);
    await ada.send("confirm ✅");
    await ada.waitForReply(/6-digit code/);
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/accepted your withdrawal/);
    const withdrawals = h.sandbox.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/fiat-withdrawal",
    );
    expect(withdrawals.map((r) => r.body)).toEqual([
      expect.objectContaining({ amount: "20", reference_number: seeded.reference_number }),
    ]);
  });

  it("takes the label in the user's language", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/buy btc 50");
    await ute.waitForReply(liveCard(/BTC/));
    const before = posts("/v1/buy");
    await ute.send("bestätigen");
    await ute.waitForReply(/Auftrag erteilt: /);
    expect(posts("/v1/buy")).toBe(before + 1);
  });

  it("leaves the text to a running flow, and says so when no card waits", async () => {
    const bob = await h.loggedInUser();
    await bob.send("Confirm");
    expect((await bob.waitForReply()).text).toMatch(/no quote waiting/);
    await bob.send("/buy");
    await bob.waitForReply(/Which currency/);
    await bob.send("confirm");
    expect((await bob.waitForReply()).text).toMatch(/not|unknown|know/i);
    expect(bob.messages().filter((m) => /no quote waiting/.test(m.text))).toHaveLength(1);
  });
});
