/**
 * The balance screen's lines, in both modes: the euro balance, the total value, one line per crypto
 * held with its EUR value, and the currencies with nothing in them folded into one line.
 *
 * @example
 * const lines = balanceLines(ctx.t, { eur, total, crypto }, locale);
 */
import type Big from "big.js";
import { formatAmount } from "../../money.ts";
import type { Translate } from "../../translate.ts";
import type { BalanceRow } from "./recognise.ts";

export interface BalanceView {
  /** The euro balance, when known. */
  eur?: Big;
  /** Euros and crypto together, in EUR, when known. */
  total?: Big;
  /** Every crypto balance (zero ones too). */
  crypto: readonly BalanceRow[];
}

export function balanceLines(t: Translate, view: BalanceView, locale: string): string[] {
  const lines: string[] = [];
  if (view.eur !== undefined) lines.push(t("balance-eur", { amount: formatAmount(view.eur, "eur", locale) }));
  if (view.total !== undefined) {
    lines.push(t("balance-total", { amount: formatAmount(view.total, "eur", locale) }));
  }
  const held = view.crypto.filter((row) => row.amount.gt(0));
  const empty = view.crypto.filter((row) => !row.amount.gt(0));
  if (held.length === 0) {
    lines.push(t("balance-no-crypto"));
    return lines;
  }
  for (const row of held) {
    const amount = formatAmount(row.amount, row.currency, locale);
    lines.push(
      row.eur === undefined
        ? t("balance-crypto-line-plain", { amount })
        : t("balance-crypto-line", { amount, value: formatAmount(row.eur, "eur", locale) }),
    );
  }
  if (empty.length > 0) {
    lines.push(t("balance-zero-line", { codes: empty.map((row) => row.currency.toUpperCase()).join(", ") }));
  }
  return lines;
}
