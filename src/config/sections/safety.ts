/** The safety net: how long new destinations cool off, the allowlist's default, the unfreeze delay. */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { wholeNumber } from "./fields.ts";
import { parseSection } from "./section.ts";

const delaysSchema = z.object({
  UNFREEZE_DELAY_MINUTES: wholeNumber(
    1,
    10_080,
    () => "UNFREEZE_DELAY_MINUTES must be a whole number of minutes from 1 to 10080 (a week).",
  ).prefault("60"),
  SAFETY_COOLING_OFF_MIN_HOURS: wholeNumber(
    1,
    72,
    () => "SAFETY_COOLING_OFF_MIN_HOURS must be a whole number of hours from 1 to 72.",
  ).prefault("1"),
});

/** The cooling-off of new destinations, bound by the minimum the operator set. */
const coolingSchema = (minimum: number) =>
  z.object({
    SAFETY_COOLING_OFF_HOURS: wholeNumber(
      minimum,
      72,
      () =>
        `SAFETY_COOLING_OFF_HOURS must be a whole number of hours from SAFETY_COOLING_OFF_MIN_HOURS (${minimum}) to 72.`,
    ).prefault("24"),
  });

const allowlistSchema = z.object({
  SAFETY_ALLOWLIST_DEFAULT: z
    .enum(["on", "off"], {
      error: (issue) =>
        `SAFETY_ALLOWLIST_DEFAULT must be on or off (whether new users start with the allowlist), not "${String(issue.input)}".`,
    })
    .prefault("on"),
});

export function safetySection(env: Env): Pick<Config, "unfreezeDelayMs" | "cooling" | "allowlistDefault"> {
  const delays = parseSection(delaysSchema, env);
  const minimumHours = delays.SAFETY_COOLING_OFF_MIN_HOURS;
  const cooling = parseSection(coolingSchema(minimumHours), env);
  const allowlist = parseSection(allowlistSchema, env);
  return {
    unfreezeDelayMs: delays.UNFREEZE_DELAY_MINUTES * 60_000,
    cooling: { defaultHours: cooling.SAFETY_COOLING_OFF_HOURS, minimumHours },
    allowlistDefault: allowlist.SAFETY_ALLOWLIST_DEFAULT === "on",
  };
}
