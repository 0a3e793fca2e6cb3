/**
 * Recognising the usual fields in the partner payloads the exchange's API reference leaves open
 * (user balances, rates, pairs, transactions, deposit instructions, limits), so that partner
 * screens read like the account ones; what nobody recognised is handed back as the `rest`, which
 * the field renderer (bot/ui/fields.ts) shows below, named and formatted. The partner client
 * (partner.ts, through partner-schemas.ts) hands its callers these readings, never the raw answer.
 *
 * Tolerant reading: a field is found by any of its usual names (snake, camel or kebab case) at
 * any depth of nested objects (breadth first, so the shallowest wins), in any wrapper itemsOf
 * knows (`{status, data}`, `{items, total}`, an object of objects); numbers may come as numbers
 * or decimal text; dates as ISO text (zone-less read as UTC) or unix seconds or milliseconds.
 * Envelope keys (`meta`, `links`) are the transport's, not the user's, and are never shown.
 *
 * @example
 * const { rows, rest } = readBalances(answer);
 */
import type Big from "big.js";
import { decimalFrom } from "../domain/money.ts";
import {
  CODE,
  ENVELOPE,
  FieldReader,
  findField,
  isRecord,
  itemsOf,
  listItems,
  QUOTES,
  snake,
  splitPair,
  unwrapData,
} from "./partner-fields.ts";

/** Names of a balance's value in EUR (the field renderer labels them alike). */
export const EUR_VALUE_NAMES = [
  "fiat_conversion",
  "fiat_value",
  "eur_value",
  "value_eur",
  "value_in_eur",
  "eur",
];

const NAMES = {
  currency: ["currency_code", "currency", "code", "asset", "coin", "symbol", "ticker"],
  balance: ["balance", "available", "available_balance", "amount", "total", "free"],
  eurValue: [...EUR_VALUE_NAMES, "fiat_amount", "eur_amount", "value"],
  pair: ["pair", "symbol", "market", "name"],
  base: ["base_currency", "base", "from", "currency_code", "currency"],
  quote: ["quote_currency", "quote", "to", "counter_currency"],
  price: ["price", "rate", "last", "last_price", "value"],
  time: ["date", "timestamp", "time", "datetime", "updated_at", "created_at", "created"],
  txId: ["id", "transaction_id", "tx_id"],
  state: ["state", "status"],
  txType: ["transaction_type", "type", "kind", "side"],
  created: ["created_at", "created", "date", "timestamp", "time", "datetime"],
  updated: ["updated_at", "updated"],
  amount: ["amount"],
  cryptoAmount: ["crypto_amount", "quantity", "crypto_quantity"],
  fiatAmount: ["fiat_amount", "eur_amount", "total"],
  fee: ["fee", "fee_amount"],
  feeCurrency: ["fee_currency", "fee_currency_code"],
  minerFee: ["miner_fee", "network_fee"],
  address: ["address", "wallet_address"],
  reference: ["reference_number", "reference", "payment_reference", "remittance"],
  beneficiary: ["beneficiary", "beneficiary_name", "account_holder", "holder", "recipient"],
  bank: ["bank_name", "bank"],
  iban: ["iban", "account_iban"],
  bic: ["swift_bic", "bic", "swift"],
  note: ["note", "notes", "remark", "remarks", "instructions", "message"],
  limitType: ["type", "limit_type", "code"],
  daily: ["daily", "daily_limit", "day_limit", "per_day", "day"],
  monthly: ["monthly", "monthly_limit", "month_limit", "per_month", "month"],
  dayUsed: ["day_used", "daily_used", "used_today", "used_day", "spent_day"],
  monthUsed: ["month_used", "monthly_used", "used_this_month", "used_month", "spent_month"],
} as const;

/** Every field name this module reads (field-labels test: each has a label in every language). */
export const RECOGNISED_NAMES: readonly string[] = [...new Set(Object.values(NAMES).flat())];

