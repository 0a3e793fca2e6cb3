import Big from "big.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkBankName, checkBic, checkIban } from "../../../src/bot/ui/bank-input.ts";
import type { RecordedRequest } from "../../../src/sandbox/server.ts";
import type { BankAccountRecord } from "../../../src/sandbox/state.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const GOOD_IBAN = "GB82 WEST 1234 5698 7654 32";
const GOOD_IBAN_COMPACT = "GB82WEST12345698765432";

describe("bank account input checks", () => {
  it("accepts an IBAN with spaces and lower case, refuses each problem with its own sentence", () => {
    expect(checkIban("de89 3704 0044 0532 0130 00", [])).toEqual({
      ok: true,
      iban: "DE89370400440532013000",
    });
    expect(checkIban("DE89370400440532013001", [])).toMatchObject({
      refusal: { key: "banks-iban-checksum" },
    });
    expect(checkIban("DE8937040044053201300", [])).toMatchObject({ refusal: { key: "banks-iban-length" } });
    expect(checkIban("XX89370400440532013000", [])).toMatchObject({ refusal: { key: "banks-iban-country" } });
    expect(checkIban("DE89-3704.0044", [])).toMatchObject({ refusal: { key: "banks-iban-characters" } });
    expect(checkIban("", [])).toMatchObject({ refusal: { key: "banks-iban-empty" } });
    expect(checkIban("DE89 3704 0044 0532 0130 00", ["DE89370400440532013000"])).toMatchObject({
      refusal: { key: "banks-iban-exists" },
    });
  });
  it("checks the BIC's shape and the bank name", () => {
    expect(checkBic("cobadeff xxx")).toEqual({ ok: true, bic: "COBADEFFXXX" });
    expect(checkBic("COBADE")).toMatchObject({ refusal: { key: "banks-bic-format" } });
    expect(checkBic("COBAXXFF")).toMatchObject({ refusal: { key: "banks-bic-country" } });
    expect(checkBankName("  Sparkasse   Berlin ")).toEqual({ ok: true, name: "Sparkasse Berlin" });
    expect(checkBankName("1")).toMatchObject({ refusal: { key: "banks-name-too-short" } });
    expect(checkBankName("<b>Bank</b>")).toMatchObject({ refusal: { key: "banks-name-characters" } });
  });
});

