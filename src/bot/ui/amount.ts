/**
 * The sentence for an amount money.ts refused, and typed text that matches a button's label.
 *
 * @example
 * const parsed = parseAmount(text, "eur");
 * if (!parsed.ok) await ctx.reply(amountRefusalText(ctx.t, parsed));
 */
import type { AmountParse, AmountRefusal } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";

/** The sentence of each reason money.ts refuses an amount for. */
export const AMOUNT_ERROR_KEYS: Record<AmountRefusal, string> = {
  empty: "amount-error-empty",
  "not-a-number": "amount-error-not-a-number",
  negative: "amount-error-negative",
  zero: "amount-error-zero",
  exponent: "amount-error-exponent",
  "ambiguous-separator": "amount-error-ambiguous-separator",
  "too-many-decimals": "amount-error-too-many-decimals",
  "too-long": "amount-error-too-long",
  "too-large": "amount-error-too-large",
};

export function amountRefusalText(t: Translate, parsed: Extract<AmountParse, { ok: false }>): string {
  return t(AMOUNT_ERROR_KEYS[parsed.reason], { decimals: parsed.maxDecimals });
}

/** Button labels match typed text loosely: case, spaces and emoji do not matter. */
export function sameLabel(typed: string, label: string): boolean {
  const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  return letters(typed) !== "" && letters(typed) === letters(label);
}
