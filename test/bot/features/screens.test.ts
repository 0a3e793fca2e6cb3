/**
 * The screens a user reads, in both modes and both languages, rendered text asserted: /balance,
 * /prices, /transactions, /tx, /deposit, /limits and the buy card. Partner mode also with the
 * sandbox's other shape of the answers the API reference leaves open (`alternateShapes`), and with
 * shapes nobody planned for (swapped in for one method of the partner client).
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerTradeCardText } from "../../../src/bot/ui/partner-order-card.ts";
import type { PartnerTradeAction, PartnerTradeQuote } from "../../../src/orders/kinds/partner-trade.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";
import { readAsClient } from "../../support/partner-answers.ts";
import { PARTNER_TRADE_QUOTE } from "../../support/quotes.ts";

const FORMAL = /\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihnen)\b/;
/** What a finished screen never shows: raw field names, codes, the transport's envelope. */
const RAW = /Fiat conversion|Currency:|Timestamp|Day used|btceur|fiat_|credit_card|meta|alternate|User id/;

interface Expected {
  euro: string;
  btc: RegExp;
  empty: string;
  rate: RegExp;
  time: RegExp;
  deposit: RegExp;
  txType: string;
  customer: string;
  beneficiary: string;
  reference: RegExp;
  limitToday: string;
}

const EXPECTED: Record<"en" | "de", Expected> = {
  en: {
    euro: "💶 Euro: €1,000.00",
    btc: /^• 0\.01 BTC ≈ €600\.00$/m,
    empty: "No balance in ETH, LTC, XRP, USDC",
    rate: /^Bitcoin \(BTC\/EUR\): €60,000\.00$/m,
    time: /^Rates of Nov 22, 2026, \d+:\d\d [AP]M UTC$/m,
    deposit: /^✅ done · #\d+ Euro deposit · €1,000\.00$/m,
    txType: "Type: Euro deposit",
    customer: "Customer number: ",
    beneficiary: "Beneficiary: Sandbox Exchange GmbH",
    reference: /^Put the reference in your transfer's remittance field/m,
    limitToday: "💶 Euro deposits\nToday: €1,000.00 of €15,000.00\n░░░░░░░░░░ 6%",
  },
  de: {
    euro: "💶 Euro: 1.000,00 €",
    btc: /^• 0,01 BTC ≈ 600,00 €$/m,
    empty: "Kein Guthaben in ETH, LTC, XRP, USDC",
    rate: /^Bitcoin \(BTC\/EUR\): 60\.000,00 €$/m,
    time: /^Kurse vom 22\.11\.2026, \d\d:\d\d UTC$/m,
    deposit: /^✅ erledigt · #\d+ Euro-Einzahlung · 1\.000,00 €$/m,
    txType: "Art: Euro-Einzahlung",
    customer: "Kundennummer: ",
    beneficiary: "Empfänger: Sandbox Exchange GmbH",
    reference: /^Übernimm den Verwendungszweck genau so in deine Überweisung/m,
    limitToday: "💶 Euro-Einzahlungen\nHeute: 1.000,00 € von 15.000,00 €\n░░░░░░░░░░ 6 %",
  },
};

/** The reply's text, with the no-break spaces Intl puts before "€" and "%" made plain. */
async function reply(user: FakeUser, text: string, match: RegExp) {
  await user.send(text);
  const message = await user.waitForReply(match);
  return { ...message, text: message.text.replace(/[\u00a0\u202f]/g, " ") };
}

