/**
 * A text progress bar for limits and the like: `▓▓▓▓░░░░░░ 40 %`. Cells and percentage are rounded
 * down, so a bar only shows full (and 100 %) when the ceiling is really reached; use beyond the
 * ceiling shows a full bar with the true percentage.
 *
 * @example
 * progressBar(new Big(400), new Big(1000), "de"); // "▓▓▓▓░░░░░░ 40 %"
 */
import Big from "big.js";

export const BAR_FILLED = "▓";
export const BAR_EMPTY = "░";

export function progressBar(used: Big, ceiling: Big, locale: string, width = 10): string {
  const ratio = usedRatio(used, ceiling);
  const shown = ratio.gt(1) ? new Big(1) : ratio;
  const filled = Number(shown.times(width).round(0, Big.roundDown).toFixed());
  const bar = BAR_FILLED.repeat(filled) + BAR_EMPTY.repeat(width - filled);
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(
    ratio.round(2, Big.roundDown).toFixed() as unknown as number,
  );
  return `${bar} ${percent}`;
}

/** used / ceiling, never negative; a zero ceiling counts as full once anything is used. */
export function usedRatio(used: Big, ceiling: Big): Big {
  if (used.lte(0)) return new Big(0);
  if (ceiling.lte(0)) return new Big(1);
  return used.div(ceiling);
}
