/**
 * The typed results of the partner endpoints the API reference shows no payload for
 * (exchange/partner-schemas.ts): any JSON is read, never refused; what nobody recognised is a typed
 * value the screens show; numbers come as numbers or text; extra fields change nothing.
 */
import { describe, expect, it } from "vitest";
import {
  partnerAck,
  partnerBalances,
  partnerBankView,
  partnerCurrencies,
  partnerDeposit,
  partnerLimits,
  partnerMinimums,
  partnerPairs,
  partnerRates,
  partnerTransaction,
  partnerTransactions,
  partnerWithdrawal,
} from "../../src/exchange/partner-schemas.ts";

const SCHEMAS = {
  partnerAck,
  partnerBalances,
  partnerBankView,
  partnerCurrencies,
  partnerDeposit,
  partnerLimits: partnerLimits("fiat_withdrawal"),
  partnerMinimums: partnerMinimums("btceur"),
  partnerPairs,
  partnerRates: partnerRates("btceur"),
  partnerTransaction,
  partnerTransactions,
  partnerWithdrawal,
};

const ODD_ANSWERS: unknown[] = [
  null,
  undefined,
  "",
  "OK",
  0,
  42,
  true,
  [],
  {},
  [null, 1, "x", [], {}],
  { status: true },
  { status: false, message: "nope" },
  { data: null },
  { data: { data: { data: [] } } },
  { meta: { total: 0 }, links: {} },
  { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } },
];

describe("every partner schema", () => {
  it("reads any JSON without refusing it (no throw where the shape is new)", () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      for (const raw of ODD_ANSWERS) {
        expect(schema.safeParse(raw).success, `${name} of ${JSON.stringify(raw)}`).toBe(true);
      }
    }
  });
});

describe("a single record nobody recognised", () => {
  it("is `unrecognised`, carrying the answer as it came, for the screens", () => {
    const odd = { status: true, data: { ref: "T-1", sum: "100" } };
    expect(partnerWithdrawal.parse(odd)).toEqual({ kind: "unrecognised", answer: odd });
    expect(partnerBankView.parse(odd)).toEqual({ kind: "unrecognised", answer: odd });
    const tx = partnerTransaction.parse(odd);
    expect(tx.item).toMatchObject({ kind: "unrecognised", rest: { ref: "T-1", sum: "100" } });
    expect(tx.match).toEqual({ ok: false });
  });

  it("a list's rows nobody can read are counted apart from the ones reconciliation can", () => {
    const list = partnerTransactions.parse({
      status: true,
      data: [
        { ref: "T-1", what: "BUY", when: 1_764_000_000, sum: "100" },
        {
          id: "7",
          type: "buy_crypto",
          status: "success",
          created_at: "2026-11-22 10:00:00",
          fiat_amount: 100,
        },
      ],
    });
    expect(list.items.map((item) => item.kind)).toEqual(["unrecognised", "transaction"]);
    expect(list.matches.map((read) => read.ok)).toEqual([false, true]);
    expect(list.matches[1]).toMatchObject({
      ok: true,
      tx: { id: 7, state: "success", transaction_type: "buy_crypto", fiat_amount: "100" },
    });
  });
});

describe("acknowledgements (update user, add and remove a bank)", () => {
  it("say the status flag when there is one, in any spelling", () => {
    expect(partnerAck.parse({ status: true, data: { id: 1 } })).toEqual({ kind: "ack", status: true });
    expect(partnerAck.parse({ status: "false" })).toEqual({ kind: "ack", status: false });
    expect(partnerAck.parse({ status: 1 })).toEqual({ kind: "ack", status: true });
    expect(partnerAck.parse(null)).toEqual({ kind: "ack" });
    expect(partnerAck.parse({ status: "done" })).toEqual({ kind: "ack" });
  });
});

describe("balances", () => {
  it("numbers as text or numbers, extra fields ignored by the money reading and shown by the screens", () => {
    const read = partnerBalances.parse({
      status: true,
      data: [
        { currency_code: "EUR", balance: "10.50", note: "x" },
        { currency: "btc", available: 0.25, fiat_value: "10000" },
      ],
    });
    expect(read.spendable.get("eur")?.toFixed()).toBe("10.5");
    expect(read.spendable.get("btc")?.toFixed()).toBe("0.25");
    expect(read.rows.map((row) => [row.currency, row.amount.toFixed(), row.eur?.toFixed()])).toEqual([
      ["eur", "10.5", undefined],
      ["btc", "0.25", "10000"],
    ]);
    expect(read.rest).toEqual([{ EUR: { note: "x" } }]);
  });

  it("the first record of a currency decides what a quote trusts, even without an amount", () => {
    const read = partnerBalances.parse([
      { code: "eur", reserved: "5" },
      { code: "eur", balance: "100" },
    ]);
    expect(read.spendable.has("eur")).toBe(false);
  });

  it("an object keyed by currency is read for the screens; the money reading leaves it to the exchange", () => {
    const read = partnerBalances.parse({ eur: "10.5", btc: { available: 0.1 } });
    expect(read.rows.map((row) => [row.currency, row.amount.toFixed()])).toEqual([
      ["eur", "10.5"],
      ["btc", "0.1"],
    ]);
    expect(read.spendable.size).toBe(0);
  });
});

