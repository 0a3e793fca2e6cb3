/**
 * The one renderer for the partner payloads the exchange's API reference leaves unspecified (user balance,
 * deposit instructions, withdraw, pairs, rates, currencies, transactions, limits): it shows the
 * fields it receives, whatever their shape: what the partner client's readings did not recognise
 * (exchange/partner-read.ts), a bank account or a user as they came. Names are translated when
 * known (every name exchange/partner-read.ts reads, and every one the sandbox sends) and otherwise made readable
 * (`settlement_window` → "Settlement window"), decimals and dates are formatted per locale, nested objects
 * are flattened into "Parent › child" labels, and it never throws on any JSON value: a huge payload
 * is cut (and says so), every name and value is HTML-escaped.
 *
 * Coded values are worded (ui/coded-values.ts), never shown as the exchange's codes: a status or
 * state (`active`, `not_required`), a kind (`fiat_withdraw`, `crypto`), a pair (`btceur` →
 * "BTC/EUR"), a currency code (`btc` → "BTC").
 *
 * Formatting, not reading: a number may come as a JSON number or a decimal
 * string and is shown the same; a list is found as exchange/partner-fields.ts finds one; fields that hold
 * identifiers (ids, IBANs, codes, references, phone numbers) are shown as they came, never as
 * numbers; a date-time without a zone is read as UTC.
 *
 * @example
 * const title = ctx.t("partner-banks-view-title");
 * for (const text of fieldMessages(ctx.t, title, (await api.bankAccount(id, bankId)).answer, locale, { empty })) {
 *   await ctx.reply(text, { parse_mode: "HTML" });
 * }
 */
import { decimalFrom, formatNumber } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { DATE_ONLY, dateTimeMs, isRecord, itemsOf, snake, unixMs } from "../../exchange/partner-fields.ts";
import { EUR_VALUE_NAMES } from "../../exchange/partner-read.ts";
import { chunkBlocks, MESSAGE_LIMIT } from "./chunks.ts";
import {
  currencyCodeText,
  pairCodeText,
  statusText,
  TRANSACTION_TYPE_KEYS,
  transactionTypeText,
} from "./coded-values.ts";
import { escapeHtml, formatDate, formatDateTime } from "./format.ts";
import { LIMIT_TYPE_KEYS } from "./limit-block.ts";
import { userText } from "./user-text.ts";

export interface FieldOptions {
  /** Values in `<code>`, so a tap copies them (deposit instructions). */
  copyable?: boolean;
  /** Items of a list shown at most (the rest is counted in one line); default 50. */
  maxItems?: number;
  /** Lines per item at most; default 60. */
  maxLines?: number;
  /**
   * Label keys for names that mean something narrower in this payload (a person's `name` is their
   * first name: `{ name: PERSON_LABELS.name }`).
   */
  labels?: Readonly<Record<string, string>>;
}

/** A person's record (the partner user): `name` is the first name beside `surname`. */
export const PERSON_LABELS: Readonly<Record<string, string>> = { name: "fields-label-first-name" };

/** Deeper than this, a value is shown as compact JSON: no exchange answer nests that far on purpose. */
const MAX_DEPTH = 6;
const MAX_VALUE_CHARS = 300;
const MAX_LABEL_CHARS = 64;
/** A block stays well under one message, so chunkBlocks can always place it. */
const MAX_BLOCK_CHARS = MESSAGE_LIMIT - 256;
const EMPTY = "—";

/**
 * Names the renderer translates, by the key of their label; any other name is made readable from
 * its spelling (English). Every name exchange/partner-read.ts reads is here, and every name the sandbox's
 * partner answers carry (test/bot/ui/field-labels.test.ts holds both to it, in every language).
 */
