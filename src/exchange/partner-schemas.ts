/**
 * The typed results of the partner endpoints whose payload the exchange's API reference does not
 * show (its "Gaps in the resource fields"): update user, user balance, add, view and remove a
 * bank, deposit instructions, user limits, fiat withdraw, pairs, exchange rates, currencies, the
 * three transaction lists and limits minimum. Each schema takes any JSON (nothing is refused, so
 * nothing throws where a shape is new) and hands on what the tolerant readings found, typed:
 * for the screens the rows they recognised and the `rest` nobody did (shown field by field,
 * bot/ui/fields.ts); for the money path (orders/) the figures it may trust, read under their
 * usual names only (partner-records.ts), or absent, and then the exchange decides (rule 6).
 * A single record nobody recognised is `{ kind: "unrecognised" }`, carrying the answer as it came.
 *
 * The documented partner resources (user, master balance, order receipt, bank list) are parsed
 * strictly in schemas.ts, as the account API is.
 *
 * @example
 * const rates = partnerRates("btceur").parse(answer);
 * if (rates.asked?.gt(0)) …; for (const row of rates.rows) …
 */
import Big from "big.js";
import { z } from "zod";
import { itemsOf } from "./partner-fields.ts";
import {
  type BalanceRow,
  type DepositView,
  type LimitView,
  type PartnerTxItem,
  type RateRow,
  readBalances,
  readCurrencyCodes,
  readCurrencyNames,
  readDeposit,
  readLimits,
  readPairs,
  readRates,
  readTransactionItem,
} from "./partner-read.ts";
import { codeField, decimalField, payloadOf, type Row, recordsOf, rowForPair } from "./partner-records.ts";
import { type PartnerTransactionRead, readPartnerTransaction } from "./partner-transaction.ts";
import { looseBoolean, partnerBankAccount } from "./schemas.ts";

/** Any JSON: the readings below decide what it holds. */
const answer = z.unknown();

/** An answer (or one record of it) in a shape nobody recognised, kept as it came for the screens. */
export interface Unrecognised {
  kind: "unrecognised";
  answer: unknown;
}

// ── Acknowledgements (update user, add a bank, remove a bank) ───────────────────────────────────

/** A 2xx whose body nobody needs: its `status` flag when it has one. */
export interface PartnerAck {
  kind: "ack";
  status?: boolean;
}

export const partnerAck = z
  .looseObject({ status: looseBoolean.optional().catch(undefined) })
  .catch({})
  .transform(({ status }): PartnerAck => (status === undefined ? { kind: "ack" } : { kind: "ack", status }));

// ── User balance ───────────────────────────────────────────────────────────────────────────────

export interface PartnerBalances {
  /** Every balance recognised (a currency and an amount), for the screens. */
  rows: BalanceRow[];
  /** Every item or field nobody recognised. */
  rest: unknown[];
  /**
   * What a quote checks an amount against, by lower-case code: the first record naming the
   * currency (`currency_code`, `currency`, `code`) and its amount (`balance`, `available`,
   * `amount`); a currency absent here is left to the exchange.
   */
  spendable: ReadonlyMap<string, Big>;
}

export const partnerBalances = answer.transform((raw): PartnerBalances => {
  const spendable = new Map<string, Big>();
  const seen = new Set<string>();
  for (const row of recordsOf(raw)) {
    const code = codeField(row, ["currency_code", "currency", "code"]);
    if (code === undefined || seen.has(code)) continue;
    seen.add(code);
    const amount = decimalField(row, ["balance", "available", "amount"]);
    if (amount !== undefined) spendable.set(code, amount);
  }
  return { ...readBalances(raw), spendable };
});

// ── One bank account (GET …/bank-accounts/{bankId}) ───────────────────────────────────────────

/** The account, when it has the list's fields, and the answer as it came (the screen shows every field). */
export type PartnerBankView =
  | { kind: "bank"; bank: z.output<typeof partnerBankAccount>; answer: unknown }
  | Unrecognised;

export const partnerBankView = answer.transform((raw): PartnerBankView => {
  const bank = partnerBankAccount.safeParse(payloadOf(raw));
  return bank.success
    ? { kind: "bank", bank: bank.data, answer: raw }
    : { kind: "unrecognised", answer: raw };
});

// ── Deposit instructions ──────────────────────────────────────────────────────────────────────

