import Big from "big.js";
import { describe, expect, it } from "vitest";
import { type FeeRequest, mergeText, nextStep, typeWords } from "../../../src/bot/ui/fee-input.ts";
import { MINER_FEES, SEND_FEES, SEND_MINIMUMS, tradeFee } from "../../../src/sandbox/rules.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import { withLoggedInUser } from "../../support/suites.ts";

const currencies = [
  { code: "btc", name: "Bitcoin" },
  { code: "usdc", name: "USD Coin" },
];
const words = typeWords(
  (key) =>
    ({ "fees-button-buy": "Kaufen", "fees-button-sell": "Verkaufen", "fees-button-send": "Senden" })[key] ??
    key,
);
const read = (text: string, request: FeeRequest = {}) => mergeText(request, text, currencies, words);

describe("reading /fees arguments", () => {
  it("finds type, amount and currency in any order, by code, name or button label", () => {
    expect(read("sell 0.01 btc")).toEqual({ request: { type: "sell", amount: "0.01", currency: "btc" } });
    expect(read("0,01 Bitcoin verkaufen")).toEqual({
      request: { type: "sell", amount: "0,01", currency: "btc" },
    });
    expect(read("buy 100€")).toEqual({ request: { type: "buy", amount: "100", currency: "eur" } });
    expect(read("send usd coin")).toEqual({ request: { type: "send", currency: "usdc" } });
    expect(read("btceur", { type: "send" })).toEqual({ request: { type: "send", currency: "btc" } });
  });
  it("leaves amounts for parseAmount and refuses unknown currencies", () => {
    expect(read("buy 1e5")).toEqual({ request: { type: "buy", amount: "1e5" } });
    expect(read("buy 1 000")).toEqual({ request: { type: "buy", amount: "1 000" } });
    expect(read("sell 1 doge")).toEqual({
      refusal: { key: "fees-unknown-currency", vars: { input: "doge", codes: "BTC, USDC" } },
    });
  });
  it("asks for what is missing, refuses bad amounts with money.ts's reasons", () => {
    expect(nextStep({})).toMatchObject({ kind: "ask", ask: "type" });
    expect(nextStep({ type: "buy" })).toMatchObject({ kind: "ask", ask: "amount" });
    expect(nextStep({ type: "sell", amount: "1" })).toMatchObject({ kind: "ask", ask: "currency" });
    expect(nextStep({ type: "send" })).toMatchObject({ kind: "ask", ask: "currency" });
    expect(nextStep({ type: "send", currency: "btc" })).toEqual({
      kind: "ready",
      ready: { type: "send", currency: "btc" },
    });
    expect(nextStep({ type: "buy", amount: "100,5" })).toEqual({
      kind: "ready",
      ready: { type: "buy", unit: "eur", amount: "100.5" },
    });
    expect(nextStep({ type: "buy", amount: "1.234" })).toEqual({
      kind: "refused",
      refusal: { key: "amount-error-too-many-decimals", vars: { decimals: 2 } },
      request: { type: "buy" },
    });
    expect(nextStep({ type: "sell", currency: "btc", amount: "0.000000001" })).toMatchObject({
      refusal: { key: "amount-error-too-many-decimals", vars: { decimals: 8 } },
    });
    expect(nextStep({ type: "send", currency: "eur" })).toMatchObject({
      kind: "refused",
      refusal: { key: "fees-send-eur" },
    });
  });
});

