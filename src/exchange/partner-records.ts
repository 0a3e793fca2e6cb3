/**
 * Tolerant readings of the partner API's answers whose payload the exchange's API reference does not show
 * (rates, minimums, user balances, user limits, transactions): a `{status, data}` wrapper or none,
 * a list or one record, numbers as numbers or decimal text, extra fields ignored. What cannot be
 * read comes back undefined, and the caller then leaves that check to the exchange (rule 6)
 * rather than guessing. These are the money path's readings (partner-schemas.ts: the quote's
 * rate, minimum, balance and limit, a withdrawal's id, reconciliation's rows), stricter in the
 * names they take than the screens' (partner-read.ts).
 *
 * @example
 * const rows = recordsOf(answer);
 * const price = decimalField(rowFor(rows, { pair: "btceur" }), ["price", "rate"]);
 */
import type Big from "big.js";
import { decimalFrom } from "../domain/money.ts";

export type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The payload inside a `{status, data}` wrapper (or the answer itself when there is none). */
export function payloadOf(raw: unknown): unknown {
  return isRow(raw) && "data" in raw ? raw.data : raw;
}

/** Where a list may sit inside an object that wraps it (`{items, total}`, `{transactions: […]}`). */
const LIST_KEYS = ["items", "data", "transactions", "results", "records", "rows", "list"] as const;

/** The records of an answer: a list's objects (also inside a list wrapper), or the one object. */
export function recordsOf(raw: unknown): Row[] {
  const payload = payloadOf(raw);
  if (Array.isArray(payload)) return payload.filter(isRow);
  if (!isRow(payload)) return [];
  for (const key of LIST_KEYS) {
    const inner = payload[key];
    if (Array.isArray(inner)) return inner.filter(isRow);
  }
  return [payload];
}

/** A field by name or dotted path (`limit.daily`), or undefined. */
export function fieldOf(row: Row | undefined, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split(".")) value = isRow(value) ? value[part] : undefined;
  return value;
}

/** The first of `paths` that holds a decimal (number or decimal text). */
export function decimalField(row: Row | undefined, paths: readonly string[]): Big | undefined {
  for (const path of paths) {
    const value = decimalFrom(fieldOf(row, path));
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The first of `paths` that holds text, lower-cased. */
export function codeField(row: Row | undefined, paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const value = fieldOf(row, path);
    if (typeof value === "string" && value !== "") return value.toLowerCase();
  }
  return undefined;
}

/**
 * The record whose `pair` (or currency code) is the one asked for; a single record that names no
 * pair at all is taken as the answer to the question asked (the request named the pair).
 */
export function rowForPair(rows: readonly Row[], pair: string, currency: string): Row | undefined {
  const named = rows.find((row) => {
    const code = codeField(row, ["pair", "symbol", "currency_code", "base_currency", "currency"]);
    return code === pair || code === currency;
  });
  if (named !== undefined) return named;
  const only = rows.length === 1 ? rows[0] : undefined;
  return only !== undefined && codeField(only, ["pair", "symbol"]) === undefined ? only : undefined;
}
