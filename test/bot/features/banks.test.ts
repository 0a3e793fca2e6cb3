import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupIban, maskIban } from "../../../src/domain/iban.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("IBAN helpers", () => {
  it("masks the middle and keeps country, check digits and the last four", () => {
    expect(maskIban("DE89370400440532013000")).toBe("DE89 •••• •••• 3000");
    expect(maskIban("de89 3704 0044 0532 0130 00")).toBe("DE89 •••• •••• 3000");
    expect(maskIban("NO9386011117947")).toBe("NO93 •••• •••• 7947");
    expect(maskIban("12345")).toBe("•••• 2345");
  });

  it("groups in fours", () => {
    expect(groupIban("de89370400440532013000")).toBe("DE89 3704 0044 0532 0130 00");
  });
});

describe("/banks", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("asks a user who is not logged in to log in", async () => {
    const ada = h.user();
    await ada.send("/banks");
    expect((await ada.waitForReply()).text).toContain("log in");
  });

  it("shows each account as a card with the IBAN masked and the verification state", async () => {
    const demo = h.sandbox.seeded.demo;
    const pending = h.sandbox.state.addBankAccount(demo, {
      name: "Bank <Two> & Co",
      iban: "FR1420041010050500013M02606",
      swift_bic: "PSSTFRPPXXX",
      verificationAmount: new Big("1.23"),
    });
    const ada = await h.loggedInUser();
    await ada.send("/banks");
    const reply = await ada.waitForReply(/bank accounts/);
    expect(reply.parseMode).toBe("HTML");
    const seeded = h.sandbox.state.bankAccountsOf(demo)[0];
    expect(reply.text).toContain("Your bank accounts (2)");
    expect(reply.text).toContain("Sandbox Sparkasse");
    expect(reply.text).toContain("IBAN: DE89 •••• •••• 3000");
    expect(reply.text).not.toContain("DE89370400440532013000");
    expect(reply.text).toContain("BIC: COBADEFFXXX");
    expect(reply.text).toContain(`Reference number: ${seeded?.reference_number}`);
    expect(reply.text).toContain("✅ verified");
    // Exchange data is escaped, never markup.
    expect(reply.text).toContain("Bank <Two> & Co");
    expect(reply.text).toContain("FR14 •••• •••• 2606");
    expect(reply.text).toContain(pending.reference_number);
    expect(reply.text).toContain("⏳ waiting for the verification deposit");
    const reference = reply.entities
      .filter((e) => e.type === "code")
      .map((e) => reply.text.slice(e.offset, e.offset + e.length));
    expect(reference).toContain(pending.reference_number);
    h.sandbox.state.bankAccounts.delete(pending.id);
  });

  it("says so when there is no bank account", async () => {
    const demo = h.sandbox.seeded.demo;
    const saved = h.sandbox.state.bankAccountsOf(demo);
    for (const bank of saved) h.sandbox.state.bankAccounts.delete(bank.id);
    try {
      const ada = await h.loggedInUser();
      await ada.send("/banks");
      expect((await ada.waitForReply()).text).toBe("You have no bank account at the exchange yet.");
    } finally {
      for (const bank of saved) h.sandbox.state.bankAccounts.set(bank.id, bank);
    }
  });

  it("answers in German", async () => {
    const ada = await h.loggedInUser(undefined, { languageCode: "de" });
    await ada.send("/banks");
    const reply = await ada.waitForReply(/Bankkonten/);
    expect(reply.text).toContain("✅ verifiziert");
    expect(reply.text).toContain("Referenznummer:");
  });
});
