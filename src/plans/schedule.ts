/**
 * When a recurring plan runs: every day, every week on a weekday, or every month on a day (1–28,
 * or the month's last), at a whole hour on the user's own wall clock. Each run is named by its
 * local date ("2026-03-29"), which is what a run's idempotency key is derived from, so a run is
 * the same run whatever instant it is found late at. Summer time follows the zone's rules
 * (time-zone.ts): 09:00 in Berlin is 08:00 UTC in winter and 07:00 UTC in summer; an hour the
 * clocks skip runs at the same time after the jump.
 *
 * @example
 * const next = nextRun({ every: "month", day: "last", hour: 9 }, "Europe/Berlin", clock.now());
 * next.date; // "2026-11-30"
 */
import { addDays, daysInMonth, instantOf, type LocalDate, localTime } from "../domain/time-zone.ts";

export type Schedule =
  | { every: "day"; hour: number }
  /** `weekday`: 0 (Sunday) – 6. */
  | { every: "week"; weekday: number; hour: number }
  | { every: "month"; day: number | "last"; hour: number };

/** One run of a plan: its local date (the run's name) and the instant it is due, before the spread. */
export interface Occurrence {
  date: string;
  at: number;
}

/** The last day a monthly plan may name: every month has it. */
export const LAST_FIXED_DAY = 28;

type Day = Pick<LocalDate, "year" | "month" | "day">;

/** "2026-03-29" for a local date. */
export function dateText({ year, month, day }: Day): string {
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** "2026-03-29" → its parts; undefined when it is no calendar date. */
export function parseDate(text: string): Day | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function weekdayOf({ year, month, day }: Day): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Whether the schedule runs on this local date. */
export function runsOn(schedule: Schedule, date: Day): boolean {
  switch (schedule.every) {
    case "day":
      return true;
    case "week":
      return weekdayOf(date) === schedule.weekday;
    case "month":
      return schedule.day === "last"
        ? date.day === daysInMonth(date.year, date.month)
        : date.day === schedule.day;
  }
}

/** The first run due strictly after the instant `after`, in `zone`. */
export function nextRun(schedule: Schedule, zone: string, after: number): Occurrence {
  const today = localTime(zone, after);
  // A month and a half covers every schedule (a monthly run is at most 31 days from the last).
  for (let offset = 0; offset < 45; offset++) {
    const date = addDays(today, offset);
    if (!runsOn(schedule, date)) continue;
    const at = instantOf(zone, { ...date, hour: schedule.hour, minute: 0 });
    if (at > after) return { date: dateText(date), at };
  }
  throw new Error("A schedule without a run in 45 days.");
}

/** Every run due after `after` and at or before `until` (oldest first), at most `limit`. */
export function runsBetween(
  schedule: Schedule,
  zone: string,
  after: number,
  until: number,
  limit = 500,
): Occurrence[] {
  const runs: Occurrence[] = [];
  let at = after;
  while (runs.length < limit) {
    const next = nextRun(schedule, zone, at);
    if (next.at > until) break;
    runs.push(next);
    at = next.at;
  }
  return runs;
}