const LABEL_GROUPS: Record<string, readonly string[]> = {
  "fields-label-amount": ["amount"],
  "fields-label-balance": ["balance", "available_balance"],
  "fields-label-currency": ["currency_code", "currency", "coin", "asset"],
  "fields-label-iban": ["iban", "account_iban"],
  "fields-label-bic": ["swift_bic", "bic", "swift"],
  "fields-label-beneficiary": ["beneficiary", "beneficiary_name", "account_holder", "holder", "recipient"],
  "fields-label-reference": ["reference", "reference_number", "payment_reference", "remittance"],
  "fields-label-bank": ["bank_name", "bank"],
  "fields-label-state": ["state"],
  "fields-label-status": ["status"],
  "fields-label-created": ["created_at", "created"],
  "fields-label-updated": ["updated_at", "updated"],
  "fields-label-price": ["price", "rate", "last", "last_price"],
  "fields-label-pair": ["pair", "market"],
  "fields-label-fee": ["fee", "fee_amount"],
  "fields-label-name": ["name", "currency_name", "title", "full_name"],
  "fields-label-type": ["type", "transaction_type", "kind", "side", "limit_type"],
  "fields-label-available": ["available", "free"],
  "fields-label-reserved": ["locked", "reserved", "on_hold", "frozen"],
  "fields-label-total": ["total"],
  "fields-label-eur-value": EUR_VALUE_NAMES,
  "fields-label-value": ["value"],
  "fields-label-fiat-amount": ["fiat_amount", "eur_amount"],
  "fields-label-code": ["code", "symbol", "ticker"],
  "fields-label-base-currency": ["base_currency", "base", "from"],
  "fields-label-quote-currency": ["quote_currency", "quote", "to", "counter_currency"],
  "fields-label-date": ["date", "datetime"],
  "fields-label-time": ["timestamp", "time"],
  "fields-label-id": ["id", "transaction_id", "tx_id"],
  "fields-label-user-id": ["user_id"],
  "fields-label-crypto-amount": ["crypto_amount", "quantity", "crypto_quantity"],
  "fields-label-fee-currency": ["fee_currency", "fee_currency_code"],
  "fields-label-miner-fee": ["miner_fee", "network_fee"],
  "fields-label-address": ["address", "wallet_address", "street_address"],
  "fields-label-note": ["note", "notes", "remark", "remarks", "instructions", "message"],
  "fields-label-daily": ["daily", "daily_limit", "day_limit", "per_day", "day"],
  "fields-label-monthly": ["monthly", "monthly_limit", "month_limit", "per_month", "month"],
  "fields-label-day-used": ["day_used", "daily_used", "used_today", "used_day", "spent_day"],
  "fields-label-month-used": ["month_used", "monthly_used", "used_this_month", "used_month", "spent_month"],
  "fields-label-decimals": ["decimals"],
  "fields-label-email": ["email"],
  "fields-label-surname": ["surname"],
  "fields-label-phone": ["phone"],
  "fields-label-birth-date": ["date_of_birth", "birth_of_date"],
  "fields-label-building": ["building_number"],
  "fields-label-city": ["city"],
  "fields-label-postal-code": ["postal_code"],
  "fields-label-country": ["country"],
  "fields-label-kyc": ["kyc_status"],
  "fields-label-edd": ["edd_status"],
  "fields-label-limit": ["limit"],
  "fields-label-spent": ["spent"],
  "fields-label-tier": ["tier"],
  "fields-label-buy": ["buy", "minimum_buy", "buy_minimum"],
  "fields-label-sell": ["sell", "minimum_sell", "sell_minimum"],
  "fields-label-minimum": ["minimum"],
  "fields-label-verified": ["verified", "is_verified"],
};

const LABEL_KEYS: ReadonlyMap<string, string> = new Map(
  Object.entries(LABEL_GROUPS).flatMap(([key, names]) => names.map((name) => [name, key] as const)),
);

/** The translation key of a field name's label, or undefined when the label is made from its spelling. */
export function labelKeyOf(name: string): string | undefined {
  return LABEL_KEYS.get(snake(name));
}

/** Names whose values identify something: shown as they came, never reformatted as a number. */
const VERBATIM =
  /(?:^|_)(?:id|ids|iban|bic|swift|code|number|reference|ref|phone|postal|zip|pair|token|hash|address|txid|key|email)(?:_|$)/;
/** A plain decimal as an API sends it: no grouping, no leading zeros (`0012` is a code, not 12). */
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** A decimal with a fraction: never an identifier (those are digits, letters and signs). */
const FRACTION = /\.\d/;

/** A field name for people: translated when common, else "Currency code" from `currency_code`. */
export function fieldLabel(t: Translate, name: string): string {
  const key = labelKeyOf(name);
  if (key) return t(key);
  // An acronym or a code (`BTC`, `BTC/EUR`) stays as it is written.
  if (/^[A-Z][A-Z0-9/]{1,23}$/.test(name)) return name;
  const words = snake(name).replace(/_+/g, " ").trim();
  const text = words === "" ? name : words.charAt(0).toUpperCase() + words.slice(1);
  return text.length > MAX_LABEL_CHARS ? `${text.slice(0, MAX_LABEL_CHARS - 1)}…` : text;
}