/**
 * Rows read from items: an item `read` cannot make a row of goes to the rest whole; what is left
 * of one it could goes there too, under `label(row)` when given (`BTC › Reserved`).
 */
function readRows<T>(
  items: readonly unknown[],
  read: (reader: FieldReader) => T | undefined,
  label?: (row: T) => string,
): { rows: T[]; rest: unknown[] } {
  const rows: T[] = [];
  const rest: unknown[] = [];
  for (const item of items) {
    const reader = new FieldReader(item);
    const row = read(reader);
    if (row === undefined) {
      rest.push(item);
      continue;
    }
    rows.push(row);
    const left = reader.rest();
    if (left !== undefined) rest.push(label === undefined ? left : { [label(row)]: left });
  }
  return { rows, rest };
}

/** A pair as its rest is labelled (`BTC/EUR`), the way the screens write a pair. */
const pairLabel = (pair: { base: string; quote: string }) =>
  `${pair.base.toUpperCase()}/${pair.quote.toUpperCase()}`;

// --- balances ---------------------------------------------------------------------------------

export interface BalanceRow {
  /** Lower-case code. */
  currency: string;
  amount: Big;
  /** Its value in EUR, when the exchange said. */
  eur?: Big;
}

/**
 * The items of a balance payload, also when it is an object keyed by currency
 * (`{eur: "10.5", btc: {available: 0.1}}`): each entry becomes an item with its key as currency.
 */
function balanceItems(payload: unknown): unknown[] {
  const value = unwrapData(payload);
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([name]) => !ENVELOPE.has(name));
    // One entry is a balance only under a fiat code: `{result: 42}` is not 42 of a coin "RESULT".
    const keyed =
      (entries.length > 1 || QUOTES.includes(entries[0]?.[0].toLowerCase() ?? "")) &&
      entries.every(
        ([name, child]) =>
          CODE.test(name.toLowerCase()) && (isRecord(child) || decimalFrom(child) !== undefined),
      ) &&
      !entries.some(([name]) => (NAMES.balance as readonly string[]).includes(snake(name)));
    if (keyed) {
      return entries.map(([name, child]) =>
        isRecord(child)
          ? { currency_code: name.toLowerCase(), ...child }
          : { currency_code: name, balance: child },
      );
    }
  }
  return listItems(payload);
}

/** The balances recognised (a currency and an amount), and every other item or field as the rest. */
export function readBalances(payload: unknown): { rows: BalanceRow[]; rest: unknown[] } {
  return readRows(
    balanceItems(payload),
    (reader) => {
      const currency = reader.code(NAMES.currency);
      const amount = reader.decimal(NAMES.balance);
      if (currency === undefined || amount === undefined) return undefined;
      const eur = reader.decimal(NAMES.eurValue);
      return { currency, amount, ...(eur === undefined ? {} : { eur }) };
    },
    (row) => row.currency.toUpperCase(),
  );
}

// --- rates ------------------------------------------------------------------------------------

export interface RateRow {
  base: string;
  quote: string;
  price: Big;
  /** When the exchange set it (one moment, however many fields carry it). */
  time?: number;
}

/** The rates recognised (a pair and a price), and every other item or field as the rest. */
export function readRates(payload: unknown): { rows: RateRow[]; rest: unknown[] } {
  return readRows(
    listItems(payload),
    (reader) => {
      const named = reader.text(NAMES.pair);
      let pair = named === undefined ? undefined : splitPair(named);
      if (pair === undefined) {
        const base = reader.code(NAMES.base);
        const quote = reader.code(NAMES.quote) ?? "eur";
        if (base !== undefined) pair = { base, quote };
      }
      const price = reader.decimal(NAMES.price);
      if (pair === undefined || price === undefined) return undefined;
      const time = reader.date(NAMES.time);
      reader.drop(NAMES.time);
      reader.drop(["base_currency", "quote_currency"]);
      return { ...pair, price, ...(time === undefined ? {} : { time }) };
    },
    pairLabel,
  );
}

