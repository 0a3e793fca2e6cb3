/**
 * The ranges a statement can cover (this month, last month, this year, last year, all), their
 * buttons, and the times each spans. Months and years are UTC's: the dates in the file are UTC too.
 */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../../domain/translate.ts";
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

/**
 * The ranges of the statement for people, and below them the button to the tax tool's file;
 * `koinly`: the ranges of that file.
 */
export function exportRangeKeyboard(
  t: Translate,
  format: "statement" | "koinly" = "statement",
): InlineKeyboard {
  const entry = format === "koinly" ? CALLBACK.txKoinly : CALLBACK.txExport;
  const button = (range: ExportRange) => [t(RANGE_KEYS[range]), entry.data(range)] as const;
  const keyboard = new InlineKeyboard()
    .text(...button("tm"))
    .text(...button("lm"))
    .row()
    .text(...button("ty"))
    .text(...button("ly"))
    .row()
    .text(...button("all"));
  if (format === "statement") keyboard.row().text(t("export-koinly-button"), CALLBACK.txKoinly.data("menu"));
  return keyboard;
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
