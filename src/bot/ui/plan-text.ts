/**
 * The words of recurring plans (/recurring, the runs' messages, the operator desk's /plans): a
 * schedule as people say it, a plan's line in the list, its card, and one sentence per run.
 * Times are the user's own wall clock in the plan's zone; weekday and month names come from Intl
 * in the user's language.
 */
import { InlineKeyboard } from "grammy";
import { decimalFrom, formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { RefusalReason } from "../../orders/quote.ts";
import type { Plan, PlanRun, PlanTerms } from "../../plans/book.ts";
import type { PlanEvent } from "../../plans/runner.ts";
import type { Schedule } from "../../plans/schedule.ts";
import { CALLBACK } from "./callback-data.ts";
import { statusText } from "./coded-values.ts";
import { formatDate, formatWallClock, zoneLabel } from "./format.ts";
import { refusalText } from "./order-card.ts";

const hh = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/** "Monday" in the user's language (2023-01-02 was a Monday). */
function weekdayName(weekday: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(
    Date.UTC(2023, 0, 1 + weekday),
  );
}

/**
 * "every day at 09:00 (Europe/Berlin)", "every Monday at 09:00 UTC", "on the last day of every
 * month at 09:00 (Europe/Berlin)": the hour is the plan's zone's, so the zone is named with it.
 */
export function scheduleText(t: Translate, schedule: Schedule, zone: string, locale: string): string {
  const time = formatWallClock(hh(schedule.hour), zone);
  switch (schedule.every) {
    case "day":
      return t("schedule-daily", { time });
    case "week":
      return t("schedule-weekly", { weekday: weekdayName(schedule.weekday, locale), time });
    case "month":
      return schedule.day === "last"
        ? t("schedule-monthly-last", { time })
        : t("schedule-monthly", { day: schedule.day, time });
  }
}

function money(amount: string | undefined, currency: string, locale: string): string {
  const value = decimalFrom(amount ?? "");
  return value === undefined
    ? `${amount ?? "?"} ${currency.toUpperCase()}`
    : formatAmount(value, currency, locale);
}

/** "50,00 € of BTC every day at 09:00 (Europe/Berlin)". */
export function planTitle(t: Translate, plan: PlanTerms, locale: string): string {
  return t("recurring-plan-title", {
    amount: money(plan.amount, "eur", locale),
    code: plan.currency.toUpperCase(),
    schedule: scheduleText(t, plan.schedule, plan.zone, locale),
  });
}

/** A date and hour on the plan's wall clock, its zone named: "Tue, 25 Nov 2026, 09:12 (Europe/Berlin)". */
export function localWhen(at: number, zone: string, locale: string): string {
  const when = new Intl.DateTimeFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(at);
  return `${when} ${zoneLabel(zone)}`;
}

function endText(t: Translate, plan: PlanTerms, locale: string): string | undefined {
  if (plan.end === undefined) return undefined;
  return "runs" in plan.end
    ? t("recurring-end-runs", { runs: plan.end.runs })
    : t("recurring-end-until", { date: formatDate(plan.end.until, locale) });
}

/** The card a plan is confirmed on: what, when, the zone, the first run, the end, the spread. */
export function planCardText(
  t: Translate,
  plan: PlanTerms,
  first: number,
  spreadMinutes: number,
  locale: string,
): string {
  const lines = [
    t("recurring-card", {
      title: planTitle(t, plan, locale),
      zone: plan.zone,
      first: localWhen(first, plan.zone, locale),
    }),
  ];
  const end = endText(t, plan, locale);
  if (end !== undefined) lines.push(end);
  if (spreadMinutes > 0) lines.push(t("recurring-card-spread", { minutes: spreadMinutes }));
  lines.push(t(plan.mode === "partner" ? "recurring-card-partner" : "recurring-card-account"));
  return lines.join("\n");
}

export function planCardKeyboard(t: Translate, id: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("recurring-confirm-button"), CALLBACK.plan.data("c", id))
    .text(t("recurring-cancel-button"), CALLBACK.plan.data("x", id));
}

/** One plan in /recurring's list: what, when, next run (its spread included), its state. */
export function planLine(t: Translate, plan: Plan, dueAt: number | undefined, locale: string): string {
  const parts = [planTitle(t, plan, locale)];
  if (plan.state === "active" && dueAt !== undefined) {
    parts.push(t("recurring-next", { when: localWhen(dueAt, plan.zone, locale) }));
    if (plan.skipDate !== undefined && plan.skipDate === plan.next?.date)
      parts.push(t("recurring-skip-marked"));
  } else parts.push(t("recurring-state", { state: plan.state }));
  const end = endText(t, plan, locale);
  if (end !== undefined) parts.push(end);
  if (plan.last !== undefined) {
    parts.push(t("recurring-last", { date: formatDate(plan.last.date, locale), outcome: plan.last.outcome }));
  }
  return parts.join("\n");
}