describe("partner screens, in English and German, in both of the sandbox's shapes", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(async () => {
    await h.stop();
  });

  for (const alternate of [false, true]) {
    for (const language of ["en", "de"] as const) {
      it(`${language}, ${alternate ? "the other shape" : "the usual shape"}`, async () => {
        h.sandbox.faults.alternateShapes(alternate);
        const x = EXPECTED[language];
        const user = await h.partnerUser(undefined, { eur: "0", languageCode: language });
        const account = h.sandbox.state.partnerUser(user.partnerUserId);
        if (account === undefined) throw new Error("no partner user");
        const txId = h.sandbox.deposit({ amount: new Big(1000), accountId: user.partnerUserId }).transaction
          .id;
        h.sandbox.state.credit(account, "btc", new Big("0.01"));
        try {
          const screens: string[] = [];
          const balance = await reply(user, "/balance", /💼/);
          expect(balance.text).toContain(x.euro);
          expect(balance.text).toMatch(x.btc);
          expect(balance.text).toContain(x.empty);
          const prices = await reply(user, "/prices", /📈/);
          expect(prices.text).toMatch(x.rate);
          expect(prices.text).toMatch(x.time);
          expect(prices.text.match(/UTC/g)).toHaveLength(1);
          const list = await reply(user, "/transactions", /📜/);
          expect(list.text).toMatch(x.deposit);
          expect(list.text).not.toContain(x.customer);
          const tx = await reply(user, `/tx ${txId}`, /🧾/);
          expect(tx.text).toContain(x.txType);
          // Internal ids on /tx only.
          expect(tx.text).toContain(`${x.customer}${user.partnerUserId}`);
          const deposit = await reply(user, "/deposit", /🏦/);
          expect(deposit.text).toContain(x.beneficiary);
          expect(deposit.text).toMatch(x.reference);
          expect(deposit.text).not.toMatch(/Note|Hinweis|remittance field so the deposit/);
          const limits = await reply(user, "/limits", /📏/);
          expect(limits.text).toContain(x.limitToday);
          screens.push(balance.text, prices.text, list.text, deposit.text, limits.text);
          for (const text of screens) expect(text).not.toMatch(RAW);
          if (language === "de") for (const text of [...screens, tx.text]) expect(text).not.toMatch(FORMAL);
        } finally {
          h.sandbox.faults.alternateShapes(false);
        }
      });
    }
  }

  it("shapes nobody planned for: recognised where they can be, the rest named and formatted below", async () => {
    const partner = h.deps.partner;
    if (partner === undefined) throw new Error("partner mode expected");
    const real = partner.api;
    const user = await h.partnerUser();
    const swap = (method: string, answer: unknown) => {
      partner.api = new Proxy(real, {
        get: (target, key) => {
          if (key === method) return async (...args: unknown[]) => readAsClient(method, args, answer);
          const value: unknown = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    };
    try {
      swap("userBalance", {
        result: { wallets: [{ asset: "BTC", available: "0.5", eurValue: 30000, custody: "cold" }] },
      });
      const balance = await reply(user, "/balance", /💼/);
      expect(balance.text).toContain("• 0.5 BTC ≈ €30,000.00");
      expect(balance.text).toContain("BTC › Custody: cold");

      swap("exchangeRates", { rates: { BTC_EUR: { symbol: "BTC-EUR", last: "61000.5", time: 1795521050 } } });
      const prices = await reply(user, "/prices", /📈/);
      expect(prices.text).toMatch(/^Bitcoin \(BTC\/EUR\): €61,000\.50$/m);
      expect(prices.text).toMatch(/^Rates of .+ UTC$/m);

      swap("userTransactions", {
        data: {
          records: [
            {
              id: 77,
              status: "completed",
              type: "buy",
              pair: "btceur",
              amount: 100,
              created: "2026-11-22 09:12:00",
              partner_ref: "X-1",
              user_id: 5,
            },
          ],
        },
      });
      const list = await reply(user, "/transactions", /📜/);
      expect(list.text).toContain(
        "✅ done · #77 Buy · €100.00 → BTC\nNov 22, 2026, 9:12 AM UTC\nPartner ref: X-1",
      );
      expect(list.text).not.toContain("5");

      swap("depositInstructions", {
        bank: { holder: "Sandbox GmbH", iban: "DE02120300000000202051" },
        hint: "SEPA only",
      });
      const deposit = await reply(user, "/deposit", /🏦/);
      expect(deposit.text).toContain("Beneficiary: Sandbox GmbH\nIBAN: DE02120300000000202051");
      expect(deposit.text).toContain("Hint: SEPA only");
      expect(deposit.text).not.toContain("Put the reference");

      swap("userLimits", {
        limit: { code: "fiat_withdrawal", daily: 100 },
        spent: { day_used: 40 },
        tier: "basic",
      });
      const limits = await reply(user, "/limits", /📏/);
      expect(limits.text).toContain("🏦 Euro withdrawals\nToday: €40.00 of €100.00\n▓▓▓▓░░░░░░ 40%");
      expect(limits.text).toContain("Tier: basic");

      swap("userBalance", "just text");
      expect((await reply(user, "/balance", /💼/)).text).toContain("just text");
    } finally {
      partner.api = real;
    }
  });
});

describe("account screens, in English and German", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(async () => {
    await h.stop();
  });

  for (const language of ["en", "de"] as const) {
    it(`${language}: balance, prices, buy card without a card-purchase limit, transactions, tx, limits`, async () => {
      const user = await h.loggedInUser(undefined, { languageCode: language });
      const en = language === "en";
      const balance = await reply(user, "/balance", /💼/);
      expect(balance.text).toMatch(en ? /^💶 Euro: €[\d,]+\.\d\d$/m : /^💶 Euro: [\d.]+,\d\d €$/m);
      const prices = await reply(user, "/prices", /📈/);
      expect(prices.text).toMatch(
        en ? /^▲? ?.*Bitcoin \(BTC\): €60,000\.00/m : /Bitcoin \(BTC\): 60\.000,00 €/m,
      );
      const card = await reply(user, "/buy btc 100", /🧾/);
      expect(card.text).toContain(en ? "You pay: €101.50" : "Du zahlst: 101,50 €");
      expect(card.text).not.toMatch(/credit_card_buy|Limit left|Limit heute/);
      await user.tap(en ? "✅ Confirm" : "✅ Bestätigen", card);
      await user.waitForReply(en ? /Order placed/ : /Auftrag/);
      const list = await reply(user, "/transactions", /📜/);
      const id = /#(\d+)/.exec(list.text)?.[1] ?? "";
      expect(list.text).toMatch(en ? /#\d+ Buy · €100\.00/ : /#\d+ Kauf · 100,00 €/);
      const tx = await reply(user, `/tx ${id}`, /🧾/);
      expect(tx.text).toContain(en ? "Type: Buy" : "Art: Kauf");
      const limits = await reply(user, "/limits", /📏/);
      expect(limits.text).toContain(en ? "💶 Euro deposits" : "💶 Euro-Einzahlungen");
      if (!en)
        for (const text of [balance.text, card.text, list.text, tx.text, limits.text])
          expect(text).not.toMatch(FORMAL);
    });
  }
});

describe("the partner buy and sell card", () => {
  const action = (kind: "partner-buy" | "partner-sell", quote: PartnerTradeQuote): PartnerTradeAction => ({
    id: "a1",
    userId: 1,
    kind,
    currency: "btc",
    amount: quote.pay,
    quote,
    idempotencyKey: "k1",
    createdAt: 0,
    expiresAt: 60_000,
    state: "quoted",
  });
  const t = (key: string, vars?: Record<string, string | number>) =>
    vars === undefined ? key : `${key}(${Object.values(vars).join(",")})`;
  const buy = PARTNER_TRADE_QUOTE;
  const sell = {
    pair: "btceur",
    rate: "60000",
    pay: "0.01",
    payCurrency: "btc",
    get: "600",
    getCurrency: "eur",
  };

  it("says the amount and that the exchange's fee comes on top or off, never a total it cannot know", () => {
    const buyCard = partnerTradeCardText(t, action("partner-buy", buy), "en");
    expect(buyCard).toContain("partner-card-pay-plus-fee(€100.00)");
    expect(buyCard).not.toMatch(/trade-card-pay|trade-card-fee/);
    const sellCard = partnerTradeCardText(t, action("partner-sell", sell), "en");
    expect(sellCard).toContain("partner-card-sell(0.01 BTC)");
    expect(sellCard).toContain("partner-card-get-minus-fee(€600.00)");
  });

  it("shows the fee and the total when the quote holds one", () => {
    const buyCard = partnerTradeCardText(t, action("partner-buy", { ...buy, fee: "1.5" }), "en");
    expect(buyCard).toContain("trade-card-fee(€1.50)");
    expect(buyCard).toContain("trade-card-pay(€101.50)");
    const sellCard = partnerTradeCardText(t, action("partner-sell", { ...sell, fee: "1.5" }), "en");
    expect(sellCard).toContain("trade-card-get(€598.50)");
  });
});
