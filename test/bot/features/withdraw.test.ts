import Big from "big.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../../src/sandbox/server.ts";
import type { BankAccountRecord } from "../../../src/sandbox/state.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const SEEDED_LABEL = "🏦 Sandbox Sparkasse · •• 3000";

describe("/withdraw", () => {
  let h: Harness;
  let ada: FakeUser;
  let seeded: BankAccountRecord;
  let mark = 0;
  const withdrawals = (): RecordedRequest[] =>
    h.sandbox.requests.slice(mark).filter((r) => r.method === "POST" && r.path === "/v1/fiat-withdrawal");
  const wrongCode = () => String((Number(h.sandbox.currentCode()) + 500_000) % 1_000_000).padStart(6, "0");

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    seeded = h.sandbox.state.bankAccountsOf(h.sandbox.seeded.demo)[0] as BankAccountRecord;
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    const demo = h.sandbox.seeded.demo;
    for (const bank of h.sandbox.state.bankAccountsOf(demo)) h.sandbox.state.bankAccounts.delete(bank.id);
    h.sandbox.state.bankAccounts.set(seeded.id, seeded);
    await ada.send("/cancel");
    await ada.waitForReply();
    mark = h.sandbox.requests.length;
  });

  async function toAmount(): Promise<void> {
    await ada.send("/withdraw");
    await ada.waitForReply(/To which bank account/);
    await ada.tap(SEEDED_LABEL);
    await ada.waitForReply(/How many euros/);
  }
  async function toCard(amount = "100,50"): Promise<SentMessage> {
    await toAmount();
    await ada.send(amount);
    return ada.waitForReply(/Withdraw euros/);
  }

  it("withdraws end to end: POST v1/fiat-withdrawal with the account's reference and the typed code", async () => {
    const card = await toCard();
    expect(card.text).toContain("Amount: €100.50");
    expect(card.text).toContain("To: Sandbox Sparkasse · DE89 •••• •••• 3000");
    expect(card.text).toContain(`Reference number: ${seeded.reference_number}`);
    expect(card.text).toMatch(/Daily withdrawal limit left: €5,000.00/);
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    expect(withdrawals()).toEqual([]);
    const code = h.sandbox.currentCode();
    const typed = await ada.send(code);
    const placed = await ada.waitForReply(/accepted your withdrawal/);
    expect(placed.text).toContain("€100.50 to Sandbox Sparkasse · DE89 •••• •••• 3000");
    expect(ada.deletedMessageIds()).toContain(typed.message_id);
    expect(withdrawals()).toHaveLength(1);
    expect(withdrawals()[0]?.body).toEqual({
      amount: "100.5",
      reference_number: seeded.reference_number,
      security_code: Number(code),
    });
  });

  it("shows accounts that wait for verification as not usable, and refuses them", async () => {
    const pending = h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "New Bank",
      iban: "GB82WEST12345698765432",
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big("1.23"),
    });
    await ada.send("/withdraw");
    const ask = await ada.waitForReply(/To which bank account/);
    expect(ask.buttons.flat()).toEqual([SEEDED_LABEL, "⏳ New Bank · •• 5432"]);
    expect(ask.text).toContain("2. New Bank · GB82 •••• •••• 5432 (⏳ not verified yet)");
    await ada.tap("⏳ New Bank · •• 5432");
    expect((await ada.waitForReply()).text).toContain("not verified yet");
    await ada.send("2");
    expect((await ada.waitForReply()).text).toContain("not verified yet");
    await ada.send("1");
    await ada.waitForReply(/How many euros/);
    expect(withdrawals()).toEqual([]);
    h.sandbox.state.bankAccounts.delete(pending.id);
  });

  it("says so when no account is verified", async () => {
    h.sandbox.state.bankAccounts.delete(seeded.id);
    h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "New Bank",
      iban: "GB82WEST12345698765432",
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big("1.23"),
    });
    await ada.send("/withdraw");
    expect((await ada.waitForReply()).text).toContain("None of your bank accounts is verified yet");
    expect(withdrawals()).toEqual([]);
  });

  it("never reaches the exchange without a code: /cancel at the code step", async () => {
    await toCard();
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    expect(withdrawals()).toEqual([]);
  });

  it("a wrong code is asked again; the order carries the code typed last", async () => {
    await toCard("20");
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    const wrong = wrongCode();
    await ada.send(wrong);
    await ada.waitForReply(/did not accept that code/);
    const right = h.sandbox.currentCode();
    await ada.send(right);
    await ada.waitForReply(/accepted your withdrawal/);
    expect(withdrawals().map((r) => (r.body as { security_code: number }).security_code)).toEqual([
      Number(wrong),
      Number(right),
    ]);
  });

  it("a double tap on Confirm asks for one code and places one order", async () => {
    const card = await toCard("10");
    const button = card.message.reply_markup?.inline_keyboard.flat()[0];
    const confirm = button && "callback_data" in button ? (button.callback_data ?? "") : "";
    await Promise.all([ada.tapData(card.messageId, confirm), ada.tapData(card.messageId, confirm)]);
    await ada.waitForReply(/6-digit code/);
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/accepted your withdrawal/);
    expect(
      ada.messages().filter((m) => m.messageId > card.messageId && /Now type the current/.test(m.text)),
    ).toHaveLength(1);
    expect(withdrawals()).toHaveLength(1);
  });

  describe("bad input: a sentence, the flow stays, nothing is sent", () => {
    const cases: [string, string][] = [
      ["-5", "cannot be negative"],
      ["0", "more than zero"],
      ["1e2", "without an exponent"],
      ["ten", "not an amount"],
      ["10.001", "too many decimals"],
      ["2000000000000", "too large"],
      ["1000000", "more than your balance"],
      ["6000", "daily withdrawal limit"],
    ];
    for (const [typed, sentence] of cases) {
      it(`amount “${typed}”`, async () => {
        await toAmount();
        await ada.send(typed);
        expect((await ada.waitForReply()).text).toContain(sentence);
        await ada.send("10");
        await ada.waitForReply(/Withdraw euros/);
        expect(withdrawals()).toEqual([]);
      });
    }

    it("a sticker, a photo, another command, an unknown account", async () => {
      await ada.send("/withdraw");
      await ada.waitForReply(/To which bank account/);
      await ada.send("9");
      expect((await ada.waitForReply()).text).toContain("1 to 1");
      await ada.tap(SEEDED_LABEL);
      await ada.waitForReply(/How many euros/);
      await ada.sendSticker();
      expect((await ada.waitForReply()).text).toContain("waiting for a text message");
      await ada.sendPhoto();
      expect((await ada.waitForReply()).text).toContain("waiting for a text message");
      await ada.send("/send");
      expect((await ada.waitForReply()).text).toContain("middle of something");
      expect(withdrawals()).toEqual([]);
    });

    it("/cancel at every step", async () => {
      const steps: (() => Promise<unknown>)[] = [
        async () => {
          await ada.send("/withdraw");
          await ada.waitForReply(/To which bank account/);
        },
        toAmount,
        () => toCard(),
      ];
      for (const step of steps) {
        await step();
        await ada.send("/cancel");
        expect((await ada.waitForReply()).text).toContain("Cancelled");
      }
      expect(withdrawals()).toEqual([]);
    });
  });

  it("answers in German", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/withdraw");
    await bea.waitForReply(/Auf welches Bankkonto/);
    await bea.tap(SEEDED_LABEL);
    await bea.waitForReply(/Wie viele Euro/);
    await bea.send("-1");
    expect((await bea.waitForReply()).text).toBeTruthy();
  });
});
