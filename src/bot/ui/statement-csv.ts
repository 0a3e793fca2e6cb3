/**
 * A statement as CSV for people (csv-stringify): UTF-8, a header row in the user's language, one
 * row per transaction oldest first, with the words the screens use (the type and state of
 * /transactions, ui/transaction-text.ts) and every amount with its currency, formatted for the
 * user's language ("100,00 €", "0.0016 BTC"). Dates are UTC, written `2026-11-22 10:00:00` (a
 * spreadsheet sorts them; the header says UTC). For orders placed through this bot, the order as
 * the bot quoted it and its rate. Past `limitBytes` the oldest rows are left out and the caller
 * says so. Text a spreadsheet would take for a formula gets a leading apostrophe (OWASP's advice
 * on CSV injection). The tax tool's file is koinly-csv.ts.
 *
 * @example
 * const csv = statementCsv(ctx.t, "de", rows, TELEGRAM_FILE_LIMIT);
 * await ctx.replyWithDocument(new InputFile(csv.bytes, "statement-2026-11.csv"));
 */
import { stringify } from "csv-stringify/sync";
import { decimalFrom, formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { TxView } from "../../exchange/partner-read.ts";
import { transactionStateText, transactionTypeText } from "./coded-values.ts";
import { transactionAmountText } from "./transaction-text.ts";

/** A bot order matched to a transaction, as the ledger has it, in words. */
export interface LedgerColumns {
  /** "buy BTC for €100.00" (ui/quote-card.ts's order summary). */
  summary: string;
  /** The quoted rate in EUR per unit of the crypto, where the kind has one. */
  rate?: string;
  /** The crypto the rate prices. */
  currency: string;
}

export interface StatementRow {
  /** The transaction as exchange/partner-read.ts reads the exchange's row (either mode's), when it could. */
  tx: TxView | undefined;
  ledger?: LedgerColumns;
}

/** Telegram's limit for a file a bot sends (Bot API, sendDocument): 50 MB. */
export const TELEGRAM_FILE_LIMIT = 50 * 1024 * 1024;

/** The columns, in order, by their header's translation key. */
export const STATEMENT_COLUMNS = [
  "statement-column-date",
  "statement-column-number",
  "statement-column-type",
  "statement-column-state",
  "statement-column-amount",
  "statement-column-fee",
  "statement-column-details",
  "statement-column-bot-order",
  "statement-column-rate",
] as const;

export interface StatementCsv {
  bytes: Buffer;
  /** Rows written (the header not counted). */
  rows: number;
  /** Rows left out to stay under the limit (the oldest). */
  left: number;
}

/** `rows` newest first, as the exchange lists them; the file is oldest first, as statements read. */
export function statementCsv(
  t: Translate,
  locale: string,
  rows: readonly StatementRow[],
  limitBytes: number,
): StatementCsv {
  return limitedCsv(
    STATEMENT_COLUMNS.map((key) => t(key)),
    rows.map((row) => lineOf(t, locale, row)),
    limitBytes,
  );
}

/**
 * A header and lines (newest first) as CSV bytes oldest first, the oldest lines left out past
 * `limitBytes`. Every cell is defused against formulas.
 */
export function limitedCsv(header: readonly string[], lines: readonly string[][], limitBytes: number) {
  const head = Buffer.from(stringify([header.map(defused)]), "utf8");
  const kept: Buffer[] = [];
  let size = head.length;
  for (const line of lines) {
    const bytes = Buffer.from(stringify([line.map(defused)]), "utf8");
    if (size + bytes.length > limitBytes) break;
    size += bytes.length;
    kept.push(bytes);
  }
  return {
    bytes: Buffer.concat([head, ...kept.reverse()], size),
    rows: kept.length,
    left: lines.length - kept.length,
  };
}

function lineOf(t: Translate, locale: string, row: StatementRow): string[] {
  const tx: TxView = row.tx ?? {};
  const rate = row.ledger?.rate === undefined ? undefined : decimalFrom(row.ledger.rate);
  return [
    utcText(tx.created_at),
    tx.id === undefined ? "" : String(tx.id),
    tx.transaction_type === undefined ? "" : transactionTypeText(t, tx.transaction_type),
    tx.state === undefined ? "" : transactionStateText(t, tx.state),
    transactionAmountText(tx, locale) ?? "",
    feeText(tx, locale),
    detailsOf(tx),
    row.ledger?.summary ?? "",
    rate === undefined || row.ledger === undefined
      ? ""
      : t("statement-rate", {
          rate: formatAmount(rate, "eur", locale),
          currency: row.ledger.currency.toUpperCase(),
        }),
  ];
}

/** `2026-11-22 10:00:00` in UTC, or empty. */
export function utcText(value: unknown): string {
  const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? "" : new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

const CODE = /^[a-z0-9]{2,10}$/;

function feeText(tx: TxView, locale: string): string {
  const parts: string[] = [];
  const fee = decimalFrom(tx.fee);
  const feeCurrency = typeof tx.fee_currency === "string" ? tx.fee_currency : undefined;
  if (fee !== undefined && feeCurrency !== undefined && CODE.test(feeCurrency)) {
    parts.push(formatAmount(fee, feeCurrency, locale));
  }
  const minerFee = decimalFrom(tx.miner_fee);
  const currency = typeof tx.currency_code === "string" ? tx.currency_code : undefined;
  if (minerFee !== undefined && currency !== undefined && CODE.test(currency)) {
    parts.push(formatAmount(minerFee, currency, locale));
  }
  return parts.join(" + ");
}

function detailsOf(tx: TxView): string {
  const value = tx.address ?? tx.reference_number;
  return typeof value === "string" ? value : "";
}

/** Text a spreadsheet would run as a formula (OWASP, CSV injection); a signed number is left as it is. */
const FORMULA = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** A leading apostrophe keeps a spreadsheet from running it; the text stays readable. */
export function defused(value: string): string {
  return FORMULA.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
}
