/**
 * Koinly's universal import file from the exchange's transaction kinds: what was sent and what was
 * received per type, the fee (a network fee in the same currency added), only completed
 * transactions, and a transaction without its amounts counted instead of written half.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { KOINLY_COLUMNS, koinlyCsv } from "../../../src/bot/ui/koinly-csv.ts";
import type { StatementRow } from "../../../src/bot/ui/statement-csv.ts";
import { readTransaction } from "../../../src/exchange/partner-read.ts";

const t = (key: string, vars?: Record<string, unknown>) =>
  key === "statement-koinly-description" ? `${String(vars?.type)} #${String(vars?.id)}` : key;
const at = "2026-11-22T10:15:30.000Z";
const row = (fields: Record<string, unknown>): StatementRow => ({
  tx: readTransaction({ state: "success", created_at: at, ...fields }).tx,
});

describe("koinlyCsv", () => {
  it("writes each kind as Koinly reads it, newest last, and leaves out what moved nothing", () => {
    const csv = koinlyCsv(
      t,
      [
        row({
          id: 6,
          transaction_type: "fiat_withdraw",
          currency_code: "eur",
          amount: "250.00",
          fee: "1.50",
          fee_currency: "eur",
        }),
        row({
          id: 5,
          transaction_type: "crypto_withdraw",
          currency_code: "eth",
          amount: "0.5",
          fee: "0.001",
          fee_currency: "eth",
          miner_fee: "0.0004",
        }),
        row({
          id: 4,
          transaction_type: "sell_crypto",
          currency_code: "btc",
          amount: "0.01",
          fiat_amount: "600.00",
          fee: "3",
          fee_currency: "eur",
        }),
        row({
          id: 3,
          state: "error",
          transaction_type: "buy_crypto",
          currency_code: "btc",
          amount: "100",
          crypto_amount: "0.0016",
        }),
        row({ id: 2, transaction_type: "buy_crypto", currency_code: "btc" }),
        row({ id: 1, transaction_type: "crypto_deposit", currency_code: "btc", amount: 0.25 }),
      ],
      1_000_000,
    );
    const rows = parse(csv.bytes, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...KOINLY_COLUMNS]);
    expect(csv).toMatchObject({ rows: 4, left: 0, unreadable: 1 });
    const pick = (r: Record<string, string> | undefined) => [
      r?.["Koinly Date"],
      r?.["Sent Amount"],
      r?.["Sent Currency"],
      r?.["Received Amount"],
      r?.["Received Currency"],
      r?.["Fee Amount"],
      r?.["Fee Currency"],
    ];
    expect(rows.map(pick)).toEqual([
      ["2026-11-22 10:15 UTC", "", "", "0.25", "BTC", "", ""],
      ["2026-11-22 10:15 UTC", "0.01", "BTC", "600", "EUR", "3", "EUR"],
      ["2026-11-22 10:15 UTC", "0.5", "ETH", "", "", "0.0014", "ETH"],
      ["2026-11-22 10:15 UTC", "250", "EUR", "", "", "1.5", "EUR"],
    ]);
    expect(rows.map((r) => r.Description)).toEqual([
      "transactions-type-crypto-deposit #1",
      "transactions-type-sell #4",
      "transactions-type-send #5",
      "transactions-type-fiat-withdraw #6",
    ]);
  });
});
