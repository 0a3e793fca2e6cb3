/**
 * The safety net in partner mode (EXCHANGE_MODE=partner), against the sandbox's partner API: a
 * bank account added through the bot cools off before a partner withdrawal may go to it, a partner
 * buy counts against the user's own buy cap, and a shorter cooling-off is confirmed with the PIN
 * (its message deleted) and holds only after the current one.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/safety/cooling.ts";
import { type Harness, type PartnerFakeUser, startHarness } from "../support/harness.ts";

describe("the safety net in partner mode", () => {
  let h: Harness;
  let ada: PartnerFakeUser;

  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
    ada = await h.partnerUser();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("holds a partner withdrawal to a bank account added through the bot until its cooling-off ends", async () => {
    const account = h.sandbox.state.partnerUser(ada.partnerUserId);
    if (!account) throw new Error("no partner user");
    const bank = h.sandbox.state.addBankAccount(account, {
      name: "Neue Bank",
      iban: "DE02120300000000202051",
      swift_bic: "BYLADEM1001",
      verificationAmount: new Big("1.00"),
      verified: true,
    });
    const usableAt = await h.deps.safety.bankAdded(ada.id, {
      reference: bank.reference_number,
      iban: "DE02 •••• 2051",
    });
    const withdraw = {
      kind: "partner-withdraw",
      amount: "10",
      referenceNumber: bank.reference_number,
    } as const;
    expect(await h.deps.orders.quoteAs(ada.id, withdraw)).toEqual({
      ok: false,
      refusal: { kind: "partner-withdraw", reason: "bank-cooling", vars: { at: String(usableAt) } },
    });
    h.clock.advance(24 * HOUR_MS);
    expect(await h.deps.orders.quoteAs(ada.id, withdraw)).toMatchObject({ ok: true });
  });

  it("starts the cooling-off of a bank account added in /banks, and the withdrawal flow ends at its refusal", async () => {
    const bea = await h.partnerUser();
    await bea.send("/banks add");
    await bea.waitForReply(/name of the bank/);
    await bea.send("Zweite Bank");
    await bea.waitForReply(/IBAN/);
    await bea.send("DE02 1203 0000 0000 2020 51");
    await bea.waitForReply(/BIC/);
    await bea.send("BYLADEM1001");
    await bea.waitForReply(/Add this bank account\?/);
    await bea.tap("✅ Add this account");
    await bea.waitForReply(/Added/);
    const cooling = await bea.waitForReply(/withdrawals to this account are possible from/);
    const [added] = await h.deps.safety.banks.list(bea.id);
    expect(added).toMatchObject({
      iban: expect.stringMatching(/^DE02 .*2051$/),
      usableAt: h.clock.now() + 24 * HOUR_MS,
    });
    expect(cooling.text).toContain("2026");
    await bea.send("/withdraw");
    await bea.waitForReply(/To which bank account/);
    await bea.tap(/Zweite Bank/);
    await bea.waitForReply(/How many euros/);
    await bea.send("10");
    expect((await bea.waitForReply(/cooling-off/)).text).toMatch(/you can withdraw to it from/);
  });

  it("counts a partner buy against the user's own buy cap", async () => {
    await h.deps.safety.setCap(ada.id, "buy", "20");
    expect(
      await h.deps.orders.quoteAs(ada.id, { kind: "partner-buy", currency: "btc", amount: "50" }),
    ).toMatchObject({
      ok: false,
      refusal: { kind: "partner-buy", reason: "own-limit", vars: { cap: "20", left: "20", currency: "eur" } },
    });
  });

  it("shortens the cooling-off only with the PIN, and only after the current one", async () => {
    await ada.send("/safety cooling 6");
    await ada.waitForReply(/6-digit PIN/);
    const typed = await ada.send(ada.pin);
    const confirmed = await ada.waitForReply(/becomes 6 h at/);
    expect(ada.deletedMessageIds()).toContain(typed.message_id);
    expect(confirmed.text).toContain("after the current one");
    expect((await h.deps.safety.allowlist.get(ada.id)).hours).toBe(24);
    h.clock.advance(24 * HOUR_MS);
    expect((await h.deps.safety.allowlist.get(ada.id)).hours).toBe(6);
  });

  it("shows partner users a /safety screen about bank accounts, without saved addresses", async () => {
    await ada.send("/safety");
    const screen = await ada.waitForReply(/Safety/);
    expect(screen.text).toContain("Withdrawals go only to bank accounts whose cooling-off is over");
    expect(screen.text).not.toContain("/addresses");
    expect(screen.text).not.toContain("cap send");
  });
});
