/**
 * The runs of recurring plans, from the background jobs (jobs.ts, on the jobs lease: one instance
 * at a time). A run of a partner-mode plan is a partner buy through the one pipeline with a
 * scheduled trigger: quoted (the guards, the minimum, the balance, the closed asset are the
 * pipeline's and the kind's own checks) and placed at once, with no card. What makes it a run
 * rather than a tap is its idempotency key, derived from the plan and the run's date
 * ({@link runIdempotencyKey}) and so fixed before the first attempt: a lost answer asked again, a
 * crashed instance's run taken over, a second instance that claimed the same date despite the
 * claim — every POST of that date carries the same key, and the exchange makes one order of them.
 *
 * An account-mode plan never orders: its run is a reminder (the amount and a one-tap quote
 * button); the user's Confirm on the card is the order, as always. A reminder not acted on within
 * the catch-up window is recorded "not confirmed".
 *
 * Missed runs after downtime: only the latest date runs, and only if it is less than the
 * catch-up window late; the older ones are recorded "missed" and told in one message.
 *
 * @example
 * const runner = new PlanRunner({ book, orders, partner, clock, log, catchUpMs: 3 * 3_600_000, concurrency: 4 });
 * for (const event of await runner.tick()) tell(event);
 */
import { createHash } from "node:crypto";
import Big from "big.js";
import { ExchangeError } from "../exchange/errors.ts";
import type { OrderPipeline } from "../orders/pipeline.ts";
import type { PartnerServices } from "../partner/services.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import type { Plan, PlanBook, PlanRun } from "./book.ts";
import { type Occurrence, runsBetween } from "./schedule.ts";

/** What the user is told of a run: one message each (a group of missed dates is one). */
export type PlanEvent =
  | { kind: "bought"; plan: Plan; run: PlanRun }
  | { kind: "skipped"; plan: Plan; run: PlanRun }
  | { kind: "failed"; plan: Plan; run: PlanRun }
  | { kind: "missed"; plan: Plan; dates: string[] }
  | { kind: "reminder"; plan: Plan; run: PlanRun }
  | { kind: "not-confirmed"; plan: Plan; run: PlanRun };

export interface PlanRunnerDeps {
  book: PlanBook;
  orders: Pick<OrderPipeline, "quoteAs" | "place" | "ledger">;
  /** Partner mode: the API (the fresh KYC read) and the user links. */
  partner?: Pick<PartnerServices, "api" | "users">;
  clock: Clock;
  log: Pick<Logger, "warn" | "error" | "info">;
  /** RECURRING_CATCH_UP_HOURS: how late a run may still happen (and a reminder stand). */
  catchUpMs: number;
  /** RECURRING_CONCURRENCY: runs under way at once. */
  concurrency: number;
}

/** A run left `running` this long without an order of its own was cut off (a crash): taken over. */
const STALE_RUN_MS = 10 * 60_000;

