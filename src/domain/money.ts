/**
 * Amounts are decimals, never floats (SECURITY.md, rule 6). This is the only place where text typed
 * by a user or sent by the exchange becomes an amount, and the only place amounts become text.
 *
 * @example
 * const parsed = parseAmount("1.000,5", "eur", "de"); // 1000.5
 * if (parsed.ok) formatAmount(parsed.value, "eur", "de"); // "100,50 €"
 */
import Big from "big.js";

export type { Big };

/** Why a typed amount was refused; each reason has a sentence in locales (`amount-error-…`, bot/ui/amount.ts). */
export type AmountRefusal =
  | "empty"
  | "not-a-number"
  | "negative"
  | "zero"
  | "exponent"
  | "ambiguous-separator"
  | "too-many-decimals"
  | "too-long"
  | "too-large";

export type AmountParse =
  | { ok: true; value: Big }
  | { ok: false; reason: AmountRefusal; maxDecimals: number };

/** EUR has cents; crypto amounts are kept to eight decimals (a satoshi). */
export const FIAT_DECIMALS = 2;
export const CRYPTO_DECIMALS = 8;
/** Longer input is noise or an attack, not an amount. */
export const MAX_INPUT_LENGTH = 32;
/** Nobody moves a trillion through a chat; past this the number is a typo. */
export const MAX_AMOUNT = new Big("1e12");

const FIAT_CODES = new Set(["eur"]);

export function isFiat(currency: string): boolean {
  return FIAT_CODES.has(currency.toLowerCase());
}

export function decimalsFor(currency: string): number {
  return isFiat(currency) ? FIAT_DECIMALS : CRYPTO_DECIMALS;
}

