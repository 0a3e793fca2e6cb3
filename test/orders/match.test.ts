import { describe, expect, it } from "vitest";
import { readPartnerTransaction } from "../../src/exchange/partner-transaction.ts";
import type { MoneyAction } from "../../src/orders/ledger.ts";
import { couldBe, MATCH_SKEW_MS, MATCH_WINDOW_MS } from "../../src/orders/match.ts";
import { TRADE_QUOTE } from "../support/quotes.ts";

const sentAt = Date.parse("2026-11-22T10:00:00Z");
const action: MoneyAction = {
  id: "aaaaaaaaaaaa",
  userId: 1,
  kind: "buy",
  currency: "btc",
  amount: "100",
  quote: TRADE_QUOTE,
  createdAt: sentAt - 5_000,
  expiresAt: sentAt + 55_000,
  state: "sent",
  sentAt,
};
const at = (ms: number) => new Date(ms).toISOString();
const tx = (extra: Record<string, unknown> = {}) => ({
  id: 1,
  state: "opened",
  transaction_type: "buy_crypto",
  created_at: at(sentAt + 200),
  ...extra,
});

describe("couldBe: is this transaction the action's order?", () => {
  it("matches type, currency, amount (EUR or crypto field) and time", () => {
    expect(couldBe(tx({ currency_code: "btc", amount: "100.00" }), action)).toBe(true);
    expect(couldBe(tx({ currency_code: "btc", amount: "0.0016", fiat_amount: "100.00" }), action)).toBe(true);
  });
  it("with only the spec's fields, type and time decide", () => {
    expect(couldBe(tx(), action)).toBe(true);
  });
  it("refuses another type, currency, amount, or a time outside the window", () => {
    expect(couldBe(tx({ transaction_type: "sell_crypto" }), action)).toBe(false);
    expect(couldBe(tx({ currency_code: "eth" }), action)).toBe(false);
    expect(couldBe(tx({ amount: "99.99" }), action)).toBe(false);
    expect(couldBe(tx({ created_at: at(sentAt - MATCH_SKEW_MS - 1) }), action)).toBe(false);
    expect(couldBe(tx({ created_at: at(sentAt + MATCH_WINDOW_MS + 1) }), action)).toBe(false);
  });
});

describe("readPartnerTransaction: a partner row under any of its plausible names", () => {
  const partnerBuy: MoneyAction = { ...action, kind: "partner-buy", idempotencyKey: "k-1" } as MoneyAction;
  it("reads `type`, `currency`, amounts as numbers or text under other names, times without a zone", () => {
    const read = readPartnerTransaction({
      id: "7",
      state: "success",
      type: "buy_crypto",
      currency: "BTC",
      fiat_amount: 100,
      quantity: "0.00166666",
      created_at: "2026-11-22 10:00:00.200",
    });
    expect(read).toMatchObject({
      ok: true,
      tx: { id: 7, transaction_type: "buy_crypto", currency_code: "btc" },
    });
    if (read.ok) expect(couldBe(read.tx, partnerBuy)).toBe(true);
  });
  it("says unreadable when the id, type or time is missing, keeping the id and state it could read", () => {
    expect(readPartnerTransaction({ id: 3, state: "opened", created_at: at(sentAt) })).toEqual({
      ok: false,
      id: 3,
      state: "opened",
    });
    expect(readPartnerTransaction({ ref: "T-1", what: "BUY" })).toEqual({ ok: false });
  });
});