/** The pairs of the pairs list, as `{base, quote}`; items that name none are left out. */
export function readPairs(payload: unknown): { base: string; quote: string }[] {
  return itemsOf(payload).flatMap((item) => {
    const reader = new FieldReader(typeof item === "string" ? { pair: item } : item);
    const named = reader.text(NAMES.pair);
    const pair = named === undefined ? undefined : splitPair(named);
    if (pair !== undefined) return [pair];
    const base = reader.code(["base_currency", "base"]);
    const quote = reader.code(["quote_currency", "quote"]);
    return base !== undefined && quote !== undefined ? [{ base, quote }] : [];
  });
}

/** Currency names by code, from the currencies list (`{code, name}` in any of the usual spellings). */
export function readCurrencyNames(payload: unknown): Map<string, string> {
  const names = new Map<string, string>();
  for (const item of itemsOf(payload)) {
    const reader = new FieldReader(item);
    const code = reader.code(["code", "currency_code", "currency", "symbol"]);
    const name = reader.text(["name", "currency_name", "title", "full_name"]);
    if (code !== undefined && name !== undefined) names.set(code, name);
  }
  return names;
}

const LISTED_CODE = /^[a-z0-9]{1,12}$/;

/** The codes of the currencies list, each once (a list of bare codes too), for asking one balance a code. */
export function readCurrencyCodes(payload: unknown): string[] {
  const codes = itemsOf(payload).map((item) =>
    typeof item === "string" ? item : findField(item, ["code", "currency_code", "currency", "symbol"]),
  );
  return [
    ...new Set(
      codes.map((code) => code?.toLowerCase()).filter((code) => code !== undefined && LISTED_CODE.test(code)),
    ),
  ] as string[];
}

// --- transactions -----------------------------------------------------------------------------

/** A transaction as the account screens read it (the fields of exchange/schemas.ts's Transaction, all optional). */
export interface TxView {
  id?: number | string;
  state?: string;
  transaction_type?: string;
  created_at?: number | string;
  updated_at?: number | string;
  [field: string]: unknown;
}

/**
 * A transaction in the account shape (id, state, type, times, currency, amounts, fee, price,
 * address, reference), or undefined when the item names none of a state, a type or a time; and
 * what is left. The currency may come from a pair (`btceur` → btc).
 */
export function readTransaction(
  item: unknown,
  options: { ids?: boolean } = {},
): { tx: TxView | undefined; rest: Record<string, unknown> | undefined } {
  const { tx, reader } = transactionOf(item);
  return { tx, rest: reader.rest(options) };
}

/**
 * One transaction of a partner answer for the screens: recognised or not, what is left of it
 * without the exchange's internal ids (a user's list) and with them (/tx, the operator desk),
 * and the item as it came when it is an object (the statement's row).
 */
export type PartnerTxItem = ({ kind: "transaction"; tx: TxView } | { kind: "unrecognised" }) & {
  rest: Record<string, unknown> | undefined;
  restWithIds: Record<string, unknown> | undefined;
  fields: Record<string, unknown> | undefined;
};

export function readTransactionItem(item: unknown): PartnerTxItem {
  const { tx, reader } = transactionOf(item);
  const left = { rest: reader.rest(), restWithIds: reader.rest({ ids: true }) };
  const fields = isRecord(item) ? item : undefined;
  return tx === undefined
    ? { kind: "unrecognised", ...left, fields }
    : { kind: "transaction", tx, ...left, fields };
}