/** The list's buttons under one plan: pause or resume, skip the next run once (or undo), stop. */
export function planButtons(t: Translate, plan: Plan): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (plan.state !== "active" && plan.state !== "paused") return keyboard;
  keyboard.text(
    t(plan.state === "active" ? "recurring-pause-button" : "recurring-resume-button"),
    CALLBACK.plan.data(plan.state === "active" ? "a" : "r", plan.id),
  );
  if (plan.state === "active") {
    const skipping = plan.skipDate !== undefined && plan.skipDate === plan.next?.date;
    keyboard.text(
      t(skipping ? "recurring-unskip-button" : "recurring-skip-button"),
      CALLBACK.plan.data("s", plan.id),
    );
  }
  return keyboard.text(t("recurring-stop-button"), CALLBACK.plan.data("k", plan.id));
}

/** Stop asked about: the plan's line, the question, and the two answers (a Stop acts only on the second tap). */
export function planStopQuestion(
  t: Translate,
  plan: Plan,
  dueAt: number | undefined,
  locale: string,
): { text: string; keyboard: InlineKeyboard } {
  return {
    text: `${planLine(t, plan, dueAt, locale)}\n\n${t("recurring-stop-ask")}`,
    keyboard: new InlineKeyboard()
      .text(t("recurring-stop-yes-button"), CALLBACK.plan.data("y", plan.id))
      .text(t("recurring-stop-keep-button"), CALLBACK.plan.data("b", plan.id)),
  };
}

/** Why a partner run was skipped, with what to do. */
function skippedWhy(t: Translate, run: PlanRun, plan: Plan, locale: string): string {
  const v = run.vars ?? {};
  switch (run.reason) {
    case "kyc":
      return t("run-why-kyc", { status: statusText(t, String(v.status ?? "")) });
    case "no-account":
      return t("run-why-no-account");
    case "balance":
      return t("run-why-balance", {
        balance: money(v.balance, v.currency ?? "eur", locale),
        needed: money(v.needed ?? plan.amount, v.currency ?? "eur", locale),
      });
    case "minimum":
      return t("run-why-minimum", {
        amount: money(plan.amount, "eur", locale),
        minimum: money(v.minimum, v.currency ?? "eur", locale),
      });
    case "closed":
      return t("run-why-closed", { code: plan.currency.toUpperCase() });
    default:
      // The bot's own rules (a freeze, a cap the user set…): worded as at a card.
      return t("run-why-rule", {
        rule: refusalText(
          t,
          // A reason the runner recorded from a QuoteRefusal: one of RefusalReason's.
          { kind: "partner-buy", reason: (run.reason ?? "closed") as RefusalReason, vars: v },
          locale,
        ),
      });
  }
}

/**
 * The one message of a run (partner: bought / skipped / failed / missed; account: reminder, not
 * confirmed). `nextAt`: when the plan runs next, its spread included (PlanBook.dueAt).
 */
export function planEventText(
  t: Translate,
  event: PlanEvent,
  nextAt: number | undefined,
  locale: string,
): string {
  const { plan } = event;
  const title = planTitle(t, plan, locale);
  const next =
    plan.state === "active" && nextAt !== undefined
      ? t("run-next", { when: localWhen(nextAt, plan.zone, locale) })
      : t("run-no-next");
  switch (event.kind) {
    case "bought": {
      const v = event.run.vars ?? {};
      const line = t("run-bought", {
        plan: title,
        get: money(v.get, v.currency ?? plan.currency, locale),
        pay: money(v.pay ?? plan.amount, "eur", locale),
        rate: money(v.rate, "eur", locale),
        code: plan.currency.toUpperCase(),
      });
      return `${line}\n${next}`;
    }
    case "skipped":
      return `${t("run-skipped", { plan: title, date: formatDate(event.run.date, locale) })}\n${skippedWhy(t, event.run, plan, locale)}\n${next}`;
    case "failed":
      // The exchange's reason (undocumented, in English) is for the operator desk's /plans, not here.
      return `${t("run-failed", { plan: title, date: formatDate(event.run.date, locale) })}\n${next}`;
    case "missed":
      return `${t("run-missed", { plan: title, count: event.dates.length, dates: event.dates.map((date) => formatDate(date, locale)).join(", ") })}\n${next}`;
    case "reminder":
      return t("run-reminder", {
        plan: title,
        amount: money(plan.amount, "eur", locale),
        code: plan.currency.toUpperCase(),
        until: localWhen(event.run.expiresAt ?? event.run.dueAt, plan.zone, locale),
      });
    case "not-confirmed":
      return `${t("run-not-confirmed", { plan: title, date: formatDate(event.run.date, locale) })}\n${next}`;
  }
}

