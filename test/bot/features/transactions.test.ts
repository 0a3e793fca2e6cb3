import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTransactionId } from "../../../src/bot/features/transactions.ts";
import type { TransactionRecord } from "../../../src/sandbox/state.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

/** The transaction ids a list message shows, in order. */
function ids(message: SentMessage): number[] {
  return [...message.text.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
}

describe("parseTransactionId", () => {
  it("takes positive whole numbers only", () => {
    expect(parseTransactionId("1005")).toBe(1005);
    expect(parseTransactionId(" #7 ")).toBe(7);
    for (const bad of ["", "0", "-5", "1.5", "abc", "1e3", "12 34", "99999999999999999999"]) {
      expect(parseTransactionId(bad)).toBeUndefined();
    }
  });
});

describe("/transactions and /tx", () => {
  let h: Harness;
  let ada: FakeUser;
  /** Newest first, as the exchange lists them. */
  let all: TransactionRecord[];

  beforeAll(async () => {
    h = await startHarness();
    const demo = h.sandbox.seeded.demo;
    const open = (
      fields: Partial<TransactionRecord> & Pick<TransactionRecord, "type" | "currency_code" | "amount">,
    ) =>
      h.sandbox.state.openTransaction(demo, {
        fee: new Big("1.5"),
        feeCurrency: "eur",
        debits: [],
        credits: [],
        usageIds: [],
        via: "sandbox",
        ...fields,
      });
    // 1001..1012, oldest first: 7 BTC, 3 ETH, one EUR deposit, one of a type the bot does not know.
    for (let i = 0; i < 4; i++) {
      open({
        type: "buy_crypto",
        currency_code: "btc",
        amount: new Big(100 + i),
        cryptoAmount: new Big("0.0015"),
      });
    }
    for (let i = 0; i < 3; i++) open({ type: "sell_crypto", currency_code: "eth", amount: new Big("0.5") });
    for (let i = 0; i < 3; i++) {
      open({
        type: "crypto_withdraw",
        currency_code: "btc",
        amount: new Big("0.01"),
        feeCurrency: "btc",
        fee: new Big("0.0001"),
        address: "bc1qexampleaddress000000000000000000000000",
      });
    }
    h.sandbox.deposit({ amount: new Big("250"), currency: "eur", email: demo.email });
    const odd = open({ type: "crypto_withdraw", currency_code: "ltc", amount: new Big("2") });
    (odd as { type: string }).type = "staking_reward";
    (odd as { state: string }).state = "refunded";
    all = h.sandbox.state.transactionsOf(demo);
    expect(all).toHaveLength(12);
    ada = await h.loggedInUser();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/transactions");
    expect((await bob.waitForReply()).text).toContain("log in");
  });

  it("pages newest first, five at a time, editing the same message", async () => {
    const wanted = all.map((tx) => tx.id);
    await ada.send("/transactions");
    const first = await ada.waitForReply(/Your transactions/);
    expect(ids(first)).toEqual(wanted.slice(0, 5));
    expect(first.buttons.flat()).toContain("Next ›");
    expect(first.buttons.flat()).not.toContain("‹ Previous");
    const request = h.sandbox.requests.filter((r) => r.path === "/v1/transactions").at(-1);
    expect(request?.query).toMatchObject({ start: "0", length: "6" });
    // The /tx example is a transaction the user has: the newest one shown.
    expect(first.text).toContain(`e.g. /tx ${wanted[0]}.`);

    await ada.tap("Next ›");
    const second = await ada.waitForReply((m) => m.edited);
    expect(second.messageId).toBe(first.messageId);
    expect(second.text).toContain("Page 2");
    expect(ids(second)).toEqual(wanted.slice(5, 10));
    expect(second.text).toContain(`e.g. /tx ${wanted[5]}.`);
    expect(second.buttons.flat()).toEqual(expect.arrayContaining(["‹ Previous", "Next ›"]));

    await ada.tap("Next ›");
    const third = await ada.waitForReply((m) => m.edited && m.text.includes("Page 3"));
    expect(third.messageId).toBe(first.messageId);
    expect(ids(third)).toEqual(wanted.slice(10));
    expect(third.buttons.flat()).not.toContain("Next ›");

    await ada.tap("‹ Previous");
    const back = await ada.waitForReply((m) => m.edited && m.text.includes("Page 2"));
    expect(ids(back)).toEqual(wanted.slice(5, 10));
    expect(ada.messages().filter((m) => m.text.includes("Your transactions"))).toHaveLength(1);
  });

  it("shows type, state, date and amount on each line; unknown values worded, never their code", async () => {
    await ada.send("/transactions");
    const first = await ada.waitForReply(/Your transactions/);
    const lines = first.text.split("\n\n");
    const line = (id: number) => lines.find((l) => l.includes(`#${id}`)) ?? "";
    const [odd, deposit, withdraw] = all;
    expect(line(odd?.id ?? 0)).toContain("❔ unknown");
    expect(line(odd?.id ?? 0)).not.toContain("refunded");
    expect(line(odd?.id ?? 0)).toContain("Other transaction");
    expect(line(odd?.id ?? 0)).not.toContain("staking_reward");
    expect(line(deposit?.id ?? 0)).toContain("Euro deposit");
    expect(line(deposit?.id ?? 0)).toContain("✅ done");
    expect(line(deposit?.id ?? 0)).toContain("€250.00");
    expect(line(withdraw?.id ?? 0)).toContain("Crypto withdrawal");
    expect(line(withdraw?.id ?? 0)).toContain("⏳ open");
    expect(line(withdraw?.id ?? 0)).toContain("0.01 BTC");
    expect(line(withdraw?.id ?? 0)).toContain("Nov 22, 2026");
  });

  it("filters by currency, remembers the filter, and 'all' resets it", async () => {
    const btc = all.filter((tx) => tx.currency_code === "btc").map((tx) => tx.id);
    await ada.send("/transactions btc");
    const page = await ada.waitForReply(/Your BTC transactions/);
    expect(ids(page)).toEqual(btc.slice(0, 5));
    expect(h.sandbox.requests.filter((r) => r.path === "/v1/transactions").at(-1)?.query).toMatchObject({
      currency_code: "btc",
    });
    await ada.tap("Next ›");
    const next = await ada.waitForReply((m) => m.edited);
    expect(ids(next)).toEqual(btc.slice(5));

    // Remembered for the next /transactions.
    await ada.send("/transactions");
    expect(ids(await ada.waitForReply(/Your BTC transactions/))).toEqual(btc.slice(0, 5));

    await ada.send("/transactions all");
    expect(ids(await ada.waitForReply(/Your transactions/))).toEqual(all.slice(0, 5).map((tx) => tx.id));
  });

  it("filters with the buttons", async () => {
    await ada.send("/transactions");
    const list = await ada.waitForReply(/Your transactions/);
    await ada.tap("🔎 Filter by currency");
    const picker = await ada.waitForReply((m) => m.edited);
    expect(picker.messageId).toBe(list.messageId);
    expect(picker.buttons.flat()).toEqual(expect.arrayContaining(["All currencies", "BTC", "ETH", "EUR"]));
    await ada.tap("ETH");
    const eth = await ada.waitForReply((m) => m.edited && m.text.includes("ETH"));
    expect(ids(eth)).toEqual(all.filter((tx) => tx.currency_code === "eth").map((tx) => tx.id));
    expect(eth.buttons.flat()).toContain("🔎 Filter: ETH");

    await ada.tap("🔎 Filter: ETH");
    await ada.waitForReply((m) => m.edited && m.text.includes("which currency"));
    await ada.tap("All currencies");
    const everything = await ada.waitForReply((m) => m.edited && m.text.includes("Your transactions"));
    expect(ids(everything)).toEqual(all.slice(0, 5).map((tx) => tx.id));
  });

  it("refuses an unknown currency with a sentence", async () => {
    await ada.send("/transactions doge");
    const reply = await ada.waitForReply();
    expect(reply.text).toContain("I do not know the currency “doge”");
    expect(reply.text).toContain("BTC");
  });

  it("/tx shows one transaction with its details", async () => {
    const buy = all.at(-1) as TransactionRecord;
    await ada.send(`/tx ${buy.id}`);
    const card = await ada.waitForReply(/Transaction #/);
    expect(card.text).toContain(`Transaction #${buy.id}`);
    expect(card.text).toContain("Type: Buy");
    expect(card.text).toContain("State: ⏳ open");
    expect(card.text).toContain("Amount: €100.00 → 0.0015 BTC");
    expect(card.text).toContain("Fee: €1.50");
    expect(card.text).toContain("Created: Nov 22, 2026");

    const withdraw = all[2] as TransactionRecord;
    await ada.send(`/tx ${withdraw.id}`);
    const sent = await ada.waitForReply(/Transaction #/);
    expect(sent.text).toContain("Address: bc1qexampleaddress");
    expect(sent.text).toContain("Fee: 0.0001 BTC");
  });

  it("/tx with a bad id, or one that does not exist, gets a sentence", async () => {
    for (const bad of ["/tx", "/tx abc", "/tx 0", "/tx -3", "/tx 1.5"]) {
      await ada.send(bad);
      const said = (await ada.waitForReply()).text;
      expect(said).toContain("whole number above zero");
      expect(said).toContain(`e.g. /tx ${all[0]?.id} for your newest one`);
    }
    await ada.send("/tx 99999");
    expect((await ada.waitForReply()).text).toBe("There is no transaction #99999 in your account.");
  });

  it("answers in German", async () => {
    const eva = await h.loggedInUser(undefined, { languageCode: "de" });
    await eva.send("/transactions all");
    const list = await eva.waitForReply(/Deine Transaktionen/);
    expect(list.text).toContain("Euro-Einzahlung");
    expect(list.text).toMatch(/250,00\s€/);
    expect(list.buttons.flat()).toContain("Weiter ›");
    await eva.send("/tx 99999");
    expect((await eva.waitForReply()).text).toContain("keine Transaktion #99999");
  });
});

describe("/tx examples for a user without transactions", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it("gives no example number when there is no transaction to point at", async () => {
    const ada = await h.loggedInUser();
    expect(h.sandbox.state.transactionsOf(h.sandbox.seeded.demo)).toEqual([]);
    await ada.send("/tx abc");
    const said = (await ada.waitForReply()).text;
    expect(said).toBe(
      "Send the transaction number after /tx, as /transactions lists it. It is a whole number above zero.",
    );
    await ada.send("/transactions");
    const list = (await ada.waitForReply(/Your transactions/)).text;
    expect(list).not.toMatch(/\/tx \d/);
  });
});