describe("/fees", () => {
  let h: Harness;
  let ada: FakeUser;
  withLoggedInUser((harness, user) => {
    h = harness;
    ada = user;
  });

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/fees buy 100");
    expect((await bob.waitForReply()).text).toContain("log in");
  });

  it("/fees buy 100: the exchange's fee for buying for 100 €", async () => {
    await ada.send("/fees buy 100");
    const reply = await ada.waitForReply(/Fee for a buy/);
    expect(tradeFee(new Big(100)).toFixed(2)).toBe("1.50");
    expect(reply.text).toBe(
      ["🧾 Fee for a buy", "", "Amount: €100.00", "Fee: €1.50 (1.5% of the amount)"].join("\n"),
    );
  });

  it("/fees sell 0.01 btc: converted at the current rate, and says it is an estimate", async () => {
    const before = h.sandbox.countRequests("GET", "/v1/exchange-rates");
    await ada.send("/fees sell 0.01 btc");
    const reply = await ada.waitForReply(/Fee for a sell/);
    expect(h.sandbox.countRequests("GET", "/v1/exchange-rates")).toBe(before + 1);
    const fee = tradeFee(new Big("600"));
    expect(reply.text).toContain("Amount: 0.01 BTC ≈ €600.00");
    expect(reply.text).toContain(`Fee: €${fee.toFixed(2)} (1.5% of the amount)`);
    expect(reply.text).toContain("estimate");
    expect(reply.text).toContain("€60,000.00 per BTC");
    // The exchange was asked about the euro amount.
    const asked = h.sandbox.requests.filter((r) => r.path === "/v1/fees/sell").at(-1);
    expect(asked?.query).toMatchObject({ amount: "600", currency_code: "btc" });
  });

  it("/fees send btc: exchange fee, miner fee, together, and the minimum", async () => {
    await ada.send("/fees send btc");
    const reply = await ada.waitForReply(/Fees for sending BTC/);
    const total = new Big(SEND_FEES.btc ?? "").plus(MINER_FEES.btc ?? "");
    expect(reply.text).toBe(
      [
        "🧾 Fees for sending BTC",
        "",
        `Exchange fee: ${SEND_FEES.btc} BTC`,
        `Miner fee: ${MINER_FEES.btc} BTC`,
        `Fees together: ${total.toFixed()} BTC`,
        `Minimum amount to send: ${SEND_MINIMUMS.btc} BTC`,
      ].join("\n"),
    );
  });

  it("/fees send with an amount says what it costs, or that it is below the minimum", async () => {
    await ada.send("/fees send 0.01 btc");
    expect((await ada.waitForReply(/Fees for sending/)).text).toContain(
      "Sending 0.01 BTC costs 0.0003 BTC in fees.",
    );
    await ada.send("/fees send 0.0001 btc");
    expect((await ada.waitForReply(/Fees for sending/)).text).toContain(
      `⚠️ 0.0001 BTC is below the minimum of ${SEND_MINIMUMS.btc} BTC.`,
    );
  });

  it("refuses bad amounts with the sentence saying why", async () => {
    const cases: [string, string][] = [
      ["/fees buy 1e5", "without an exponent"],
      ["/fees buy -5", "cannot be negative"],
      ["/fees buy 0", "more than zero"],
      ["/fees buy 100.123", "at most 2 here"],
      ["/fees buy 1,00.50", "separators do not fit together"],
      ["/fees sell 0.000000001 btc", "at most 8 here"],
    ];
    for (const [command, sentence] of cases) {
      await ada.send(command);
      expect((await ada.waitForReply()).text, command).toContain(sentence);
    }
  });

  it("refuses unknown currencies, listing the known ones, and euros for a send", async () => {
    await ada.send("/fees sell 1 doge");
    expect((await ada.waitForReply()).text).toBe(
      "I do not know the currency “doge”. Known: BTC, ETH, LTC, XRP, USDC and EUR.",
    );
    await ada.send("/fees send eur");
    expect((await ada.waitForReply()).text).toContain("/withdraw");
  });

  it("/fees alone shows usage and buttons; the buttons ask for what is missing", async () => {
    await ada.send("/fees");
    const usage = await ada.waitForReply(/What would an order cost/);
    expect(usage.text).toContain("/fees buy 100");
    expect(usage.text).toContain("/fees sell 0.01 btc");
    expect(usage.text).toContain("/fees send btc");
    expect(usage.buttons).toEqual([["Buy", "Sell", "Send"]]);
    await ada.tap("Sell");
    const which = await ada.waitForReply(/Which currency would you sell/);
    expect(which.buttons.flat()).toEqual(["BTC", "ETH", "LTC", "XRP", "USDC"]);
    await ada.tap("BTC");
    await ada.waitForReply(/How much BTC/);
    await ada.send("0,02");
    const reply = await ada.waitForReply(/Fee for a sell/);
    expect(reply.text).toContain("Amount: 0.02 BTC ≈ €1,200.00");
    expect(reply.text).toContain(`Fee: €${tradeFee(new Big(1200)).toFixed(2)}`);
  });

  it("takes every choice typed as well", async () => {
    await ada.send("/fees");
    await ada.waitForReply(/What would an order cost/);
    await ada.send("hello");
    await ada.waitForReply(/choose Buy, Sell or Send/);
    await ada.send("send");
    await ada.waitForReply(/Which currency would you send/);
    await ada.send("ethereum");
    expect((await ada.waitForReply(/Fees for sending ETH/)).text).toContain(
      `Exchange fee: ${SEND_FEES.eth} ETH`,
    );
  });

  it("asks again after a bad amount in the flow", async () => {
    await ada.send("/fees buy");
    await ada.waitForReply(/How many euros/);
    await ada.send("12.345");
    await ada.waitForReply(/at most 2 here/);
    await ada.waitForReply(/How many euros/);
    await ada.send("50");
    expect((await ada.waitForReply(/Fee for a buy/)).text).toContain("Fee: €0.75");
  });

  it("a type button of an old message starts over from that choice", async () => {
    await ada.send("/fees");
    const usage = await ada.waitForReply(/What would an order cost/);
    await ada.send("buy 20");
    await ada.waitForReply(/Fee for a buy/);
    await ada.tap("Send", usage);
    await ada.waitForReply(/Which currency would you send/);
    await ada.tap("LTC");
    expect((await ada.waitForReply(/Fees for sending LTC/)).text).toContain(
      `Miner fee: ${MINER_FEES.ltc} LTC`,
    );
  });

  it("keeps the flow when the session expires in it: log in right there, then carry on", async () => {
    const eve = await h.loggedInUser();
    await eve.send("/fees sell");
    await eve.waitForReply(/Which currency would you sell/);
    await eve.tap("ETH");
    await eve.waitForReply(/How much ETH/);
    h.sandbox.faults.expireAllTokens();
    await eve.send("1");
    expect((await eve.waitForReply()).text).toContain(
      "Your exchange session has expired. Log in again and we carry on",
    );
    // The e-mail is known: only the password (deleted at once) and a fresh code are asked.
    await eve.waitForReply(/password of demo@sandbox.test/);
    const password = await eve.send(h.sandbox.demo.password);
    await eve.waitForReply(/6-digit/);
    expect(eve.deletedMessageIds()).toContain(password.message_id);
    await eve.send(h.sandbox.currentCode());
    await eve.waitForReply(/Logged in/);
    // …and the question the user answered before the expiry is answered now.
    expect((await eve.waitForReply(/Selling 1 ETH|1 ETH/)).text).toMatch(/fee/i);
  });

  it("ends the flow with a Log in button when the re-login inside it fails", async () => {
    const eve = await h.loggedInUser();
    await eve.send("/fees sell");
    await eve.waitForReply(/Which currency would you sell/);
    await eve.tap("ETH");
    await eve.waitForReply(/How much ETH/);
    h.sandbox.faults.expireAllTokens();
    await eve.send("1");
    await eve.waitForReply(/password of/);
    await eve.send("not-the-password");
    await eve.waitForReply(/6-digit/);
    await eve.send(h.sandbox.currentCode());
    await eve.waitForReply(/E-mail or password is wrong/);
    const reply = await eve.waitForReply(/expired/);
    expect(reply.buttons.flat()).toContain("🔐 Log in");
  });

  it("answers in German, and takes the German words", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/fees buy 100");
    expect((await ute.waitForReply(/Gebühr für einen Kauf/)).text).toContain(
      "Gebühr: 1,50\u00a0€ (1,5 % des Betrags)",
    );
    await ute.send("/fees");
    const usage = await ute.waitForReply(/Was würde ein Auftrag kosten/);
    expect(usage.buttons).toEqual([["Kaufen", "Verkaufen", "Senden"]]);
    await ute.send("verkaufen");
    await ute.waitForReply(/Welche Währung würdest du verkaufen/);
    await ute.send("btc");
    await ute.waitForReply(/Wie viel BTC\? Schick eine Zahl, z\. B\. 0,01/);
    await ute.send("1,5x");
    expect((await ute.waitForReply()).text).toContain("Das ist kein Betrag");
  });
});