/** The reminder's one button: the usual quote card for the plan's amount (features/trade.ts answers it). */
export function reminderKeyboard(t: Translate, plan: Plan, locale: string): InlineKeyboard {
  return new InlineKeyboard().text(
    t("run-reminder-button", {
      amount: money(plan.amount, "eur", locale),
      code: plan.currency.toUpperCase(),
    }),
    CALLBACK.alertTrade.data("buy", plan.currency, plan.amount),
  );
}

const OUTCOMES = [
  "bought",
  "skipped",
  "failed",
  "unknown",
  "missed",
  "skipped-once",
  "reminded",
  "confirmed",
  "not-confirmed",
  "running",
] as const;

function runsByOutcome(t: Translate, runs: readonly PlanRun[]): string {
  const counts = OUTCOMES.map((outcome) => ({
    outcome,
    count: runs.filter((run) => run.outcome === outcome).length,
  }))
    .filter(({ count }) => count > 0)
    .map(({ outcome, count }) => t("operator-plans-outcome", { outcome, count }));
  return counts.length === 0 ? t("operator-plans-no-runs") : counts.join("\n");
}

function runLine(t: Translate, run: PlanRun, locale: string): string {
  return t("operator-plans-run", {
    date: formatDate(run.date, locale),
    plan: run.planId,
    user: String(run.userId),
    outcome: run.outcome,
    reason: deskRunReason(t, run.reason),
  });
}

/** Reasons the bot records itself, worded for the desk; anything else is the exchange's text. */
const DESK_REASONS = new Set([
  "no-partner",
  "no-account",
  "kyc",
  "closed",
  "minimum",
  "fee",
  "balance",
  "limit",
  "frozen",
  "own-limit",
  "session-expired",
]);

/**
 * Why a run did not buy, for the operator desk in its reader's language: the exchange's own
 * refusal (undocumented, English, often the HTTP reason phrase) is in the log, not on the screen.
 */
function deskRunReason(t: Translate, reason: string | undefined): string {
  if (reason === undefined) return "—";
  return t("operator-plans-reason", { reason: DESK_REASONS.has(reason) ? reason : "exchange" });
}

/** The desk's /plans: plans by state, the last 24 h's runs by outcome, the failed and unknown ones with their user. */
export function deskPlansText(
  t: Translate,
  plans: readonly Plan[],
  runs: readonly PlanRun[],
  locale: string,
): string[] {
  const count = (state: Plan["state"]) => plans.filter((plan) => plan.state === state).length;
  const failed = runs.filter((run) => run.outcome === "failed" || run.outcome === "unknown");
  const blocks = [
    t("operator-plans-title", {
      active: count("active"),
      paused: count("paused"),
      ended: count("ended") + count("cancelled"),
    }),
    `${t("operator-plans-runs-title")}\n${runsByOutcome(t, runs)}`,
  ];
  if (failed.length > 0)
    blocks.push(
      `${t("operator-plans-failed-title")}\n${failed.map((run) => runLine(t, run, locale)).join("\n")}`,
    );
  return blocks;
}

/** The desk's /plans USER: that user's plans and their runs of the last 24 h. */
export function deskUserPlansText(
  t: Translate,
  who: { partnerUserId: number; telegramId: number },
  plans: readonly Plan[],
  runs: readonly PlanRun[],
  locale: string,
): string[] {
  const blocks = [
    t("operator-plans-user-title", { id: String(who.partnerUserId), telegram: String(who.telegramId) }),
  ];
  if (plans.length === 0) blocks.push(t("operator-plans-user-none"));
  for (const plan of plans)
    blocks.push(`${plan.id} · ${statusText(t, plan.state)}\n${planTitle(t, plan, locale)}`);
  blocks.push(
    `${t("operator-plans-runs-title")}\n${runs.length === 0 ? t("operator-plans-no-runs") : runs.map((run) => runLine(t, run, locale)).join("\n")}`,
  );
  return blocks;
}
