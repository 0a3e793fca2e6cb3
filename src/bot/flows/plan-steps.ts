/**
 * A new recurring plan asked step by step (/recurring's "New plan" button): the currency
 * (buttons), the EUR amount (the question names the exchange's minimum when it can be read), how
 * often (every day / week / month), the weekday or the day of the month, the hour (buttons of
 * common hours, any other typed) and an optional end (none, after N runs, until a date). The
 * answers come back as the words `/recurring` takes typed (ui/plan-input.ts `planWords`), so the
 * guided and the typed plan go through the same reading, checks, time zone step and card.
 *
 * @example
 * const words = await guidePlan(conversation, ctx, { currencies, minimum: (code) => … });
 * if (words !== undefined) start.text = words;
 */
import type Big from "big.js";
import { formatAmount, parseAmount, toPlainString } from "../../domain/money.ts";
import type { PlanEnd } from "../../plans/book.ts";
import { LAST_FIXED_DAY, type Schedule } from "../../plans/schedule.ts";
import type { Flow, FlowContext } from "../context.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { FLOW_BUTTONS } from "../ui/callback-data.ts";
import { type CurrencyChoice, currencyKeyboard, resolveCurrency } from "../ui/currency-choice.ts";
import { endDateExample } from "../ui/date-input.ts";
import { zoneName } from "../ui/format.ts";
import {
  dayKeyboard,
  endKeyboard,
  everyKeyboard,
  hourKeyboard,
  PLAN_HOURS,
  weekdayKeyboard,
} from "../ui/plan-guide.ts";
import { type PlanInput, planWords, readEndDate, readHour } from "../ui/plan-input.ts";
import { askStep, tapped } from "./guided.ts";
import { flowButtons, type WaitOptions } from "./wait.ts";

const ACTIONS = FLOW_BUTTONS.recurring.actions;
/** The most runs a plan's end may name (readPlanInput reads up to three digits). */
const MAX_RUNS = 999;

export interface PlanGuideOptions {
  /** The currencies on offer (empty: the currency is typed). */
  currencies: readonly CurrencyChoice[];
  /** The exchange's minimum buy in EUR for this currency, as a decimal string, when it can be read. */
  minimum: (code: string) => Promise<string | undefined>;
  /** The user's time zone, asked when none is saved yet: the hour is asked in it, and it is named. */
  zone: () => Promise<string>;
}

/** What every step of the guide shares: the flow, this run's buttons, the user's words and locale. */
interface Guide {
  conversation: Flow;
  buttons: { own: string; wait: WaitOptions };
  /** An action's data on this run's buttons. */
  data: <A extends unknown[]>(action: (...args: A) => string) => (...args: A) => string;
  t: FlowContext["t"];
  locale: string;
}

/** An answer's value and the update that gave it (the next question answers in its chat). */
type Step<T> = { value: T; ctx: FlowContext };

/** The plan's words, or never (the user left with /cancel or another command). */
export async function guidePlan(
  conversation: Flow,
  ctx: FlowContext,
  options: PlanGuideOptions,
): Promise<string> {
  const buttons = await flowButtons(conversation, FLOW_BUTTONS.recurring, "button-inactive");
  const guide: Guide = {
    conversation,
    buttons,
    data:
      (action) =>
      (...args) =>
        buttons.own + action(...args),
    t: ctx.t.bind(ctx),
    locale: await ctx.i18n.getLocale(),
  };
  const currency = await askCurrency(guide, ctx, options.currencies);
  const amount = await askAmount(guide, currency.ctx, currency.value, await options.minimum(currency.value));
  const schedule = await askSchedule(guide, amount.ctx);
  const hour = await askHour(guide, schedule.ctx, await options.zone());
  const end = await askEnd(guide, hour.ctx);
  const input: PlanInput = {
    currency: currency.value,
    amount: amount.value,
    schedule: schedule.value(hour.value),
    ...(end === undefined ? {} : { end }),
  };
  return planWords(input);
}

/** The crypto to buy: a button, or typed (any code when the exchange's list could not be read). */
function askCurrency(
  { conversation, buttons, data, t }: Guide,
  ctx: FlowContext,
  currencies: readonly CurrencyChoice[],
): Promise<Step<string>> {
  return askStep<string>(
    conversation,
    ctx,
    buttons,
    {
      text: t("recurring-guide-currency"),
      ...(currencies.length > 0 ? { keyboard: currencyKeyboard(currencies, data(ACTIONS.currency)) } : {}),
    },
    (answer) => {
      const code = tapped(answer, "cur") ?? (answer.kind === "text" ? answer.text : undefined);
      if (code === undefined) return undefined;
      const known =
        currencies.length > 0
          ? resolveCurrency(code, currencies)?.code
          : /^[a-z0-9]{2,16}$/i.test(code) && code.toLowerCase() !== "eur"
            ? code.toLowerCase()
            : undefined;
      return known === undefined ? { again: t("recurring-guide-currency-unknown") } : { value: known };
    },
  );
}

/** The EUR amount of each run, at least the exchange's minimum (`minimumText`) when it was read. */
function askAmount(
  { conversation, buttons, t, locale }: Guide,
  ctx: FlowContext,
  currency: string,
  minimumText: string | undefined,
): Promise<Step<string>> {
  const minimum = minimumText === undefined ? undefined : parseAmount(minimumText, "eur");
  const least: Big | undefined = minimum?.ok === true ? minimum.value : undefined;
  const leastText = least === undefined ? undefined : formatAmount(least, "eur", locale);
  return askStep<string>(
    conversation,
    ctx,
    buttons,
    {
      text:
        leastText === undefined
          ? t("recurring-guide-amount", { code: currency.toUpperCase() })
          : t("recurring-guide-amount-minimum", { code: currency.toUpperCase(), minimum: leastText }),
    },
    (answer) => {
      if (answer.kind !== "text") return undefined;
      const parsed = parseAmount(answer.text.replace(/\s*€$/, ""), "eur");
      if (!parsed.ok) return { again: amountRefusalText(t, parsed) };
      if (least !== undefined && parsed.value.lt(least))
        return { again: t("recurring-guide-below-minimum", { minimum: leastText ?? "" }) };
      return { value: toPlainString(parsed.value) };
    },
  );
}

