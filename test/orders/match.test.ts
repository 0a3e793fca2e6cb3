import { describe, expect, it } from "vitest";
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
