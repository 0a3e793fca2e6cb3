/**
 * The sentence for an amount money.ts refused, and typed text that matches a button's label.
 *
 * @example
 * const parsed = parseAmount(text, "eur");
 * if (!parsed.ok) await ctx.reply(amountRefusalText(ctx.t, parsed));
 */
import type { AmountParse } from "../../money.ts";

type Translate = (key: string, variables?: Record<string, string | number>) => string;

export function amountRefusalText(t: Translate, parsed: Extract<AmountParse, { ok: false }>): string {
  switch (parsed.reason) {
    case "empty":
      return t("amount-error-empty");
    case "not-a-number":
      return t("amount-error-not-a-number");
    case "negative":
      return t("amount-error-negative");
    case "zero":
      return t("amount-error-zero");
    case "exponent":
      return t("amount-error-exponent");
    case "ambiguous-separator":
      return t("amount-error-ambiguous-separator");
    case "too-many-decimals":
      return t("amount-error-too-many-decimals", { decimals: parsed.maxDecimals });
    case "too-long":
      return t("amount-error-too-long");
    case "too-large":
      return t("amount-error-too-large");
  }
}

/** Button labels match typed text loosely: case, spaces and emoji do not matter. */
export function sameLabel(typed: string, label: string): boolean {
  const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  return letters(typed) !== "" && letters(typed) === letters(label);
}
