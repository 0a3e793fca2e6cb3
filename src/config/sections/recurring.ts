/** Recurring buys (/recurring): the limits, and how the jobs spread and run them. */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { RecurringConfig } from "../types.ts";
import { wholeNumber } from "./fields.ts";
import { parseSection } from "./section.ts";

const whole = (name: string, fallback: string, min: number, max: number, what: string) =>
  wholeNumber(
    min,
    max,
    (value) => `${name} must be a whole number from ${min} to ${max} (${what}), not "${value}".`,
  ).prefault(fallback);

const recurringSchema = z.object({
  RECURRING_MAX_PLANS: whole("RECURRING_MAX_PLANS", "5", 0, 100, "plans per user; 0 turns /recurring off"),
  RECURRING_CATCH_UP_HOURS: whole(
    "RECURRING_CATCH_UP_HOURS",
    "3",
    0,
    48,
    "hours a missed run may still happen",
  ),
  RECURRING_SPREAD_MINUTES: whole(
    "RECURRING_SPREAD_MINUTES",
    "30",
    0,
    59,
    "minutes the runs of one hour spread across",
  ),
  RECURRING_CONCURRENCY: whole("RECURRING_CONCURRENCY", "4", 1, 64, "runs under way at once"),
});

export function recurringSection(env: Env): { recurring: RecurringConfig } {
  const read = parseSection(recurringSchema, env);
  return {
    recurring: {
      maxPlans: read.RECURRING_MAX_PLANS,
      catchUpMs: read.RECURRING_CATCH_UP_HOURS * 3_600_000,
      spreadMs: read.RECURRING_SPREAD_MINUTES * 60_000,
      concurrency: read.RECURRING_CONCURRENCY,
    },
  };
}