/** The transaction read, and its reader (which knows the fields used); no transaction without a state, a type or a time. */
function transactionOf(item: unknown): { tx: TxView | undefined; reader: FieldReader } {
  const reader = new FieldReader(unwrapData(item));
  const id = reader.text(NAMES.txId);
  const state = reader.text(NAMES.state);
  const type = reader.text(NAMES.txType);
  const created = reader.date(NAMES.created);
  if (state === undefined && type === undefined && created === undefined) {
    return { tx: undefined, reader: new FieldReader(unwrapData(item)) };
  }
  const updated = reader.date(NAMES.updated);
  let currency = reader.code(NAMES.currency);
  // The pair is read (and so not shown again below the line) even when the currency is named.
  const pair = reader.text(["pair", "symbol", "market"]);
  if (currency === undefined) currency = pair === undefined ? undefined : splitPair(pair)?.base;
  const tx: TxView = {
    ...(id === undefined ? {} : { id }),
    ...(state === undefined ? {} : { state: state.toLowerCase() }),
    ...(type === undefined ? {} : { transaction_type: type.toLowerCase() }),
    ...(created === undefined ? {} : { created_at: created }),
    ...(updated === undefined ? {} : { updated_at: updated }),
    ...(currency === undefined ? {} : { currency_code: currency }),
  };
  const decimals = {
    amount: NAMES.amount,
    crypto_amount: NAMES.cryptoAmount,
    fiat_amount: NAMES.fiatAmount,
    fee: NAMES.fee,
    miner_fee: NAMES.minerFee,
    price: NAMES.price,
  } as const;
  Object.assign(
    tx,
    reader.many(decimals, (names) => reader.decimal(names)?.toFixed()),
  );
  const feeCurrency = reader.code(NAMES.feeCurrency);
  if (feeCurrency !== undefined) tx.fee_currency = feeCurrency;
  const address = reader.text(NAMES.address);
  if (address !== undefined) tx.address = address;
  const reference = reader.text(NAMES.reference);
  if (reference !== undefined) tx.reference_number = reference;
  return { tx, reader };
}

// --- deposit instructions ---------------------------------------------------------------------

export interface DepositView {
  beneficiary?: string;
  iban?: string;
  bic?: string;
  bank?: string;
  reference?: string;
  /** Lower-case code; EUR when the exchange did not say. */
  currency: string;
}

/**
 * The bank transfer's details. The exchange's own note is taken as said when a reference was
 * found (the bot says, in the user's language, where the reference goes); without a reference
 * it stays in the rest, shown as it came.
 */
export function readDeposit(payload: unknown): {
  view: DepositView;
  rest: Record<string, unknown> | undefined;
} {
  const reader = new FieldReader(unwrapData(payload));
  const view: DepositView = { currency: reader.code(["currency_code", "currency"]) ?? "eur" };
  const fields = {
    beneficiary: NAMES.beneficiary,
    iban: NAMES.iban,
    bic: NAMES.bic,
    bank: NAMES.bank,
    reference: NAMES.reference,
  } as const;
  Object.assign(
    view,
    reader.many(fields, (names) => reader.text(names)),
  );
  if (view.reference !== undefined) reader.drop(NAMES.note);
  return { view, rest: reader.rest() };
}

// --- limits -----------------------------------------------------------------------------------

export interface LimitView {
  /** The limit's code (`fiat_deposit`), when the record names one. */
  type?: string;
  currency: string;
  daily?: Big;
  monthly?: Big;
  dayUsed?: Big;
  monthUsed?: Big;
}

/** The limit records recognised (a daily or a monthly ceiling), and every other item or field as the rest. */
export function readLimits(payload: unknown): { rows: LimitView[]; rest: unknown[] } {
  return readRows(itemsOf(payload), (reader) => {
    const daily = reader.decimal(NAMES.daily);
    const monthly = reader.decimal(NAMES.monthly);
    if (daily === undefined && monthly === undefined) return undefined;
    const row: LimitView = { currency: reader.code(["currency_code", "currency"]) ?? "eur" };
    const type = reader.text(NAMES.limitType);
    if (type !== undefined) row.type = type.toLowerCase();
    if (daily !== undefined) row.daily = daily;
    if (monthly !== undefined) row.monthly = monthly;
    const dayUsed = reader.decimal(NAMES.dayUsed);
    if (dayUsed !== undefined) row.dayUsed = dayUsed;
    const monthUsed = reader.decimal(NAMES.monthUsed);
    if (monthUsed !== undefined) row.monthUsed = monthUsed;
    return row;
  });
}
