/**
 * The balance screen's lines, in both modes: the euro balance, the total value, one line per crypto
 * held with its EUR value, and the currencies with nothing in them folded into one line.
 *
 * @example
 * const lines = balanceLines(ctx.t, { eur, total, crypto }, locale);
 */
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { BalanceRow, RateRow } from "../../exchange/partner-read.ts";

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

/**
 * Partner mode's total: the euros and every crypto's EUR value, only when every balance said what
 * it is worth (a partial sum would understate it) and there is a crypto to add.
 */
export function partnerTotal(rows: readonly BalanceRow[]): Big | undefined {
  const crypto = rows.filter((row) => row.currency !== EUR);
  const values = rows.map((row) => (row.currency === EUR ? row.amount : row.eur));
  if (crypto.length === 0 || !values.every((v) => v !== undefined)) return undefined;
  return values.reduce<Big>((sum, v) => sum.plus(v ?? 0), new Big(0));
}

/**
 * Partner mode's crypto balances valued at the partner's EUR rates (GET …/exchange-rates): the
 * same rate every line and the total use, and the one /prices and the quote show. A currency with
 * no EUR rate keeps the value its balance carried, if any.
 */
export function valuedAtRates(rows: readonly BalanceRow[], rates: readonly RateRow[]): BalanceRow[] {
  const price = new Map(rates.filter((rate) => rate.quote === EUR).map((rate) => [rate.base, rate.price]));
  return rows.map((row) => {
    const rate = row.currency === EUR ? undefined : price.get(row.currency);
    return rate === undefined ? row : { ...row, eur: row.amount.times(rate).round(2, Big.roundHalfUp) };
  });
}
