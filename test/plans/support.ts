/**
 * What the recurring-plan tests share: a plan made the way a user makes one (/recurring, the time
 * zone, the card's Confirm), one tick of the background jobs with its messages delivered, the
 * clock moved to a plan's next run, and the sandbox's buy orders of one partner user.
 */
import { expect } from "vitest";
import type { Plan } from "../../src/plans/book.ts";
import { startBackgroundJobs } from "../../src/process/jobs.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { Harness } from "../support/harness.ts";

/** /recurring with `words`, the zone asked (first plan) and answered, the card confirmed: the plan. */
export async function makePlan(h: Harness, user: FakeUser, words: string, zone = "Berlin"): Promise<Plan> {
  const before = new Set((await h.deps.plans.list(user.id)).map((plan) => plan.id));
  await user.send(`/recurring ${words}`);
  const asked = await user.waitForReply(/time zone|Zeitzone|recurring buy:|Sparplan:/);
  if (/Which time zone|Zeitzone bist/.test(asked.text ?? "")) {
    await user.send(zone);
    await user.waitForReply(/New recurring buy|Neuer Sparplan/);
  }
  await user.tap(/Confirm|Bestätigen/);
  await user.waitForReply(/set up|angelegt/);
  const made = (await h.deps.plans.list(user.id)).filter((plan) => !before.has(plan.id));
  expect(made).toHaveLength(1);
  return made[0] as Plan;
}

/** One tick of the jobs (the lease, the plans, reconciliation…), its messages sent. */
export async function tick(h: Harness, deps = h.deps, api = h.bot.api): Promise<void> {
  const jobs = startBackgroundJobs({ deps, api, intervalMs: 3_600_000, autoStart: false });
  try {
    await jobs.tick();
    await jobs.notifier.queue.idle();
  } finally {
    await jobs.stop();
  }
}

/** Moves the clock to the plan's next run (its spread included), plus `lateMs`. */
export async function toNextRun(h: Harness, planId: string, lateMs = 0): Promise<number> {
  const plan = await h.deps.plans.get(planId);
  const due = plan === undefined ? undefined : h.deps.plans.dueAt(plan);
  if (due === undefined) throw new Error(`Plan ${planId} has no next run.`);
  const target = due + lateMs;
  if (target > h.clock.now()) h.clock.advance(target - h.clock.now());
  return due;
}

/** The sandbox's buy orders of a partner user. */
export function buysOf(h: Harness, partnerUserId: number) {
  return [...h.sandbox.state.transactions.values()].filter(
    (tx) => tx.accountId === partnerUserId && tx.type === "buy_crypto",
  );
}
