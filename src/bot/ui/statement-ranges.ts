/**
 * The ranges a statement can cover (this month, last month, this year, last year, all), their
 * buttons, and the times each spans. Months and years are UTC's: the dates in the file are UTC too.
 */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../../translate.ts";
import { CALLBACK, type ExportRange } from "./callback-data.ts";

export const RANGE_KEYS: Record<ExportRange, string> = {
  tm: "export-range-this-month",
  lm: "export-range-last-month",
  ty: "export-range-this-year",
  ly: "export-range-last-year",
  all: "export-range-all",
};

/** True for a range's code (callback data is checked before it is trusted). */
export function isExportRange(text: string | undefined): text is ExportRange {
  return text !== undefined && Object.hasOwn(RANGE_KEYS, text);
}

export function exportRangeKeyboard(t: Translate): InlineKeyboard {
  const button = (range: ExportRange) => [t(RANGE_KEYS[range]), CALLBACK.txExport.data(range)] as const;
  return new InlineKeyboard()
    .text(...button("tm"))
    .text(...button("lm"))
    .row()
    .text(...button("ty"))
    .text(...button("ly"))
    .row()
    .text(...button("all"));
}

/** From (inclusive) and to (exclusive), in ms since the epoch; open ends for `all`. */
export interface Span {
  from?: number;
  to?: number;
  /** For the file's name: `2026-11`, `2026`, `all`. */
  name: string;
}

export function spanOf(range: ExportRange, now: number): Span {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const pad = (n: number) => String(n).padStart(2, "0");
  switch (range) {
    case "tm":
      return {
        from: Date.UTC(year, month, 1),
        to: Date.UTC(year, month + 1, 1),
        name: `${year}-${pad(month + 1)}`,
      };
    case "lm": {
      const start = new Date(Date.UTC(year, month - 1, 1));
      return {
        from: start.getTime(),
        to: Date.UTC(year, month, 1),
        name: `${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}`,
      };
    }
    case "ty":
      return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1), name: String(year) };
    case "ly":
      return { from: Date.UTC(year - 1, 0, 1), to: Date.UTC(year, 0, 1), name: String(year - 1) };
    case "all":
      return { name: "all" };
  }
}