describe("rates and minimums of the pair asked for", () => {
  it("a lone record that names no pair is the answer to the question asked", () => {
    const read = partnerRates("btceur").parse({ status: true, data: { price: "50000" } });
    expect(read.asked?.toFixed()).toBe("50000");
    // The screens cannot say which pair it is: shown as it came.
    expect(read.rows).toEqual([]);
    expect(read.rest).toEqual([{ price: "50000" }]);
  });

  it("the record of the pair (or of its crypto) among others; `rate` or `value` for the price", () => {
    const answer = [
      { pair: "etheur", rate: 2500 },
      { currency_code: "BTC", value: "40000.5" },
    ];
    expect(partnerRates("btceur").parse(answer).asked?.toFixed()).toBe("40000.5");
    expect(partnerRates("etheur").parse(answer).asked?.toFixed()).toBe("2500");
    expect(partnerRates("ltceur").parse(answer).asked).toBeUndefined();
    expect(partnerRates().parse(answer).asked).toBeUndefined();
  });

  it("minimums under their usual names, `minimum` for both sides", () => {
    const both = partnerMinimums("btceur").parse({
      data: [{ pair: "btceur", minimum_buy: 10, sell: "0.0002" }],
    });
    expect([both.buy?.toFixed(), both.sell?.toFixed()]).toEqual(["10", "0.0002"]);
    const one = partnerMinimums("btceur").parse({ minimum: "5" });
    expect([one.buy?.toFixed(), one.sell?.toFixed()]).toEqual(["5", "5"]);
    expect(partnerMinimums("btceur").parse([{ pair: "etheur", buy: 1 }])).toEqual({});
  });
});

describe("limits", () => {
  it("the asked type's ceilings flat or nested as the account API writes them; use defaults to none", () => {
    const nested = partnerLimits("fiat_withdrawal").parse({
      data: [
        { limit: { code: "fiat_deposit", daily: 1, monthly: 2 } },
        { limit: { code: "fiat_withdrawal", daily: "5000", monthly: 20000 }, spent: { day_used: "100" } },
      ],
    });
    expect(nested.asked?.daily.toFixed()).toBe("5000");
    expect(nested.asked?.monthly.toFixed()).toBe("20000");
    expect(nested.asked?.dayUsed.toFixed()).toBe("100");
    expect(nested.asked?.monthUsed.toFixed()).toBe("0");
    expect(nested.rows).toHaveLength(2);
  });

  it("no monthly ceiling: no limit the quote checks (the exchange decides)", () => {
    const read = partnerLimits("fiat_withdrawal").parse({ type: "fiat_withdrawal", daily: 5000 });
    expect(read.asked).toBeUndefined();
    expect(read.rows[0]?.daily?.toFixed()).toBe("5000");
  });
});

describe("pairs and currencies", () => {
  it("pairs as text or as records; the cryptos offered, each once, never EUR", () => {
    expect(partnerPairs.parse(["btceur", "ETH/EUR"]).pairs).toEqual([
      { base: "btc", quote: "eur" },
      { base: "eth", quote: "eur" },
    ]);
    const read = partnerPairs.parse({
      data: [{ base_currency: "BTC", quote_currency: "eur" }, { pair: "btceur" }, { symbol: "eureur" }],
    });
    expect(read.bases).toEqual(["btc"]);
    expect(read.items).toHaveLength(3);
  });

  it("codes and names in the usual spellings; a bare code is a code", () => {
    const read = partnerCurrencies.parse({
      status: true,
      data: [{ currency_code: "BTC", currency_name: "Bitcoin" }, { code: "eth", name: "Ether" }, "ltc"],
    });
    expect(read.codes).toEqual(["btc", "eth", "ltc"]);
    expect(Object.fromEntries(read.names)).toEqual({ btc: "Bitcoin", eth: "Ether" });
    // The currency choice reads a record's `name` only.
    expect(Object.fromEntries(read.listed)).toEqual({ eth: "Ether" });
  });
});

describe("deposit instructions", () => {
  it("the transfer's details at any depth; EUR unless named; the rest as it came", () => {
    const read = partnerDeposit.parse({
      status: true,
      data: { bank: { IBAN: "DE02 1203 0000 0000 2020 51", bic: "BYLADEM1001" }, beneficiaryName: "X", x: 1 },
    });
    expect(read.view).toEqual({
      currency: "eur",
      iban: "DE02 1203 0000 0000 2020 51",
      bic: "BYLADEM1001",
      beneficiary: "X",
    });
    expect(read.rest).toEqual({ x: 1 });
  });
});
