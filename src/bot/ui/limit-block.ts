/**
 * One limit for people, in both modes: its title, then today's use against the daily ceiling and
 * this month's against the monthly one, each with a progress bar. A ceiling whose use the exchange
 * did not report is shown alone ("Per day: up to €5,000.00"); a missing ceiling is left out.
 *
 * @example
 * limitBlockText(t, { title, daily, dayUsed, monthly, monthUsed }, (v) => formatAmount(v, "eur", locale), locale);
 */
import type Big from "big.js";
import type { Translate } from "../../domain/translate.ts";
import type { LimitType } from "../../exchange/schemas.ts";
import { progressBar } from "./progress-bar.ts";

/** The title of each limit type the spec lists; a type the exchange adds later shows its code. */
export const LIMIT_TYPE_KEYS: ReadonlyMap<string, string> = new Map<LimitType, string>([
  ["fiat_deposit", "limits-type-fiat-deposit"],
  ["crypto_deposit", "limits-type-crypto-deposit"],
  ["fiat_withdrawal", "limits-type-fiat-withdrawal"],
  ["crypto_withdrawal", "limits-type-crypto-withdrawal"],
  ["credit_card_buy", "limits-type-credit-card-buy"],
]);

export interface LimitBlockView {
  title: string;
  daily?: Big;
  monthly?: Big;
  dayUsed?: Big;
  monthUsed?: Big;
}

export function limitBlockText(
  t: Translate,
  view: LimitBlockView,
  amount: (value: Big) => string,
  locale: string,
): string {
  const lines = [view.title];
  const period = (ceiling: Big | undefined, used: Big | undefined, usedKey: string, aloneKey: string) => {
    if (ceiling === undefined) return;
    if (used === undefined) {
      lines.push(t(aloneKey, { ceiling: amount(ceiling) }));
      return;
    }
    lines.push(
      t(usedKey, { used: amount(used), ceiling: amount(ceiling) }),
      progressBar(used, ceiling, locale),
    );
  };
  period(view.daily, view.dayUsed, "limits-today", "limits-day-ceiling");
  period(view.monthly, view.monthUsed, "limits-month", "limits-month-ceiling");
  return lines.join("\n");
}
