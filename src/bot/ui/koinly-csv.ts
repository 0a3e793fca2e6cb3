/**
 * The statement in Koinly's universal import format (help.koinly.io, "How to create a custom CSV
 * file with your data", Universal template): one row per completed transaction with what was
 * sent and what was received, each with its currency, and the fee. Koinly was chosen over
 * CoinTracking because its universal format takes deposits, withdrawals and trades in one file
 * as amounts sent and received, which is exactly how the exchange's buys, sells, deposits and
 * withdrawals read, with no type vocabulary to map; and it accepts plain dates in UTC.
 *
 * As the template documents them: dates `YYYY-MM-DD HH:MM UTC` (UTC, whatever the user's zone),
 * amounts positive plain decimals with a dot, currencies as upper-case tickers (`BTC`, `EUR`).
 * Only completed transactions (state success): an open or failed one moved nothing. A
 * transaction whose amounts the exchange did not send cannot be imported and is left out (the
 * caller counts it).
 *
 * @example
 * const csv = koinlyCsv(ctx.t, rows, TELEGRAM_FILE_LIMIT);
 */
import type Big from "big.js";
import { decimalFrom } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { TxView } from "../../exchange/partner-read.ts";
import { transactionTypeText } from "./coded-values.ts";
import { limitedCsv, type StatementRow } from "./statement-csv.ts";

/** The universal template's header, exactly as Koinly documents it: its date column is "Koinly Date" in every template. */
export const KOINLY_COLUMNS = [
  "Koinly Date",
  "Sent Amount",
  "Sent Currency",
  "Received Amount",
  "Received Currency",
  "Fee Amount",
  "Fee Currency",
  "Net Worth Amount",
  "Net Worth Currency",
  "Label",
  "Description",
  "TxHash",
] as const;

export interface KoinlyCsv {
  bytes: Buffer;
  rows: number;
  /** Rows left out to stay under the size limit (the oldest). */
  left: number;
  /** Completed transactions without the amounts an import needs. */
  unreadable: number;
}

const EUR = "eur";
const CODE = /^[a-z0-9]{2,10}$/;
const BUYS = new Set(["buy_crypto", "buy"]);
const SELLS = new Set(["sell_crypto", "sell"]);
const DONE = new Set(["success", "completed", "complete", "done"]);

interface Moved {
  amount: Big;
  currency: string;
}

export function koinlyCsv(t: Translate, rows: readonly StatementRow[], limitBytes: number): KoinlyCsv {
  const lines: string[][] = [];
  let unreadable = 0;
  for (const row of rows) {
    const { tx } = row;
    if (tx === undefined || tx.state === undefined || !DONE.has(tx.state)) continue;
    const line = lineOf(t, tx);
    if (line === undefined) unreadable++;
    else lines.push(line);
  }
  return { ...limitedCsv(KOINLY_COLUMNS, lines, limitBytes), unreadable };
}

function lineOf(t: Translate, tx: TxView): string[] | undefined {
  const date = koinlyDate(tx.created_at);
  const moved = movedOf(tx);
  if (date === undefined || moved === undefined) return undefined;
  const fee = feeOf(tx);
  const type = tx.transaction_type === undefined ? "" : transactionTypeText(t, tx.transaction_type);
  return [
    date,
    ...cells(moved.sent),
    ...cells(moved.received),
    ...cells(fee),
    "",
    "",
    "",
    tx.id === undefined ? type : t("statement-koinly-description", { type, id: String(tx.id) }),
    "",
  ];
}

function cells(moved: Moved | undefined): [string, string] {
  return moved === undefined ? ["", ""] : [moved.amount.abs().toFixed(), moved.currency.toUpperCase()];
}

/** What left the account and what came in, by the transaction's type. */
function movedOf(tx: TxView): { sent?: Moved; received?: Moved } | undefined {
  const type = tx.transaction_type ?? "";
  const currency =
    typeof tx.currency_code === "string" && CODE.test(tx.currency_code) ? tx.currency_code : undefined;
  const amount = decimalFrom(tx.amount);
  const crypto = decimalFrom(tx.crypto_amount) ?? decimalFrom(tx.quantity);
  const fiat = decimalFrom(tx.fiat_amount);
  const of = (value: Big | undefined, code: string | undefined): Moved | undefined =>
    value === undefined || code === undefined || value.eq(0) ? undefined : { amount: value, currency: code };
  if (BUYS.has(type)) {
    const sent = of(amount ?? fiat, EUR);
    const received = of(crypto, currency);
    return sent && received ? { sent, received } : undefined;
  }
  if (SELLS.has(type)) {
    const sent = of(amount ?? crypto, currency);
    const received = of(fiat, EUR);
    return sent && received ? { sent, received } : undefined;
  }
  const own = of(amount ?? (currency === EUR ? fiat : crypto), currency);
  if (own === undefined) return undefined;
  // Money that left: withdrawals and sends; everything else came in.
  return /withdraw|send/.test(type) ? { sent: own } : /deposit/.test(type) ? { received: own } : undefined;
}

/** The exchange's fee, and a network fee in the same currency added to it (one fee column). */
function feeOf(tx: TxView): Moved | undefined {
  const fee = decimalFrom(tx.fee);
  const feeCode =
    typeof tx.fee_currency === "string" && CODE.test(tx.fee_currency) ? tx.fee_currency : undefined;
  const miner = decimalFrom(tx.miner_fee);
  const currency =
    typeof tx.currency_code === "string" && CODE.test(tx.currency_code) ? tx.currency_code : undefined;
  let total: Moved | undefined =
    fee && feeCode && !fee.eq(0) ? { amount: fee, currency: feeCode } : undefined;
  if (miner && currency && !miner.eq(0)) {
    if (total === undefined) total = { amount: miner, currency };
    else if (total.currency === currency) total = { amount: total.amount.plus(miner), currency };
  }
  return total;
}

/** `2026-11-22 10:00 UTC`, or undefined when there is no readable time. */
export function koinlyDate(value: unknown): string | undefined {
  const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
