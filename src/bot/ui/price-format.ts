/**
 * EUR prices for people. Coins worth less than a euro need more than cents (XRP at 0.5123 €), so
 * below one euro up to six decimals are shown; from one euro on it is money.ts's formatAmount.
 *
 * @example
 * formatPrice(new Big("0.5123"), "de"); // "0,5123 €"
 * formatPrice(new Big("60000"), "en"); // "€60,000.00"
 */
import type Big from "big.js";
import { formatAmount } from "../../domain/money.ts";

export const SMALL_PRICE_DECIMALS = 6;

/** Building an Intl.NumberFormat costs far more than using one: one per locale. */
const SMALL_PRICE_FORMATS = new Map<string, Intl.NumberFormat>();

export function formatPrice(value: Big, locale: string): string {
  if (value.abs().gte(1)) return formatAmount(value, "eur", locale);
  let format = SMALL_PRICE_FORMATS.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: "EUR",
      minimumFractionDigits: 2,
      maximumFractionDigits: SMALL_PRICE_DECIMALS,
    });
    SMALL_PRICE_FORMATS.set(locale, format);
  }
  // Intl formats a decimal string exactly, without passing through a float.
  return format.format(value.toFixed() as unknown as number);
}

/** ▲ up, ▼ down, • unchanged: the direction of a 24 h change. */
export function changeArrow(change: Big): string {
  if (change.gt(0)) return "▲";
  if (change.lt(0)) return "▼";
  return "•";
}
