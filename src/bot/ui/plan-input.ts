/**
 * What a user types after /recurring, read into a plan's terms: the currency, the EUR amount, the
 * schedule and the hour, and an optional end. English and German words both work:
 *
 *   /recurring btc 50 daily 9
 *   /recurring eth 25 weekly monday 18          (wöchentlich montag 18)
 *   /recurring btc 100 monthly last 9 until 2027-06-30   (monatlich letzter 9 bis 30.06.2027)
 *   /recurring btc 100 monthly 15 8 runs 12     (12 mal)
 */
import { parseAmount, toPlainString } from "../../domain/money.ts";
import type { PlanEnd } from "../../plans/book.ts";
import { LAST_FIXED_DAY, type Schedule } from "../../plans/schedule.ts";
import { readTypedDate } from "./date-input.ts";

export interface PlanInput {
  currency: string;
  amount: string;
  schedule: Schedule;
  end?: PlanEnd;
}

/** Which part of the line was wrong (each has its sentence: recurring-bad-*). */
export type PlanInputError = "usage" | "amount" | "schedule" | "weekday" | "day" | "hour" | "end";

/** The sentence of each error. */
export const PLAN_INPUT_ERRORS: Record<PlanInputError, string> = {
  usage: "recurring-bad-usage",
  amount: "recurring-bad-amount",
  schedule: "recurring-bad-schedule",
  weekday: "recurring-bad-weekday",
  day: "recurring-bad-day",
  hour: "recurring-bad-hour",
  end: "recurring-bad-end",
};

export type PlanInputResult = { ok: true; input: PlanInput } | { ok: false; error: PlanInputError };

const DAILY = new Set(["daily", "day", "täglich", "taeglich"]);
const WEEKLY = new Set(["weekly", "week", "wöchentlich", "woechentlich"]);
const MONTHLY = new Set(["monthly", "month", "monatlich"]);
const LAST = new Set(["last", "letzter", "letzten", "ultimo"]);
const RUNS = new Set(["runs", "times", "mal"]);
const UNTIL = new Set(["until", "bis"]);
/** Words between the parts that say nothing (at 9, um 9, on monday, am montag, day 15). */
const FILLER = new Set(["at", "um", "on", "am", "every", "jeden", "jede", "den", "day", "tag", "uhr"]);

const WEEKDAYS: Record<string, number> = {};
for (const [index, names] of [
  ["sunday", "sun", "sonntag", "so"],
  ["monday", "mon", "montag", "mo"],
  ["tuesday", "tue", "dienstag", "di"],
  ["wednesday", "wed", "mittwoch", "mi"],
  ["thursday", "thu", "donnerstag", "do"],
  ["friday", "fri", "freitag", "fr"],
  ["saturday", "sat", "samstag", "sa"],
].entries()) {
  for (const name of names) WEEKDAYS[name] = index;
}

export function readPlanInput(text: string, locale = "en"): PlanInputResult {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  const [code, amountText, every] = words;
  if (code === undefined || amountText === undefined || every === undefined) return fail("usage");
  if (!/^[a-z0-9]{2,16}$/.test(code) || code === "eur") return fail("usage");
  const amount = parseAmount(amountText.replace(/€$/, ""), "eur", locale);
  if (!amount.ok) return fail("amount");
  const rest = words.slice(3).filter((word) => !FILLER.has(word));
  let schedule: Schedule;
  if (DAILY.has(every)) {
    const hour = readHour(rest.shift());
    if (hour === undefined) return fail("hour");
    schedule = { every: "day", hour };
  } else if (WEEKLY.has(every)) {
    const weekday = WEEKDAYS[rest.shift()?.replace(/[.,]$/, "") ?? ""];
    if (weekday === undefined) return fail("weekday");
    const hour = readHour(rest.shift());
    if (hour === undefined) return fail("hour");
    schedule = { every: "week", weekday, hour };
  } else if (MONTHLY.has(every)) {
    const word = rest.shift() ?? "";
    // "15", "15th", "15." (German), or the month's last day.
    const dayWord = word.replace(/^(\d{1,2})(st|nd|rd|th|\.)$/, "$1");
    const day = LAST.has(word) ? "last" : /^\d{1,2}$/.test(dayWord) ? Number(dayWord) : undefined;
    if (day === undefined || (day !== "last" && (day < 1 || day > LAST_FIXED_DAY))) return fail("day");
    const hour = readHour(rest.shift());
    if (hour === undefined) return fail("hour");
    schedule = { every: "month", day, hour };
  } else return fail("schedule");
  const input: PlanInput = { currency: code, amount: toPlainString(amount.value), schedule };
  if (rest.length > 0) {
    const end = readEnd(rest, locale);
    if (end === undefined) return fail("end");
    input.end = end;
  }
  return { ok: true, input };
}

/** "9", "09", "9h", "9:00", "09:00" ("9 uhr": the "uhr" is a filler). */
export function readHour(word: string | undefined): number | undefined {
  const match = /^(\d{1,2})(?::00|h|uhr)?$/.exec(word ?? "");
  if (match === null) return undefined;
  const hour = Number(match[1]);
  return hour <= 23 ? hour : undefined;
}

/** "runs 12", "12 runs", "12 mal", "until 2027-06-30", "bis 30.06.2027", "until 06/30/2027" (en). */
function readEnd(words: string[], locale: string): PlanEnd | undefined {
  if (words.length !== 2) return undefined;
  const [first = "", second = ""] = words;
  const count = RUNS.has(first) ? second : RUNS.has(second) ? first : undefined;
  if (count !== undefined) {
    if (!/^\d{1,3}$/.test(count) || Number(count) < 1) return undefined;
    return { runs: Number(count) };
  }
  if (!UNTIL.has(first)) return undefined;
  const until = readTypedDate(second, locale);
  return until === undefined ? undefined : { until };
}

/** English weekday names (0 Sunday – 6), as readPlanInput reads them. */
const WEEKDAY_WORDS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/**
 * The words readPlanInput reads back as `input` (the guided /recurring composes them, so both
 * ways to make a plan go through the same reading and checks).
 */
export function planWords(input: PlanInput): string {
  const { schedule } = input;
  const every =
    schedule.every === "day"
      ? "daily"
      : schedule.every === "week"
        ? `weekly ${WEEKDAY_WORDS[schedule.weekday] ?? ""}`
        : `monthly ${schedule.day}`;
  const end =
    input.end === undefined
      ? ""
      : "runs" in input.end
        ? ` runs ${input.end.runs}`
        : ` until ${input.end.until}`;
  return `${input.currency} ${input.amount} ${every} ${schedule.hour}${end}`;
}

/** A date typed for a plan's end, in the locale's form or ISO → "2027-06-30"; undefined when none. */
export function readEndDate(text: string, locale: string): string | undefined {
  const end = readEnd(["until", text.trim()], locale);
  return end !== undefined && "until" in end ? end.until : undefined;
}

function fail(error: PlanInputError): PlanInputResult {
  return { ok: false, error };
}