function cut(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function dateText(value: string, locale: string): string | undefined {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(ms)) return undefined;
    return formatDate(ms, locale);
  }
  const ms = dateTimeMs(value);
  return ms === undefined ? undefined : formatDateTime(ms, locale);
}

/** A number as people read it, with every decimal it has (a balance is never rounded away). */
function formatDecimal(text: string, locale: string): string | undefined {
  const value = decimalFrom(text);
  if (value === undefined) return undefined;
  const decimals = Math.min(value.toFixed().split(".")[1]?.length ?? 0, 20);
  return formatNumber(value, locale, decimals);
}

/** Names whose value is a status or a state: worded, never the code. */
const STATUS_NAMES = new Set(["status", "state", "kyc_status", "edd_status", "tier", "limit_state"]);
/** Names whose value is a kind of something (a transaction, a limit, a currency). */
const KIND_NAMES = new Set(["type", "transaction_type", "kind", "limit_type", "side"]);
const PAIR_NAMES = new Set(["pair", "market", "symbol"]);
const CURRENCY_NAMES = new Set([
  "currency_code",
  "currency",
  "coin",
  "asset",
  "fee_currency",
  "fee_currency_code",
  "base_currency",
  "quote_currency",
  "counter_currency",
  "code",
  "ticker",
]);
const KIND_KEYS: Readonly<Record<string, string>> = {
  fiat: "fields-kind-fiat",
  crypto: "fields-kind-crypto",
};
/** A value written as a code (`not_required`, `fiat_withdraw`, `btceur`), not as a sentence. */
const CODED = /^[a-z][a-z0-9_-]{0,39}$/i;

/** A coded value under a name that says what it codes, worded; undefined when it is not one. */
function codedValue(t: Translate, name: string, text: string): string | undefined {
  if (!CODED.test(text)) return undefined;
  const code = text.toLowerCase();
  const limit = LIMIT_TYPE_KEYS.get(code);
  if (STATUS_NAMES.has(name)) return statusText(t, code);
  if (KIND_NAMES.has(name)) {
    if (limit !== undefined) return t(limit);
    if (TRANSACTION_TYPE_KEYS[code] !== undefined) return transactionTypeText(t, code);
    return t(KIND_KEYS[code] ?? "fields-kind-other");
  }
  if (PAIR_NAMES.has(name)) return pairCodeText(code);
  if (CURRENCY_NAMES.has(name)) return limit === undefined ? currencyCodeText(code) : t(limit);
  return undefined;
}

/** One scalar value as plain text (not yet escaped). */
export function fieldValue(t: Translate, name: string, value: unknown, locale: string): string {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "boolean") return value ? t("fields-yes") : t("fields-no");
  const key = snake(name);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    const unix = unixMs(key, value);
    if (unix !== undefined) return formatDateTime(unix, locale);
    // Identifiers keep their digits as sent; one with a decimal fraction is no identifier but a
    // number, written as the locale writes numbers (no "451.5" in German).
    if (VERBATIM.test(key) && Number.isInteger(value)) return String(value);
    return formatDecimal(String(value), locale) ?? String(value);
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return EMPTY;
    const date = dateText(text, locale);
    if (date !== undefined) return date;
    const worded = codedValue(t, key, text);
    if (worded !== undefined) return worded;
    if ((!VERBATIM.test(key) || FRACTION.test(text)) && text.length <= 40 && DECIMAL.test(text)) {
      return formatDecimal(text, locale) ?? cut(text);
    }
    return cut(text);
  }
  if (typeof value === "bigint") return value.toString();
  return cut(safeJson(value));
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** "<b>Label</b>: value" lines of one value, nested objects flattened under their parent's label. */
function linesOf(
  t: Translate,
  value: unknown,
  locale: string,
  options: FieldOptions,
  label: string | undefined,
  name: string,
  depth: number,
  out: string[],
): void {
  const limit = options.maxLines ?? 60;
  if (out.length >= limit) return;
  const line = (raw: string) => {
    // Profile fields hold what the user typed (names, addresses): shown without bidi controls.
    const text = userText(raw);
    const shown = options.copyable && text !== EMPTY ? `<code>${escapeHtml(text)}</code>` : escapeHtml(text);
    out.push(label === undefined ? shown : `<b>${escapeHtml(label)}</b>: ${shown}`);
  };
  const below = (childLabel: string) => (label === undefined ? childLabel : `${label} › ${childLabel}`);

  if (depth >= MAX_DEPTH && typeof value === "object" && value !== null) {
    line(cut(safeJson(value)));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      line(EMPTY);
      return;
    }
    if (value.every((v) => v === null || typeof v !== "object")) {
      line(cut(value.map((v) => fieldValue(t, name, v, locale)).join(", ")));
      return;
    }
    for (const [index, item] of value.entries()) {
      if (out.length >= limit) break;
      linesOf(t, item, locale, options, below(`#${index + 1}`), name, depth + 1, out);
    }
    return;
  }
  if (isRecord(value)) {
    const entries = shownEntries(value);
    if (entries.length === 0) {
      line(EMPTY);
      return;
    }
    for (const [childName, child] of entries) {
      if (out.length >= limit) break;
      const override = options.labels?.[snake(childName)];
      const childLabel = override === undefined ? fieldLabel(t, childName) : t(override);
      linesOf(t, child, locale, options, below(childLabel), childName, depth + 1, out);
    }
    return;
  }
  line(fieldValue(t, name, value, locale));
}