export interface PartnerDeposit {
  /** The transfer's details recognised; EUR when the answer names no currency. */
  view: DepositView;
  /** Every other field, as it came. */
  rest: Record<string, unknown> | undefined;
}

export const partnerDeposit = answer.transform((raw): PartnerDeposit => readDeposit(raw));

// ── User limits ─────────────────────────────────────────────────────────────────────────────────

/** A limit's ceilings and what was used of them (none used when the answer does not say). */
export interface LimitFigures {
  daily: Big;
  monthly: Big;
  dayUsed: Big;
  monthUsed: Big;
}

export interface PartnerLimits {
  /** Every limit record recognised (a daily or a monthly ceiling), for the screens. */
  rows: LimitView[];
  rest: unknown[];
  /**
   * The limit of the type asked for, as a quote checks against it: the record of that type (by
   * `type`, `code`, `limit.code` or `limit_type`), or the one record the typed request returned,
   * with both ceilings flat (`daily`) or nested as in the account API (`limit.daily`).
   */
  asked?: LimitFigures;
}

function askedLimit(rows: readonly Row[], type: string): LimitFigures | undefined {
  const typed = rows.find((row) => codeField(row, ["type", "code", "limit.code", "limit_type"]) === type);
  const row = typed ?? (rows.length === 1 ? rows[0] : undefined);
  const daily = decimalField(row, ["daily", "limit.daily", "daily_limit"]);
  const monthly = decimalField(row, ["monthly", "limit.monthly", "monthly_limit"]);
  if (daily === undefined || monthly === undefined) return undefined;
  return {
    daily,
    monthly,
    dayUsed: decimalField(row, ["day_used", "spent.day_used", "daily_used"]) ?? new Big(0),
    monthUsed: decimalField(row, ["month_used", "spent.month_used", "monthly_used"]) ?? new Big(0),
  };
}

export function partnerLimits(type?: string) {
  return answer.transform((raw): PartnerLimits => {
    const read = readLimits(raw);
    const asked = type === undefined ? undefined : askedLimit(recordsOf(raw), type);
    return asked === undefined ? read : { ...read, asked };
  });
}

// ── Fiat withdraw ─────────────────────────────────────────────────────────────────────────────

/** The withdrawal's transaction id (`transaction_id`, `id`, `transaction.id`), or the answer as it came. */
export type PartnerWithdrawal = { kind: "receipt"; transactionId: number } | Unrecognised;

export const partnerWithdrawal = answer.transform((raw): PartnerWithdrawal => {
  const id = decimalField(recordsOf(raw)[0], ["transaction_id", "id", "transaction.id"]);
  return id === undefined
    ? { kind: "unrecognised", answer: raw }
    : { kind: "receipt", transactionId: id.toNumber() };
});

// ── Pairs and currencies ────────────────────────────────────────────────────────────────────────

export interface PartnerPairs {
  /** Every pair named (a pair's text, or its base and quote), for the screens. */
  pairs: { base: string; quote: string }[];
  /**
   * The cryptos offered for /buy, /sell and plans, each once: a record's `base_currency` (or
   * `base`), else its pair's text without the `eur` end; never EUR itself.
   */
  bases: string[];
  /** The items as they came (the operator desk lists them). */
  items: unknown[];
}

export const partnerPairs = answer.transform((raw): PartnerPairs => {
  const bases = new Set<string>();
  for (const row of recordsOf(raw)) {
    const pair = codeField(row, ["pair", "symbol"]);
    const base =
      codeField(row, ["base_currency", "base"]) ?? (pair?.endsWith("eur") ? pair.slice(0, -3) : undefined);
    if (base !== undefined && base !== "eur") bases.add(base);
  }
  return { pairs: readPairs(raw), bases: [...bases], items: itemsOf(raw) };
});

export interface PartnerCurrencies {
  /** Names by code in any of the usual spellings, for the rates' lines. */
  names: ReadonlyMap<string, string>;
  /** Names by code as the currency choice reads them: a record's `code` (or `currency_code`) and its `name`. */
  listed: ReadonlyMap<string, string>;
  /** Every code once (a list of bare codes too). */
  codes: string[];
  /** The items as they came (the operator desk lists them). */
  items: unknown[];
}

