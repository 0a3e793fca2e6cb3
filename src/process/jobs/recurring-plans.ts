/**
 * Recurring plans due now: partner mode buys (one order per run, plans/runner.ts), account mode
 * reminds with a one-tap quote. One message per run; a run whose order's answer was lost is told
 * by the order reconciliation instead.
 */
import { planEventText, reminderKeyboard } from "../../bot/ui/plan-text.ts";
import { PlanRunner } from "../../plans/runner.ts";
import type { Job, JobContext } from "./job.ts";

export function recurringPlansJob({ deps, notifier }: JobContext): Job {
  const runner = PlanRunner.over(deps);
  return {
    name: "recurring plans",
    trigger: "tick",
    async run() {
      try {
        for (const event of await runner.tick()) {
          await notifier.notify({
            userId: event.plan.userId,
            kind: "account",
            locale: event.plan.locale,
            render: (t, locale) => ({
              text: planEventText(t, event, deps.plans.dueAt(event.plan), locale),
              ...(event.kind === "reminder"
                ? { other: { reply_markup: reminderKeyboard(t, event.plan, locale) } }
                : {}),
            }),
          });
        }
      } catch (error) {
        deps.log.error({ err: error }, "recurring plans failed");
      }
    },
  };
}