/** How often (every day / week / month), then the weekday or the day of the month: the schedule at an hour. */
async function askSchedule(guide: Guide, ctx: FlowContext): Promise<Step<(hour: number) => Schedule>> {
  const { conversation, buttons, data, t } = guide;
  const every = await askStep<"day" | "week" | "month">(
    conversation,
    ctx,
    buttons,
    { text: t("recurring-guide-every"), keyboard: everyKeyboard(t, data(ACTIONS.every)) },
    (answer) => {
      const picked = tapped(answer, "e");
      if (picked === "day" || picked === "week" || picked === "month") return { value: picked };
      return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
    },
  );
  if (every.value === "week") {
    const weekday = await askWeekday(guide, every.ctx);
    return { value: (hour) => ({ every: "week", weekday: weekday.value, hour }), ctx: weekday.ctx };
  }
  if (every.value === "month") {
    const day = await askDay(guide, every.ctx);
    return { value: (hour) => ({ every: "month", day: day.value, hour }), ctx: day.ctx };
  }
  return { value: (hour) => ({ every: "day", hour }), ctx: every.ctx };
}

function askWeekday(
  { conversation, buttons, data, t, locale }: Guide,
  ctx: FlowContext,
): Promise<Step<number>> {
  return askStep<number>(
    conversation,
    ctx,
    buttons,
    { text: t("recurring-guide-weekday"), keyboard: weekdayKeyboard(locale, data(ACTIONS.weekday)) },
    (answer) => {
      const picked = tapped(answer, "w");
      if (picked !== undefined && /^[0-6]$/.test(picked)) return { value: Number(picked) };
      return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
    },
  );
}

function askDay({ conversation, buttons, data, t }: Guide, ctx: FlowContext): Promise<Step<number | "last">> {
  return askStep<number | "last">(
    conversation,
    ctx,
    buttons,
    {
      text: t("recurring-guide-day", { last: LAST_FIXED_DAY }),
      keyboard: dayKeyboard(t, data(ACTIONS.day)),
    },
    (answer) => {
      const picked =
        tapped(answer, "d") ?? (answer.kind === "text" ? answer.text.replace(/\.$/, "") : undefined);
      if (picked === undefined) return undefined;
      if (picked === "last") return { value: "last" };
      const number = /^\d{1,2}$/.test(picked) ? Number(picked) : 0;
      return number >= 1 && number <= LAST_FIXED_DAY
        ? { value: number }
        : { again: t("recurring-guide-day-again", { last: LAST_FIXED_DAY }) };
    },
  );
}

/** The hour of the day in the user's `zone` (named in the question): common hours as buttons, any typed. */
function askHour(
  { conversation, buttons, data, t }: Guide,
  ctx: FlowContext,
  zone: string,
): Promise<Step<number>> {
  return askStep<number>(
    conversation,
    ctx,
    buttons,
    {
      text: t("recurring-guide-hour", { zone: zoneName(zone) }),
      keyboard: hourKeyboard(PLAN_HOURS, data(ACTIONS.hour)),
    },
    (answer) => {
      const picked = tapped(answer, "h") ?? (answer.kind === "text" ? answer.text.toLowerCase() : undefined);
      if (picked === undefined) return undefined;
      const value = readHour(picked.replace(/\s*uhr$/, ""));
      return value === undefined
        ? { again: t("recurring-guide-hour-again", { zone: zoneName(zone) }) }
        : { value };
    },
  );
}

/** The plan's end: none, after a number of runs, or until a date after today. */
async function askEnd(guide: Guide, ctx: FlowContext): Promise<PlanEnd | undefined> {
  const { conversation, buttons, data, t, locale } = guide;
  const endChoice = await askStep<"none" | "runs" | "until">(
    conversation,
    ctx,
    buttons,
    { text: t("recurring-guide-end"), keyboard: endKeyboard(t, data(ACTIONS.end)) },
    (answer) => {
      const picked = tapped(answer, "end");
      if (picked === "none" || picked === "runs" || picked === "until") return { value: picked };
      return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
    },
  );
  if (endChoice.value === "runs") {
    const runs = await askStep<number>(
      conversation,
      endChoice.ctx,
      buttons,
      { text: t("recurring-guide-runs") },
      (answer) => {
        if (answer.kind !== "text") return undefined;
        const value = /^\d{1,3}$/.test(answer.text) ? Number(answer.text) : 0;
        return value >= 1 && value <= MAX_RUNS ? { value } : { again: t("recurring-guide-runs-again") };
      },
    );
    return { runs: runs.value };
  }
  if (endChoice.value !== "until") return undefined;
  const now = await conversation.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const example = endDateExample(now, locale);
  const until = await askStep<string>(
    conversation,
    endChoice.ctx,
    buttons,
    { text: t("recurring-guide-until", { date: example }) },
    (answer) => {
      if (answer.kind !== "text") return undefined;
      const date = readEndDate(answer.text, locale);
      if (date === undefined) return { again: t("recurring-guide-until-again", { date: example }) };
      return date <= today ? { again: t("recurring-guide-until-past") } : { value: date };
    },
  );
  return { until: until.value };
}