export const partnerCurrencies = answer.transform((raw): PartnerCurrencies => {
  const listed = new Map<string, string>();
  for (const row of recordsOf(raw)) {
    const code = codeField(row, ["code", "currency_code"]);
    const name = row.name;
    if (code !== undefined && typeof name === "string") listed.set(code, name);
  }
  return { names: readCurrencyNames(raw), listed, codes: readCurrencyCodes(raw), items: itemsOf(raw) };
});

// ── Exchange rates and minimums ─────────────────────────────────────────────────────────────────

export interface PartnerRates {
  /** Every rate recognised (a pair and a price), for the screens and the jobs. */
  rows: RateRow[];
  rest: unknown[];
  /**
   * The price of the pair asked for (query `pair`), as a quote reads it: the record naming the
   * pair or its crypto (a lone record naming no pair is the answer to the question), its `price`,
   * `rate` or `value`.
   */
  asked?: Big;
}

/** The crypto of a pair asked for as the partner API writes it (`btceur` → `btc`). */
const baseOf = (pair: string) => (pair.endsWith("eur") && pair.length > 3 ? pair.slice(0, -3) : pair);

export function partnerRates(pair?: string) {
  return answer.transform((raw): PartnerRates => {
    const read = readRates(raw);
    if (pair === undefined) return read;
    const asked = decimalField(rowForPair(recordsOf(raw), pair, baseOf(pair)), ["price", "rate", "value"]);
    return asked === undefined ? read : { ...read, asked };
  });
}

/** The minimum of a buy (EUR) and of a sell (the crypto) of the pair asked for, when the answer names them. */
export interface PartnerMinimums {
  buy?: Big;
  sell?: Big;
}

export function partnerMinimums(pair?: string) {
  return answer.transform((raw): PartnerMinimums => {
    if (pair === undefined) return {};
    const row = rowForPair(recordsOf(raw), pair, baseOf(pair));
    const buy = decimalField(row, ["buy", "minimum_buy", "buy_minimum", "minimum"]);
    const sell = decimalField(row, ["sell", "minimum_sell", "sell_minimum", "minimum"]);
    return { ...(buy === undefined ? {} : { buy }), ...(sell === undefined ? {} : { sell }) };
  });
}

// ── Transactions ────────────────────────────────────────────────────────────────────────────────

export interface PartnerTransactions {
  /** Every item of the list, read for the screens. */
  items: PartnerTxItem[];
  /** Every record of the list, read for reconciliation (partner-transaction.ts). */
  matches: PartnerTransactionRead[];
}

export const partnerTransactions = answer.transform(
  (raw): PartnerTransactions => ({
    items: itemsOf(raw).map(readTransactionItem),
    matches: recordsOf(raw).map(readPartnerTransaction),
  }),
);

export interface PartnerTransaction {
  /** Read for /tx. */
  item: PartnerTxItem;
  /** Read for reconciliation: an order followed by its id. */
  match: PartnerTransactionRead;
}

export const partnerTransaction = answer.transform(
  (raw): PartnerTransaction => ({
    item: readTransactionItem(raw),
    match: readPartnerTransaction(recordsOf(raw)[0] ?? {}),
  }),
);

// ── The table ───────────────────────────────────────────────────────────────────────────────────

/** The pair a query asks about, when it names one. */
function pairIn(query: Readonly<Record<string, unknown>>): string | undefined {
  return typeof query.pair === "string" ? query.pair : undefined;
}

/**
 * Each tolerant method of the partner client (partner.ts) and the reading of its answer, given
 * the method's arguments: the client reads every answer through this table, and a test double
 * that answers for the client in a shape of its own reads it through the same one.
 */
export const PARTNER_READINGS = {
  updateUser: () => partnerAck,
  userBalance: () => partnerBalances,
  addBankAccount: () => partnerAck,
  bankAccount: () => partnerBankView,
  removeBankAccount: () => partnerAck,
  depositInstructions: () => partnerDeposit,
  userLimits: (_userId: number, type?: string) => partnerLimits(type),
  withdraw: () => partnerWithdrawal,
  pairs: () => partnerPairs,
  exchangeRates: (query: Readonly<Record<string, unknown>> = {}) => partnerRates(pairIn(query)),
  currencies: () => partnerCurrencies,
  allTransactions: () => partnerTransactions,
  userTransactions: () => partnerTransactions,
  userTransaction: () => partnerTransaction,
  minimumLimits: (query: Readonly<Record<string, unknown>> = {}) => partnerMinimums(pairIn(query)),
} as const;