/** The lines of one item (an object, or any value), HTML. */
export function fieldLines(
  t: Translate,
  item: unknown,
  locale: string,
  options: FieldOptions = {},
): string[] {
  const out: string[] = [];
  linesOf(t, item, locale, options, undefined, "", 0, out);
  const limit = options.maxLines ?? 60;
  if (out.length >= limit) {
    const hidden = lineCount(item, 0) - out.length;
    if (hidden > 0) out.push(t("fields-more-details", { count: hidden }));
  }
  return out;
}

/**
 * An object's fields as shown: a `meta` or `links` block beside them tells about the answer
 * (its shape, its source, where the next page is), not about the thing shown, and its names are
 * the API's, with no words for people.
 */
function shownEntries(value: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(value);
  const shown = entries.filter(([name]) => !ABOUT_THE_ANSWER.has(snake(name)));
  // Nothing but such a block: that is all there is to show.
  return shown.length === 0 ? entries : shown;
}

const ABOUT_THE_ANSWER = new Set(["meta", "links", "_links"]);

/** How many lines linesOf gives for a value with no limit (counted, not worded). */
function lineCount(value: unknown, depth: number): number {
  if (depth >= MAX_DEPTH && typeof value === "object" && value !== null) return 1;
  if (Array.isArray(value)) {
    if (value.length === 0 || value.every((v) => v === null || typeof v !== "object")) return 1;
    return value.reduce((sum: number, item) => sum + lineCount(item, depth + 1), 0);
  }
  if (isRecord(value)) {
    const children = shownEntries(value).map(([, child]) => child);
    if (children.length === 0) return 1;
    return children.reduce((sum: number, child) => sum + lineCount(child, depth + 1), 0);
  }
  return 1;
}

/**
 * The whole payload as HTML blocks: one per item of a list (see {@link itemsOf}), each under one
 * message; an empty payload gives no block. Join them with chunkBlocks.
 */
export function fieldBlocks(
  t: Translate,
  payload: unknown,
  locale: string,
  options: FieldOptions = {},
): string[] {
  const items = itemsOf(payload);
  const maxItems = options.maxItems ?? 50;
  const blocks = items
    .slice(0, maxItems)
    // A block stays under one message even when its item has many long lines.
    .flatMap((item) => chunkBlocks(fieldLines(t, item, locale, options), "\n", MAX_BLOCK_CHARS));
  if (items.length > maxItems) blocks.push(t("fields-more-items", { count: items.length - maxItems }));
  return blocks;
}

/** A title and the payload's blocks (or `empty` when it has none), joined into as few messages as fit. */
export function fieldMessages(
  t: Translate,
  title: string,
  payload: unknown,
  locale: string,
  options: FieldOptions & { empty: string },
): string[] {
  const blocks = fieldBlocks(t, payload, locale, options);
  return chunkBlocks([title, ...(blocks.length > 0 ? blocks : [options.empty])]);
}