/** Characters that only ever group thousands: spaces (also Intl's no-break ones) and apostrophes. */
const GROUP_ONLY = new Set([" ", "\u00a0", "\u202f", "'", "\u2019"]);
const SEPARATOR = /[.,'\u2019 \u00a0\u202f]/g;

/** The decimal and grouping marks a locale writes numbers with (`de`: "," and "."), from Intl. */
function localeMarks(locale: string): { decimal: string; group: string } {
  let marks = LOCALE_MARKS.get(locale);
  if (marks === undefined) {
    const parts = numberFormat(locale, "marks", { useGrouping: true }).formatToParts(1000.5);
    const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
    const group = parts.find((p) => p.type === "group")?.value ?? ",";
    marks = { decimal, group: decimal === "," && group === "," ? "." : group };
    LOCALE_MARKS.set(locale, marks);
  }
  return marks;
}
const LOCALE_MARKS = new Map<string, { decimal: string; group: string }>();

/** `1.000.000` grouped by `.`: a lead of one to three digits (not a zero), then groups of three. */
function validGrouping(integer: string, group: string): boolean {
  const groups = integer.split(group);
  const [lead = "", ...rest] = groups;
  return /^[1-9]\d{0,2}$/.test(lead) && rest.length > 0 && rest.every((g) => /^\d{3}$/.test(g));
}

/**
 * The integer and fraction digits of a number written with separators, read by the locale's
 * rules, or the reason it cannot be read.
 *
 * - Two different marks (`1.000,50`, `1,000.50`): the last one is the decimal mark, whatever the
 *   locale, and the other must group by threes.
 * - One mark, once: the locale's decimal mark is the decimal mark (`1,5` in German, `1.5` in
 *   English). The locale's grouping mark groups when it can (`1.000` in German and `1,000` in
 *   English are a thousand) and is read as the decimal mark when it cannot (`1.5` and `0.001` in
 *   German are not grouped numbers, so they are 1.5 and 0.001).
 * - A mark more than once, a space or an apostrophe: grouping, by threes, or refused.
 */
function splitNumber(
  text: string,
  locale: string,
): { integer: string; fraction: string } | { refusal: AmountRefusal } {
  const marks = [...text.matchAll(SEPARATOR)].map((m) => m[0]);
  if (marks.length === 0) return { integer: text, fraction: "" };
  const kinds = [...new Set(marks)];
  const grouped = (integer: string, group: string, fraction: string) =>
    validGrouping(integer, group)
      ? { integer: integer.split(group).join(""), fraction }
      : { refusal: "ambiguous-separator" as const };
  if (kinds.length > 2) return { refusal: "ambiguous-separator" };
  if (kinds.length === 2) {
    const decimal = marks.at(-1) ?? "";
    const group = kinds.find((k) => k !== decimal) ?? "";
    if (GROUP_ONLY.has(decimal) || marks.filter((m) => m === decimal).length > 1) {
      return { refusal: "ambiguous-separator" };
    }
    const at = text.lastIndexOf(decimal);
    return grouped(text.slice(0, at), group, text.slice(at + 1));
  }
  const mark = kinds[0] ?? "";
  if (GROUP_ONLY.has(mark) || marks.length > 1) return grouped(text, mark, "");
  const [integer = "", fraction = ""] = text.split(mark);
  const { decimal, group } = localeMarks(locale);
  if (mark !== decimal && (mark === group || decimal === ".") && validGrouping(text, mark)) {
    return { integer: integer + fraction, fraction: "" };
  }
  return { integer, fraction };
}

/**
 * Parses what a user typed, by the rules of their locale (`de`: `1.000,50`; `en`: `1,000.50`;
 * see {@link splitNumber} for how an ambiguous mark is read). Refused, with a reason: empty,
 * letters, a sign, an exponent, marks that do not group by threes, more decimals than the currency
 * has, anything over {@link MAX_AMOUNT} or longer than {@link MAX_INPUT_LENGTH} characters.
 */
export function parseAmount(input: string, currency: string, locale = "en"): AmountParse {
  const maxDecimals = decimalsFor(currency);
  const refuse = (reason: AmountRefusal): AmountParse => ({ ok: false, reason, maxDecimals });
  const text = input.trim();
  if (text === "") return refuse("empty");
  if (input.length > MAX_INPUT_LENGTH * 4 || text.length > MAX_INPUT_LENGTH) return refuse("too-long");
  if (text.startsWith("-") || text.startsWith("−")) return refuse("negative");
  if (/^\+?\d*[.,]?\d*e[+-]?\d+$/i.test(text)) return refuse("exponent");
  // Digits and marks only, a digit at each end: `.5`, `5.` and `+5` are not amounts.
  if (!/^\d(?:[\d.,'\u2019 \u00a0\u202f]*\d)?$/.test(text)) return refuse("not-a-number");
  const split = splitNumber(text, locale);
  if ("refusal" in split) return refuse(split.refusal);
  const { integer, fraction } = split;
  if (!/^\d+$/.test(integer) || (fraction !== "" && !/^\d+$/.test(fraction))) return refuse("not-a-number");
  if (fraction.length > maxDecimals) return refuse("too-many-decimals");
  const value = new Big(fraction === "" ? integer : `${integer}.${fraction}`);
  if (value.eq(0)) return refuse("zero");
  if (value.gt(MAX_AMOUNT)) return refuse("too-large");
  return { ok: true, value };
}

/**
 * Reads a decimal sent by the exchange, which may come as a JSON number or a string
 * (the exchange's API reference types some amounts one way, some the other). Returns undefined when it is not
 * a finite decimal.
 */
export function decimalFrom(value: unknown): Big | undefined {
  if (typeof value === "number") {
    // String(n) is the shortest text that round-trips the double: 0.1 stays "0.1".
    return Number.isFinite(value) ? new Big(String(value)) : undefined;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (!/^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(text)) return undefined;
    return new Big(text);
  }
  return undefined;
}

/** The plain decimal text sent to the exchange: no exponent, no trailing zeros. */
export function toPlainString(value: Big): string {
  const fixed = value.toFixed();
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

/** Rounds down to what the currency can hold, so the bot never offers more than there is. */
export function roundDown(value: Big, currency: string): Big {
  return value.round(decimalsFor(currency), Big.roundDown);
}

/**
 * A currency amount for people: `1.234,50 €` in German, `€1,234.50` in English, `0.0015 BTC`.
 * Crypto shows up to eight decimals and no trailing zeros.
 */
export function formatAmount(value: Big, currency: string, locale: string): string {
  const code = currency.toUpperCase();
  // Intl formats a decimal string exactly, without passing through a float.
  const exact = value.toFixed() as unknown as number;
  if (isFiat(currency)) {
    return numberFormat(locale, `fiat:${code}`, {
      style: "currency",
      currency: code,
      minimumFractionDigits: FIAT_DECIMALS,
      maximumFractionDigits: FIAT_DECIMALS,
    }).format(exact);
  }
  const number = numberFormat(locale, "crypto", {
    minimumFractionDigits: 0,
    maximumFractionDigits: CRYPTO_DECIMALS,
    // Never show more than there is.
    roundingMode: "trunc",
  }).format(exact);
  return `${number} ${code}`;
}

/** A plain number for people, grouped per locale, with up to `maxDecimals` decimals. */
export function formatNumber(value: Big, locale: string, maxDecimals = CRYPTO_DECIMALS): string {
  return numberFormat(locale, `number:${maxDecimals}`, { maximumFractionDigits: maxDecimals }).format(
    value.toFixed() as unknown as number,
  );
}

/**
 * A 24 h change, the one rule wherever one is shown (/price, /prices, inline cards, fired
 * alerts): a sign and always two decimals, rounded half away from zero: `+17.50%`, `-1,38 %`.
 * Fixed decimals, so two changes side by side read at the same precision.
 */
export function formatChange(value: Big, locale: string): string {
  return numberFormat(locale, "change", {
    style: "percent",
    signDisplay: "exceptZero",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    roundingMode: "halfExpand",
  }).format(value.div(100).toFixed() as unknown as number);
}

/** A percentage as a user set it (an alert's ±5 %): up to two decimals, no trailing zeros. */
export function formatPercent(value: Big, locale: string): string {
  return numberFormat(locale, "percent", {
    style: "percent",
    signDisplay: "exceptZero",
    maximumFractionDigits: 2,
  }).format(value.div(100).toFixed() as unknown as number);
}

/**
 * Building an Intl.NumberFormat costs far more than using one (measured: most of a /balance's CPU),
 * so each is built once per locale and kind. `kind` names the options: one kind, one set of options.
 */
const NUMBER_FORMATS = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, kind: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${kind}`;
  let format = NUMBER_FORMATS.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, options);
    // Locales come from a short list and currency codes from the exchange: a bound for safety.
    if (NUMBER_FORMATS.size > 1_000) NUMBER_FORMATS.clear();
    NUMBER_FORMATS.set(key, format);
  }
  return format;
}