/** The run's `idempotency_key`: the same for every attempt of one plan's date, on any instance. */
export function runIdempotencyKey(planId: string, date: string): string {
  const hex = createHash("sha256").update(`plan-run:${planId}:${date}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Why a run is tried again at the next tick instead of now. */
class RetryLater extends Error {}

/** What the composition root hands the runner: its parts, the settings kept with the book. */
export interface PlanRunnerParts {
  plans: PlanBook;
  orders: PlanRunnerDeps["orders"];
  partner?: PlanRunnerDeps["partner"];
  clock: Clock;
  log: PlanRunnerDeps["log"];
}

export class PlanRunner {
  /** The runner over the app's parts, with RECURRING_CATCH_UP_HOURS and RECURRING_CONCURRENCY from the book's settings. */
  static over({ plans, orders, partner, clock, log }: PlanRunnerParts): PlanRunner {
    const { catchUpMs, concurrency } = plans.settings;
    return new PlanRunner({
      book: plans,
      orders,
      ...(partner ? { partner } : {}),
      clock,
      log,
      catchUpMs,
      concurrency,
    });
  }

  readonly #deps: PlanRunnerDeps;
  /** A 429 whose wait is longer than the client waits: no new run starts before this. */
  #pausedUntil = 0;

  constructor(deps: PlanRunnerDeps) {
    this.#deps = deps;
  }

  /** Runs every due plan (bounded concurrency) and settles expired reminders; what to tell whom. */
  async tick(): Promise<PlanEvent[]> {
    const { book, clock } = this.#deps;
    const now = clock.now();
    const events: PlanEvent[] = [];
    const due = await book.due(now);
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const plan = due[next++] as Plan;
        if (clock.now() < this.#pausedUntil) return;
        try {
          events.push(...(await this.runPlan(plan)));
        } catch (error) {
          this.#deps.log.error({ err: error, planId: plan.id }, "a plan's run failed; tried again next tick");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.#deps.concurrency) }, worker));
    events.push(...(await this.#settleReminders(now)));
    return events;
  }

  /** The plan's due dates up to now: the latest runs (if not too late), the older ones are missed. */
  async runPlan(listed: Plan): Promise<PlanEvent[]> {
    const { book, clock, catchUpMs } = this.#deps;
    // Read again: a Pause, Skip or Stop tapped since the tick listed it counts.
    const plan = await book.get(listed.id);
    if (plan === undefined) return [];
    const now = clock.now();
    const offset = book.offsetOf(plan.id);
    if (plan.next === undefined || plan.state !== "active" || plan.next.at + offset > now) return [];
    const dates = withinEnd(plan, [
      plan.next,
      ...runsBetween(plan.schedule, plan.zone, plan.next.at, now - offset),
    ]);
    const latest = dates.at(-1) ?? plan.next;
    const missed: string[] = [];
    for (const date of dates.slice(0, -1)) {
      if (await this.#record(plan, date, offset, date.date === plan.skipDate ? "skipped-once" : "missed")) {
        if (date.date !== plan.skipDate) missed.push(date.date);
      }
    }
    const events: PlanEvent[] = [];
    let last: Plan["last"];
    if (latest.date === plan.skipDate) {
      await this.#record(plan, latest, offset, "skipped-once");
      last = { date: latest.date, outcome: "skipped-once" };
    } else if (now - (latest.at + offset) > catchUpMs) {
      if (await this.#record(plan, latest, offset, "missed")) missed.push(latest.date);
      last = { date: latest.date, outcome: "missed" };
    } else {
      let event: PlanEvent | undefined;
      try {
        event = await this.#runDate(plan, latest, offset);
      } catch (error) {
        if (error instanceof RetryLater)
          return missed.length > 0 ? [{ kind: "missed", plan, dates: missed }] : [];
        throw error;
      }
      if (event !== undefined) {
        events.push(event);
        if ("run" in event) {
          const { outcome, reason } = event.run;
          last =
            reason === undefined ? { date: latest.date, outcome } : { date: latest.date, outcome, reason };
        }
      } else {
        // Done by another instance, or an order whose outcome reconciliation tells: as recorded.
        const held = await book.getRun(plan.id, latest.date);
        const outcome = held?.outcome ?? "unknown";
        last =
          held?.reason === undefined
            ? { date: latest.date, outcome }
            : { date: latest.date, outcome, reason: held.reason };
      }
    }
    if (missed.length > 0) events.unshift({ kind: "missed", plan, dates: missed });
    const advanced = await book.advance(plan, latest.at, dates.length, last);
    return events.map((event) => ({ ...event, plan: advanced ?? plan }));
  }

  /** Records a date that did not run (missed, skipped once); true when this caller recorded it. */
  async #record(plan: Plan, date: Occurrence, offset: number, outcome: "missed" | "skipped-once") {
    const now = this.#deps.clock.now();
    const run: PlanRun = {
      planId: plan.id,
      userId: plan.userId,
      date: date.date,
      dueAt: date.at + offset,
      startedAt: now,
      finishedAt: now,
      outcome,
    };
    if (!(await this.#deps.book.claimRun(run))) return false;
    await this.#deps.book.saveRun(run);
    return true;
  }

  /** The run of one date: claimed, then carried out; undefined when nothing is to be told now. */
  async #runDate(plan: Plan, date: Occurrence, offset: number): Promise<PlanEvent | undefined> {
    const { book, clock } = this.#deps;
    const run: PlanRun = {
      planId: plan.id,
      userId: plan.userId,
      date: date.date,
      dueAt: date.at + offset,
      startedAt: clock.now(),
      outcome: "running",
    };
    if (!(await book.claimRun(run))) {
      const held = await book.getRun(plan.id, date.date);
      // Another instance is on it now: leave the plan where it is.
      if (held?.outcome === "running" && held.actionId === undefined) {
        if (clock.now() - held.startedAt < STALE_RUN_MS || !(await book.retakeRun(held, run))) {
          throw new RetryLater();
        }
      } else {
        // Done before a crash (or its order is the ledger's to reconcile): only the plan moves on.
        return undefined;
      }
    }
    if (plan.mode === "account") return this.#remind(plan, run);
    return this.#buy(plan, run);
  }

  async #remind(plan: Plan, run: PlanRun): Promise<PlanEvent> {
    const reminded: PlanRun = {
      ...run,
      outcome: "reminded",
      expiresAt: run.startedAt + this.#deps.catchUpMs,
    };
    await this.#deps.book.saveRun(reminded);
    return { kind: "reminder", plan, run: reminded };
  }

  /** A partner buy for the plan's user, through the pipeline, with the run's key. */
  async #buy(plan: Plan, run: PlanRun): Promise<PlanEvent | undefined> {
    const { book, orders, partner, clock } = this.#deps;
    const finishFrom = async (base: PlanRun, patch: Partial<PlanRun>) => {
      const done: PlanRun = { ...base, ...patch, finishedAt: clock.now() };
      await book.saveRun(done);
      return done;
    };
    const finish = (patch: Partial<PlanRun>) => finishFrom(run, patch);
    if (partner === undefined) {
      return { kind: "failed", plan, run: await finish({ outcome: "failed", reason: "no-partner" }) };
    }
    let quoted: Awaited<ReturnType<typeof orders.quoteAs>>;
    try {
      const partnerUserId = await partner.users.partnerIdOf(plan.userId);
      if (partnerUserId === undefined) {
        return { kind: "skipped", plan, run: await finish({ outcome: "skipped", reason: "no-account" }) };
      }
      // Read fresh at every run: KYC changes at the exchange, not here.
      const user = await partner.api.getUser(partnerUserId);
      if (user.kyc_status !== "passed" || user.edd_status === "required" || user.edd_status === "failed") {
        const vars = { status: user.kyc_status, edd: user.edd_status ?? "" };
        return { kind: "skipped", plan, run: await finish({ outcome: "skipped", reason: "kyc", vars }) };
      }
      quoted = await orders.quoteAs(
        plan.userId,
        {
          kind: "partner-buy",
          currency: plan.currency,
          amount: plan.amount,
          idempotencyKey: runIdempotencyKey(plan.id, run.date),
        },
        { scheduled: true },
      );
    } catch (error) {
      // Nothing was ordered: the claim goes back and the next tick tries again (within the window).
      await book.releaseRun(run);
      if (error instanceof ExchangeError && error.kind === "rate-limited") {
        this.#pausedUntil = clock.now() + (error.retryAfterMs ?? 1_000);
      }
      this.#deps.log.warn(
        { err: error, planId: plan.id, date: run.date },
        "a plan's run could not be quoted",
      );
      throw new RetryLater();
    }
    if (!quoted.ok) {
      const { reason, vars } = quoted.refusal;
      return { kind: "skipped", plan, run: await finish({ outcome: "skipped", reason, vars }) };
    }
    const actionId = quoted.action.id;
    // Before the POST: a run with an order is never run again, only reconciled.
    const sending: PlanRun = { ...run, actionId };
    await book.saveRun(sending);
    const result = await orders.place(actionId, plan.userId);
    const patch = (p: Partial<PlanRun>) => finishFrom(sending, p);
    switch (result.kind) {
      case "placed": {
        const action = result.action;
        const quote = action.kind === "partner-buy" ? action.quote : undefined;
        const vars: Record<string, string> = quote
          ? { rate: quote.rate, get: quote.get, currency: quote.getCurrency, pay: quote.pay }
          : {};
        return { kind: "bought", plan, run: await patch({ outcome: "bought", vars }) };
      }
      case "guarded": {
        const { reason, vars } = result.refusal;
        return { kind: "skipped", plan, run: await patch({ outcome: "skipped", reason, vars }) };
      }
      case "unknown":
        // Reconciliation tells the user once the exchange's transactions say (reconcile.ts).
        await patch({ outcome: "unknown" });
        return undefined;
      case "failed":
        if (result.retryAfterMs !== undefined) {
          // A 429: the exchange did nothing. No new run starts before its Retry-After, and this
          // date is run again at the next tick (a new quote, the same key), within the window.
          this.#pausedUntil = clock.now() + result.retryAfterMs;
          await book.releaseRun(sending);
          throw new RetryLater();
        }
        return { kind: "failed", plan, run: await patch({ outcome: "failed", reason: result.reason }) };
      default:
        return { kind: "failed", plan, run: await patch({ outcome: "failed", reason: result.kind }) };
    }
  }

  /**
   * Reminders whose window is over: "confirmed" when the user's latest buy of that currency and
   * amount was confirmed after the reminder, else "not confirmed" (and told).
   */
  async #settleReminders(now: number): Promise<PlanEvent[]> {
    const { book, orders } = this.#deps;
    const events: PlanEvent[] = [];
    for (const run of await book.expiredReminders(now)) {
      const plan = await book.get(run.planId);
      const latest = await orders.ledger.latest(run.userId, "buy");
      const acted =
        latest !== undefined &&
        plan !== undefined &&
        latest.createdAt >= run.startedAt &&
        latest.currency === plan.currency &&
        new Big(latest.amount).eq(plan.amount) &&
        !["quoted", "expired", "cancelled", "replaced"].includes(latest.state);
      const settled: PlanRun = acted
        ? { ...run, outcome: "confirmed", actionId: latest.id, finishedAt: now }
        : { ...run, outcome: "not-confirmed", finishedAt: now };
      await book.saveRun(settled);
      await book.dropReminder(run.planId, run.date);
      if (plan !== undefined && plan.last?.date === run.date) {
        await book.advance(plan, (plan.next?.at ?? now) - 1, 0, { date: run.date, outcome: settled.outcome });
      }
      if (!acted && plan !== undefined) events.push({ kind: "not-confirmed", plan, run: settled });
    }
    return events;
  }
}

/** The dates the plan's end still allows (after N runs, or up to a date). */
function withinEnd(plan: Plan, dates: Occurrence[]): Occurrence[] {
  const end = plan.end;
  if (end === undefined) return dates;
  if ("runs" in end) return dates.slice(0, Math.max(1, end.runs - plan.runs));
  const kept = dates.filter((date) => date.date <= end.until);
  return kept.length > 0 ? kept : dates.slice(0, 1);
}