describe("/banks add and remove", () => {
  let h: Harness;
  let ada: FakeUser;
  let seeded: BankAccountRecord[];
  let mark = 0;

  /** Requests that change something at the exchange (POST, DELETE), since the test began. */
  const changes = (): RecordedRequest[] =>
    h.sandbox.requests.slice(mark).filter((r) => r.method !== "GET" && !r.path.startsWith("/v1/auth/"));

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    seeded = h.sandbox.state.bankAccountsOf(h.sandbox.seeded.demo);
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    const demo = h.sandbox.seeded.demo;
    for (const bank of h.sandbox.state.bankAccountsOf(demo)) h.sandbox.state.bankAccounts.delete(bank.id);
    for (const bank of seeded) h.sandbox.state.bankAccounts.set(bank.id, bank);
    await ada.send("/cancel");
    await ada.waitForReply();
    mark = h.sandbox.requests.length;
  });

  async function startAdd(): Promise<void> {
    await ada.send("/banks");
    await ada.waitForReply(/Your bank accounts/);
    await ada.tap("➕ Add");
    await ada.waitForReply(/name of the bank/);
  }

  async function fillAdd(): Promise<void> {
    await startAdd();
    await ada.send("West Bank");
    await ada.waitForReply(/IBAN/);
    await ada.send(GOOD_IBAN);
    await ada.waitForReply(/BIC/);
    await ada.send("nwbkgb2l");
    await ada.waitForReply(/verify it/);
    await ada.send("1,23");
    await ada.waitForReply(/Add this bank account\?/);
  }

  /**
   * An added account's security notice comes through the delivery queue, at any point after the
   * reply: it must be in before the next test reads replies in order.
   */
  let noticesSeen = 0;
  async function noticeIn(): Promise<void> {
    const log = h.telegram.messageLog;
    const isNotice = (m: { chatId: number; text: string }) =>
      m.chatId === ada.id && m.text.startsWith("🔐 Bank account added");
    // The next notice after the ones already seen, wherever it falls among the replies.
    let from = 0;
    for (let seen = 0; seen < noticesSeen; seen++) {
      from = (await log.waitFor(from, isNotice, 10_000, () => "an earlier notice is gone")).index + 1;
    }
    await log.waitFor(from, isNotice, 10_000, () => "no notice of the added account");
    noticesSeen += 1;
  }

  it("adds an account: query parameters and no body, then the reference and how to verify it", async () => {
    await fillAdd();
    const summary = ada.lastMessage();
    expect(summary?.text).toContain("GB82 WEST 1234 5698 7654 32");
    expect(summary?.text).toContain("NWBKGB2L");
    expect(summary?.text).toContain("€1.23");
    await ada.tap("✅ Add this account");
    const created = await ada.waitForReply(/✅ Bank account added/);

    expect(changes()).toHaveLength(1);
    const post = changes()[0] as RecordedRequest;
    expect(post.method).toBe("POST");
    expect(post.path).toBe("/v1/bank-accounts");
    expect(post.query).toEqual({
      name: "West Bank",
      iban: GOOD_IBAN_COMPACT,
      swift_bic: "NWBKGB2L",
      amount: "1.23",
    });
    expect(post.rawBody).toBe("");

    const record = h.sandbox.state
      .bankAccountsOf(h.sandbox.seeded.demo)
      .find((b) => b.iban === GOOD_IBAN_COMPACT) as BankAccountRecord;
    expect(record.state).toBe("pending");
    expect(created.text).toContain(`Reference number: ${record.reference_number}`);
    expect(created.text).toContain("transfer exactly €1.23 from this account");
    expect(created.text).toContain("/withdraw");
    // Added through the bot: it cools off before a withdrawal may go to it (src/safety/).
    const cooling = await ada.waitForReply(/withdrawals to this account are possible from/);
    expect(cooling.text).toContain("Nov 23, 2026");
    expect(await h.deps.safety.banks.usableAt(ada.id, record.reference_number)).toBe(
      h.clock.now() + 24 * 3_600_000,
    );
    await noticeIn();

    // The verification deposit of exactly that amount verifies it, and the list says so.
    const arrived = h.sandbox.deposit({ amount: new Big("1.23"), referenceNumber: record.reference_number });
    expect(arrived.verifiedBankAccountId).toBe(record.id);
    await ada.send("/banks");
    const list = await ada.waitForReply(/Your bank accounts \(2\)/);
    expect(list.text).not.toContain("waiting for the verification deposit");
  });

  it("a second tap on the Add button adds nothing more", async () => {
    await fillAdd();
    const summary = ada.lastMessage();
    await ada.tap("✅ Add this account", summary);
    await ada.waitForReply(/✅ Bank account added/);
    await ada.tap("✅ Add this account", summary);
    await ada.waitForCall("answerCallbackQuery", (c) => /no longer active/.test(String(c.payload.text)));
    expect(changes()).toHaveLength(1);
    await noticeIn();
  });

  it("refuses an IBAN with a bad checksum and stays at the IBAN step", async () => {
    await startAdd();
    await ada.send("Bank");
    await ada.waitForReply(/IBAN/);
    await ada.send("GB82 WEST 1234 5698 7654 33");
    expect((await ada.waitForReply()).text).toContain("check digits do not match");
    await ada.send("DE89 3704 0044 0532 0130 00");
    expect((await ada.waitForReply()).text).toContain("already added this IBAN");
    await ada.send(GOOD_IBAN);
    await ada.waitForReply(/BIC/);
    expect(changes()).toEqual([]);
  });

  it("refuses a malformed BIC and bad amounts, and stays", async () => {
    await startAdd();
    await ada.send("Bank");
    await ada.waitForReply(/IBAN/);
    await ada.send(GOOD_IBAN);
    await ada.waitForReply(/BIC/);
    await ada.send("NWBK");
    expect((await ada.waitForReply()).text).toContain("not a valid BIC");
    await ada.send("NWBKGB2L");
    await ada.waitForReply(/verify it/);
    for (const [typed, sentence] of [
      ["-1", "cannot be negative"],
      ["0", "more than zero"],
      ["1e3", "without an exponent"],
      ["one euro", "not an amount"],
      ["1.234", "too many decimals"],
      ["2000000000000", "too large"],
    ] as const) {
      await ada.send(typed);
      expect((await ada.waitForReply()).text).toContain(sentence);
    }
    await ada.sendSticker();
    expect((await ada.waitForReply()).text).toContain("waiting for a text message");
    await ada.sendPhoto();
    expect((await ada.waitForReply()).text).toContain("waiting for a text message");
    await ada.send("/balance");
    expect((await ada.waitForReply()).text).toContain("middle of something");
    await ada.send("1");
    await ada.waitForReply(/Add this bank account\?/);
    expect(changes()).toEqual([]);
  });

  it("/cancel at each step of adding sends nothing", async () => {
    const steps = ["West Bank", GOOD_IBAN, "NWBKGB2L", "1"];
    for (let stop = 0; stop <= steps.length; stop++) {
      await startAdd();
      for (const answer of steps.slice(0, stop)) {
        await ada.send(answer);
        await ada.waitForReply();
      }
      await ada.send("/cancel");
      expect((await ada.waitForReply()).text).toContain("Cancelled");
    }
    expect(changes()).toEqual([]);
  });

  it("says that the exchange refused, in a sentence of the user's language (its own words go to the log)", async () => {
    await fillAdd();
    // Someone else added the same IBAN meanwhile (another device): the exchange refuses it.
    h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Other",
      iban: GOOD_IBAN_COMPACT,
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big(1),
    });
    await ada.tap("✅ Add this account");
    const reply = await ada.waitForReply(/did not add/);
    expect(reply.text).toContain(
      "The exchange did not add the account: it did not accept the details given. Please check them and try again.",
    );
    expect(reply.text).not.toContain("already been taken");
  });

  it("removes an account after confirmation: DELETE with its id", async () => {
    const extra = h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Second Bank",
      iban: GOOD_IBAN_COMPACT,
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big(1),
      verified: true,
    });
    await ada.send("/banks");
    await ada.waitForReply(/Your bank accounts \(2\)/);
    await ada.tap("🗑 Remove");
    const ask = await ada.waitForReply(/Which bank account/);
    expect(ask.buttons.flat()).toContain("🗑 Second Bank · •• 5432");
    await ada.tap("🗑 Second Bank · •• 5432");
    const confirm = await ada.waitForReply(/Remove this bank account\?/);
    expect(confirm.text).toContain(extra.reference_number);
    expect(changes()).toEqual([]);
    await ada.tap("🗑 Yes, remove it");
    await ada.waitForReply(/Removed: Second Bank/);
    expect(changes().map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v1/bank-accounts/${extra.id}`]);
    expect(h.sandbox.state.bankAccounts.has(extra.id)).toBe(false);
  });

  it("accepts the account's number typed, and Keep it changes nothing", async () => {
    h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Second Bank",
      iban: GOOD_IBAN_COMPACT,
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big(1),
    });
    await ada.send("/banks remove");
    await ada.waitForReply(/Which bank account/);
    await ada.send("7");
    expect((await ada.waitForReply()).text).toContain("1 to 2");
    await ada.send("2");
    await ada.waitForReply(/Remove this bank account\?/);
    await ada.tap("Keep it");
    await ada.waitForReply(/Kept/);
    expect(changes()).toEqual([]);
  });

  it("refuses to remove the last account without calling the exchange", async () => {
    await ada.send("/banks");
    await ada.waitForReply(/Your bank accounts \(1\)/);
    await ada.tap("🗑 Remove");
    expect((await ada.waitForReply()).text).toContain("only bank account");
    expect(changes()).toEqual([]);
  });

  it("checks again before the DELETE, and turns the exchange's own refusal into a sentence", async () => {
    const extra = h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Second Bank",
      iban: GOOD_IBAN_COMPACT,
      swift_bic: "NWBKGB2L",
      verificationAmount: new Big(1),
    });
    await ada.send("/banks remove");
    await ada.waitForReply(/Which bank account/);
    await ada.send("1");
    await ada.waitForReply(/Remove this bank account\?/);
    // Meanwhile the other account went away (another device): this one is now the last.
    h.sandbox.state.bankAccounts.delete(extra.id);
    await ada.tap("🗑 Yes, remove it");
    expect((await ada.waitForReply()).text).toContain("only bank account");
    expect(changes()).toEqual([]);

    // The exchange's own 422 (its keep-one rule), as if our check had been passed.
    h.sandbox.state.bankAccounts.set(extra.id, extra);
    h.sandbox.faults.failNext(1, 422, { method: "DELETE", path: "/v1/bank-accounts/*" });
    await ada.send("/banks remove");
    await ada.waitForReply(/Which bank account/);
    await ada.send("2");
    await ada.waitForReply(/Remove this bank account\?/);
    await ada.tap("🗑 Yes, remove it");
    expect((await ada.waitForReply()).text).toContain("did not remove the account");
  });

  it("answers in German", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/banks add");
    await bea.waitForReply(/Wie heißt die Bank/);
    await bea.send("Bank");
    await bea.waitForReply(/IBAN/);
    await bea.send("DE89370400440532013001");
    expect((await bea.waitForReply()).text).toContain("Prüfziffern");
  });
});
