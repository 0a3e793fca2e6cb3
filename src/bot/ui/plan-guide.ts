/**
 * The buttons of the guided /recurring (flows/plan-steps.ts) and of any question that asks for a
 * whole hour (quiet hours too): how often, which weekday, which day of the month, which hour, how
 * the plan ends. Each button's data comes from the flow's own builder (ui/callback-data.ts).
 */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../../domain/translate.ts";

/** "09:00". */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** Hours most people pick for a plan; any other is typed. */
export const PLAN_HOURS = [6, 7, 8, 9, 12, 15, 18, 20] as const;

/** One button per hour, four to a row. */
export function hourKeyboard(hours: readonly number[], data: (hour: number) => string): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  hours.forEach((hour, index) => {
    if (index > 0 && index % 4 === 0) keyboard.row();
    keyboard.text(hourLabel(hour), data(hour));
  });
  return keyboard;
}

export function everyKeyboard(
  t: Translate,
  data: (every: "day" | "week" | "month") => string,
): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("recurring-guide-button-daily"), data("day"))
    .text(t("recurring-guide-button-weekly"), data("week"))
    .text(t("recurring-guide-button-monthly"), data("month"));
}

/** Monday first, the names in the user's language ("Mo", "Di" … / "Mon", "Tue" …). */
export function weekdayKeyboard(locale: string, data: (weekday: number) => string): InlineKeyboard {
  const name = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
  const keyboard = new InlineKeyboard();
  [1, 2, 3, 4, 5, 6, 0].forEach((weekday, index) => {
    if (index === 4) keyboard.row();
    // 2023-01-01 was a Sunday.
    keyboard.text(name.format(Date.UTC(2023, 0, 1 + weekday)), data(weekday));
  });
  return keyboard;
}

/** The days most plans take (pay days, the month's start and end); any other from 1 to 28 is typed. */
export function dayKeyboard(t: Translate, data: (day: number | "last") => string): InlineKeyboard {
  return new InlineKeyboard()
    .text("1", data(1))
    .text("15", data(15))
    .text("25", data(25))
    .text(t("recurring-guide-button-last-day"), data("last"));
}

export function endKeyboard(t: Translate, data: (end: "none" | "runs" | "until") => string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("recurring-guide-button-no-end"), data("none"))
    .row()
    .text(t("recurring-guide-button-runs"), data("runs"))
    .text(t("recurring-guide-button-until"), data("until"));
}
