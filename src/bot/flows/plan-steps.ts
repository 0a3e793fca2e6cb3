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
import { flowButtons } from "./wait.ts";

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

/** The plan's words, or never (the user left with /cancel or another command). */
export async function guidePlan(
  conversation: Flow,
  ctx: FlowContext,
  options: PlanGuideOptions,
): Promise<string> {
  const buttons = await flowButtons(conversation, FLOW_BUTTONS.recurring, "button-inactive");
  const data =
    <A extends unknown[]>(action: (...args: A) => string) =>
    (...args: A) =>
      buttons.own + action(...args);
  const locale = await ctx.i18n.getLocale();
  const { currencies } = options;
  const t = ctx.t.bind(ctx);

  let step = await askStep<string>(
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
  const currency = step.value;

  const minimumText = await options.minimum(currency);
  const minimum = minimumText === undefined ? undefined : parseAmount(minimumText, "eur");
  const least: Big | undefined = minimum?.ok === true ? minimum.value : undefined;
  const leastText = least === undefined ? undefined : formatAmount(least, "eur", locale);
  const amount = await askStep<string>(
    conversation,
    step.ctx,
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

  const every = await askStep<"day" | "week" | "month">(
    conversation,
    amount.ctx,
    buttons,
    { text: t("recurring-guide-every"), keyboard: everyKeyboard(t, data(ACTIONS.every)) },
    (answer) => {
      const picked = tapped(answer, "e");
      if (picked === "day" || picked === "week" || picked === "month") return { value: picked };
      return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
    },
  );
  step = { value: currency, ctx: every.ctx };

  let schedule: (hour: number) => Schedule;
  if (every.value === "week") {
    const weekday = await askStep<number>(
      conversation,
      step.ctx,
      buttons,
      { text: t("recurring-guide-weekday"), keyboard: weekdayKeyboard(locale, data(ACTIONS.weekday)) },
      (answer) => {
        const picked = tapped(answer, "w");
        if (picked !== undefined && /^[0-6]$/.test(picked)) return { value: Number(picked) };
        return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
      },
    );
    schedule = (hour) => ({ every: "week", weekday: weekday.value, hour });
    step = { value: currency, ctx: weekday.ctx };
  } else if (every.value === "month") {
    const day = await askStep<number | "last">(
      conversation,
      step.ctx,
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
    schedule = (hour) => ({ every: "month", day: day.value, hour });
    step = { value: currency, ctx: day.ctx };
  } else schedule = (hour) => ({ every: "day", hour });

  const zone = await options.zone();
  const hour = await askStep<number>(
    conversation,
    step.ctx,
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

  const endChoice = await askStep<"none" | "runs" | "until">(
    conversation,
    hour.ctx,
    buttons,
    { text: t("recurring-guide-end"), keyboard: endKeyboard(t, data(ACTIONS.end)) },
    (answer) => {
      const picked = tapped(answer, "end");
      if (picked === "none" || picked === "runs" || picked === "until") return { value: picked };
      return answer.kind === "text" ? { again: t("recurring-guide-tap") } : undefined;
    },
  );
  let end: PlanEnd | undefined;
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
    end = { runs: runs.value };
  } else if (endChoice.value === "until") {
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
    end = { until: until.value };
  }

  const input: PlanInput = {
    currency,
    amount: amount.value,
    schedule: schedule(hour.value),
    ...(end === undefined ? {} : { end }),
  };
  return planWords(input);
}
