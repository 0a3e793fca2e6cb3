import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressBar } from "../../../src/bot/ui/progress-bar.ts";
import { formatAmount } from "../../../src/domain/money.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("progressBar", () => {
  it("fills a cell per tenth, rounded down, with the percentage", () => {
    expect(progressBar(new Big(400), new Big(1000), "en")).toBe("▓▓▓▓░░░░░░ 40%");
    expect(progressBar(new Big(400), new Big(1000), "de")).toBe("▓▓▓▓░░░░░░ 40\u00a0%");
    expect(progressBar(new Big(0), new Big(1000), "en")).toBe("░░░░░░░░░░ 0%");
    expect(progressBar(new Big("999.99"), new Big(1000), "en")).toBe("▓▓▓▓▓▓▓▓▓░ 99%");
    expect(progressBar(new Big(1000), new Big(1000), "en")).toBe("▓▓▓▓▓▓▓▓▓▓ 100%");
  });
  it("shows use beyond the ceiling as a full bar with the true percentage", () => {
    expect(progressBar(new Big(1500), new Big(1000), "en")).toBe("▓▓▓▓▓▓▓▓▓▓ 150%");
  });
  it("copes with a zero ceiling and any width", () => {
    expect(progressBar(new Big(0), new Big(0), "en")).toBe("░░░░░░░░░░ 0%");
    expect(progressBar(new Big(5), new Big(0), "en")).toBe("▓▓▓▓▓▓▓▓▓▓ 100%");
    expect(progressBar(new Big(1), new Big(4), "en", 4)).toBe("▓░░░ 25%");
  });
});

describe("/limits", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    const demo = h.sandbox.seeded.demo;
    h.sandbox.state.recordUsage(demo, "fiat_withdrawal", new Big(2000));
    h.sandbox.state.recordUsage(demo, "crypto_deposit", new Big(1500));
  });
  afterAll(async () => {
    await h.stop();
  });

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/limits");
    expect((await bob.waitForReply()).text).toContain("log in");
  });

  it("shows each limit's use today and this month against its ceilings, with bars", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/limits");
    const reply = await ada.waitForReply(/Your limits/);
    const demo = h.sandbox.seeded.demo;
    const eur = (value: Big) => formatAmount(value, "eur", "en");
    // The real numbers, read from the sandbox.
    const withdrawal = h.sandbox.state.ceilings.fiat_withdrawal;
    const used = h.sandbox.state.used(demo, "fiat_withdrawal");
    expect(used.day.toFixed()).toBe("2000");
    expect(reply.text).toContain(
      [
        "🏦 Euro withdrawals",
        `Today: ${eur(used.day)} of ${eur(withdrawal.daily)}`,
        "▓▓▓▓░░░░░░ 40%",
        `This month: ${eur(used.month)} of ${eur(withdrawal.monthly)}`,
        "▓░░░░░░░░░ 10%",
      ].join("\n"),
    );
    expect(reply.text).toContain("Today: €2,000.00 of €5,000.00");
    const deposit = h.sandbox.state.ceilings.fiat_deposit;
    expect(reply.text).toContain(`💶 Euro deposits\nToday: €0.00 of ${eur(deposit.daily)}\n░░░░░░░░░░ 0%`);
    expect(reply.text).toContain("💳 Card purchases\nToday: €0.00 of €5,000.00");
    // Crypto limits: read in euros like every limit (limitCurrency), as the send card counts them.
    const crypto = h.sandbox.state.ceilings.crypto_deposit;
    expect(reply.text).toContain(
      `🪙 Crypto deposits\nToday: ${eur(new Big(1500))} of ${eur(crypto.daily)}\n▓░░░░░░░░░ 10%`,
    );
    expect(reply.text).toContain("Today: €1,500.00 of €15,000.00");
    expect(reply.text).toContain("📤 Crypto withdrawals\nToday: €0.00 of €5,000.00");
    // No note about the exchange's units: that was a note to ourselves.
    expect(reply.text).not.toMatch(/\(\*\)|plain numbers|without a unit|documentation/);
    // In the order of the spec's list.
    const order = [
      "Euro deposits",
      "Crypto deposits",
      "Euro withdrawals",
      "Crypto withdrawals",
      "Card purchases",
    ];
    const positions = order.map((name) => reply.text.indexOf(name));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("answers in German", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/limits");
    const reply = await ute.waitForReply(/Deine Limits/);
    expect(reply.text).toContain(
      "🏦 Euro-Auszahlungen\nHeute: 2.000,00\u00a0€ von 5.000,00\u00a0€\n▓▓▓▓░░░░░░ 40\u00a0%\nDiesen Monat: 2.000,00\u00a0€ von 20.000,00\u00a0€",
    );
    expect(reply.text).toContain("Heute: 1.500,00\u00a0€ von 15.000,00\u00a0€");
    expect(reply.text).not.toMatch(/\(\*\)|Einheit/);
  });
});
