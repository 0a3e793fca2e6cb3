/**
 * A statement as CSV (csv-stringify): UTF-8, a header row, one row per transaction with every
 * field the exchange gave (the union of the rows' fields, the spec's first), then, for orders
 * placed through this bot, the ledger's amount, currency, rate and fee. Identifiers and amounts
 * stay the text they were (never a float: no 1.2e+21, no lost digits), dates are ISO 8601 in
 * UTC with their zone, decimals have a dot, nested values are JSON. Past `limitBytes` the oldest
 * rows are left out and the caller says so. Text a spreadsheet would take for a formula gets a
 * leading apostrophe (OWASP's advice on CSV injection).
 *
 * @example
 * const csv = statementCsv(rows, TELEGRAM_FILE_LIMIT);
 * await ctx.replyWithDocument(new InputFile(csv.bytes, "statement-2026-11.csv"));
 */
import { stringify } from "csv-stringify/sync";
import { normalizeTimestamp } from "../../exchange/schemas.ts";

/** A bot order's numbers from the ledger, for the transaction it was matched to. */
export interface LedgerColumns {
  kind: string;
  amount: string;
  currency: string;
  rate?: string;
  fee?: string;
}

export interface StatementRow {
  /** The transaction as the exchange sent it. */
  fields: Record<string, unknown>;
  ledger?: LedgerColumns;
}

/** Telegram's limit for a file a bot sends (Bot API, sendDocument): 50 MB. */
export const TELEGRAM_FILE_LIMIT = 50 * 1024 * 1024;

/** The spec's fields first (docs: Transaction, account API), then the rest as they appear. */
const FIRST = ["id", "state", "transaction_type", "created_at", "updated_at"];
const LEDGER_HEADER = ["bot_order", "bot_amount", "bot_currency", "bot_rate", "bot_fee"];
/** A field whose text is a date: written as ISO 8601 with its zone. */
const DATE_FIELD = /(?:_at|_date|^date|^time|timestamp)$/i;

export interface StatementCsv {
  bytes: Buffer;
  /** Rows written (the header not counted). */
  rows: number;
  /** Rows left out to stay under the limit (the oldest). */
  left: number;
}

/** `rows` newest first, as the exchange lists them; the file is oldest first, as statements read. */
export function statementCsv(rows: readonly StatementRow[], limitBytes: number): StatementCsv {
  const columns = columnsOf(rows);
  const header = Buffer.from(stringify([[...columns, ...LEDGER_HEADER]]), "utf8");
  const lines: Buffer[] = [];
  let size = header.length;
  // Newest first, so what does not fit is the oldest.
  for (const row of rows) {
    const line = Buffer.from(stringify([lineOf(columns, row)]), "utf8");
    if (size + line.length > limitBytes) break;
    size += line.length;
    lines.push(line);
  }
  return {
    bytes: Buffer.concat([header, ...lines.reverse()], size),
    rows: lines.length,
    left: rows.length - lines.length,
  };
}

function columnsOf(rows: readonly StatementRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.fields)) seen.add(key);
  return [...FIRST.filter((key) => seen.has(key)), ...[...seen].filter((key) => !FIRST.includes(key))];
}

function lineOf(columns: readonly string[], row: StatementRow): string[] {
  const ledger = row.ledger;
  return [
    ...columns.map((key) => cell(key, row.fields[key])),
    ledger?.kind ?? "",
    ledger?.amount ?? "",
    ledger?.currency ?? "",
    ledger?.rate ?? "",
    ledger?.fee ?? "",
  ];
}

/** Text a spreadsheet would run as a formula (OWASP, CSV injection); a signed number is left as it is. */
const FORMULA = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** One field as text: strings as sent (dates in ISO 8601), numbers without exponent, the rest JSON. */
export function cell(key: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") {
    if (DATE_FIELD.test(key)) return normalizeTimestamp(value) ?? value;
    // A leading apostrophe keeps a spreadsheet from running it; the text stays readable.
    return FORMULA.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
  }
  if (typeof value === "number") return plainNumber(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

/** A JSON number as decimal text with a dot and no exponent (1e21 → 1000000000000000000000). */
function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}
