/**
 * Recurring plans and their runs, in the store. A plan is a user's standing order to buy a fixed
 * EUR amount of one currency on a schedule (schedule.ts); a run is one of its dates, recorded
 * under `plan-run:{planId}:{date}` and claimed with `setIfAbsent` before anything is asked of the
 * exchange, so two instances (or a restarted one) never run the same date twice.
 *
 * Listings read store indexes, never the keyspace: a user's plans (`plans:user:{userId}`),
 * everyone's (`plans:all`, the operator desk), the plans due in one UTC hour (`plans:due:{hour}`,
 * so a tick reads the hours that have come, not ten thousand plans), the runs of one UTC day
 * (`plans:runs:{day}`, the desk's last 24 h) and the account-mode reminders still standing
 * (`plans:reminders`).
 *
 * @example
 * const book = new PlanBook(store, clock, DEFAULT_PLAN_SETTINGS);
 * const made = await book.create(draft);           // { ok: true, plan } or { ok: false, reason: "limit" }
 * await book.setState(made.plan.id, 42, "paused"); // off the due hours until resumed
 */
import { createHash } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import { nextRun, type Occurrence, type Schedule } from "./schedule.ts";

export type PlanMode = "partner" | "account";
export type PlanState = "active" | "paused" | "ended" | "cancelled";
/** After N runs (every date that came, bought or not), or no run after a local date. */
export type PlanEnd = { runs: number } | { until: string };

/** What the user chose on the card. */
export interface PlanTerms {
  mode: PlanMode;
  currency: string;
  /** EUR, decimal text as typed and checked. */
  amount: string;
  schedule: Schedule;
  /** The user's time zone when the plan was made (its hours stay in that zone). */
  zone: string;
  end?: PlanEnd;
  /** The language the plan was made in: its messages use it unless the user picks one. */
  locale?: string;
}

export type RunOutcome =
  /** Partner mode: the order went out and the exchange took it. */
  | "bought"
  /** Not run: KYC, balance, minimum, closed asset, a guard (frozen, cap)… `reason` says which. */
  | "skipped"
  /** Not run: the bot was down past the catch-up window (or a newer date was due). */
  | "missed"
  /** Skipped once, as the user asked. */
  | "skipped-once"
  /** The exchange refused the order (nothing happened), or the run could not be asked. */
  | "failed"
  /** The order's answer was lost: reconciliation tells the user like any partner order. */
  | "unknown"
  /** Account mode: the reminder is out, waiting for the user's Confirm. */
  | "reminded"
  /** Account mode: the user confirmed a quote from the reminder. */
  | "confirmed"
  /** Account mode: the reminder expired without a Confirm. */
  | "not-confirmed"
  /** Claimed, under way. */
  | "running";

export interface PlanRun {
  planId: string;
  userId: number;
  date: string;
  /** When it was due (spread included). */
  dueAt: number;
  startedAt: number;
  outcome: RunOutcome;
  finishedAt?: number;
  /** skipped / failed: the refusal's reason (balance, minimum, closed, kyc, frozen…). */
  reason?: string;
  /** The refusal's figures, or the purchase's (rate, got). */
  vars?: Record<string, string>;
  /** The ledger's action of this run (partner: the order; account: the confirmed quote). */
  actionId?: string;
  /** Account mode: until when the reminder stands. */
  expiresAt?: number;
}

export interface Plan extends PlanTerms {
  id: string;
  userId: number;
  state: PlanState;
  createdAt: number;
  /** The next date to run (absent once the plan ended). */
  next?: Occurrence;
  /** A date the user asked to skip once. */
  skipDate?: string;
  /** Dates that came so far (the end after N runs counts them). */
  runs: number;
  /** The last run, as the list shows it. */
  last?: { date: string; outcome: RunOutcome; reason?: string };
}

export type CreateResult = { ok: true; plan: Plan } | { ok: false; reason: "limit" | "exists" };

export interface PlanBookOptions {
  /** RECURRING_MAX_PLANS: plans a user may have that are not cancelled or ended. */
  maxPlans: number;
  /** RECURRING_SPREAD_MINUTES: runs of one hour spread across this many minutes (by plan id). */
  spreadMs: number;
  /** RECURRING_CATCH_UP_HOURS: how late a run may still happen (the runner's; kept here with the rest). */
  catchUpMs: number;
  /** RECURRING_CONCURRENCY: runs under way at once (the runner's). */
  concurrency: number;
  /** How long run records are kept (default 60 days). */
  retentionMs?: number;
}

/** The settings' defaults (config.ts reads the same from the environment). */
export const DEFAULT_PLAN_SETTINGS: PlanBookOptions = {
  maxPlans: 5,
  spreadMs: 30 * 60_000,
  catchUpMs: 3 * 3_600_000,
  concurrency: 4,
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const RETENTION_MS = 60 * DAY_MS;

const planKey = (id: string) => `plan:${id}`;
const draftKey = (id: string) => `plan-draft:${id}`;
/** How long a plan's card can be confirmed. */
const DRAFT_TTL_MS = 15 * 60_000;
const runKey = (planId: string, date: string) => `plan-run:${planId}:${date}`;
const dueMarker = (hour: number, id: string) => `plan-due:${hour}:${id}`;
const remindMarker = (planId: string, date: string) => `plan-remind:${planId}:${date}`;
const userIndex = (userId: number) => `plans:user:${userId}`;
const ALL_INDEX = "plans:all";
const dueIndex = (hour: number) => `plans:due:${hour}`;
const runsIndex = (day: number) => `plans:runs:${day}`;
const REMINDERS_INDEX = "plans:reminders";

const ID_PATTERN = /^[A-Za-z0-9_-]{12}$/;

export function isPlanId(text: string): boolean {
  return ID_PATTERN.test(text);
}

export class PlanBook {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly settings: PlanBookOptions;
  readonly spreadMs: number;
  readonly #retentionMs: number;

  constructor(store: Store, clock: Clock, settings: PlanBookOptions = DEFAULT_PLAN_SETTINGS) {
    this.#store = store;
    this.#clock = clock;
    this.settings = settings;
    this.spreadMs = settings.spreadMs;
    this.#retentionMs = settings.retentionMs ?? RETENTION_MS;
  }

  /**
   * The plan's own minute within its hour: a fixed share of the spread, from its id, so ten
   * thousand plans at 09:00 reach the exchange across the spread, and each always at the same time.
   */
  offsetOf(planId: string): number {
    if (this.spreadMs <= 0) return 0;
    const hash = createHash("sha256").update(planId).digest().readUInt32BE(0);
    return Math.floor((hash / 0x1_0000_0000) * (this.spreadMs / 60_000)) * 60_000;
  }

  /** When the plan's next run is due, its spread included; undefined when it has none. */
  dueAt(plan: Plan): number | undefined {
    return plan.next === undefined ? undefined : plan.next.at + this.offsetOf(plan.id);
  }

  /** Records a confirmed card's plan under the card's id (a second Confirm finds it: "exists"). */
  async create(input: PlanTerms & { id: string; userId: number }): Promise<CreateResult> {
    const live = (await this.list(input.userId)).filter((p) => p.state === "active" || p.state === "paused");
    if (live.some((plan) => plan.id === input.id)) return { ok: false, reason: "exists" };
    if (live.length >= this.settings.maxPlans) return { ok: false, reason: "limit" };
    const now = this.#clock.now();
    const plan: Plan = {
      ...input,
      currency: input.currency.toLowerCase(),
      state: "active",
      createdAt: now,
      runs: 0,
      next: nextRun(input.schedule, input.zone, now),
    };
    if (!(await this.#store.setIfAbsent(planKey(plan.id), plan))) return { ok: false, reason: "exists" };
    await this.#save(plan);
    await this.#indexDue(plan);
    return { ok: true, plan };
  }

  /** A card's terms, until it is confirmed (or 15 minutes pass). */
  async saveDraft(id: string, userId: number, terms: PlanTerms): Promise<void> {
    await this.#store.set(draftKey(id), { userId, terms }, DRAFT_TTL_MS);
  }

  async draft(id: string): Promise<{ userId: number; terms: PlanTerms } | undefined> {
    return isPlanId(id) ? this.#store.get(draftKey(id)) : undefined;
  }

  async dropDraft(id: string): Promise<void> {
    await this.#store.delete(draftKey(id));
  }

  async get(id: string): Promise<Plan | undefined> {
    return isPlanId(id) ? this.#store.get<Plan>(planKey(id)) : undefined;
  }

  /** The user's plans, oldest first (cancelled and ended ones too, until they are removed). */
  async list(userId: number): Promise<Plan[]> {
    return this.#read(await this.#store.indexMembers(userIndex(userId)), userIndex(userId));
  }

  /** Everyone's plans (the operator desk). */
  async all(): Promise<Plan[]> {
    return this.#read(await this.#store.indexMembers(ALL_INDEX), ALL_INDEX);
  }

  async #read(ids: string[], index: string): Promise<Plan[]> {
    const plans = await this.#store.getMany<Plan>(ids.map(planKey));
    const found: Plan[] = [];
    for (const [i, plan] of plans.entries()) {
      const id = ids[i] as string;
      if (plan === undefined) await this.#store.unindex(index, id, planKey(id));
      else found.push(plan);
    }
    return found.sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Pause, resume or cancel the user's plan. A resumed plan runs from its next date after now (no
   * catch-up of the paused days). Undefined for someone else's plan or one that ended.
   */
  async setState(id: string, userId: number, state: "active" | "paused" | "cancelled") {
    const plan = await this.get(id);
    if (plan === undefined || plan.userId !== userId) return undefined;
    if (plan.state === "ended" || plan.state === "cancelled") return plan;
    await this.#unindexDue(plan);
    const next: Plan = { ...plan, state };
    if (state === "active") next.next = nextRun(plan.schedule, plan.zone, this.#clock.now());
    if (state === "cancelled") delete next.next;
    await this.#save(next);
    if (state === "active") await this.#indexDue(next);
    return next;
  }

  /** Skip the next run once (or undo that); undefined for someone else's plan. */
  async toggleSkip(id: string, userId: number): Promise<Plan | undefined> {
    const plan = await this.get(id);
    if (plan === undefined || plan.userId !== userId || plan.next === undefined) return undefined;
    const next: Plan = { ...plan };
    if (plan.skipDate === plan.next.date) delete next.skipDate;
    else next.skipDate = plan.next.date;
    await this.#save(next);
    return next;
  }

  /**
   * The plans due now or earlier (their spread included): those of every UTC hour from the
   * sweep's mark to now. Hours left with nothing in them move the mark on.
   */
  async due(now: number, lookbackMs = 45 * DAY_MS): Promise<Plan[]> {
    const nowHour = Math.floor(now / HOUR_MS);
    const mark = (await this.#store.get<number>("plans:swept")) ?? Math.floor((now - lookbackMs) / HOUR_MS);
    const found: Plan[] = [];
    let firstBusy: number | undefined;
    for (let hour = Math.min(mark, nowHour); hour <= nowHour; hour++) {
      const ids = await this.#store.indexMembers(dueIndex(hour));
      if (ids.length === 0) continue;
      const plans = await this.#store.getMany<Plan>(ids.map(planKey));
      let pending = false;
      for (const [i, plan] of plans.entries()) {
        const id = ids[i] as string;
        const dueAt = plan === undefined ? undefined : this.dueAt(plan);
        if (
          plan === undefined ||
          plan.state !== "active" ||
          dueAt === undefined ||
          this.#hourOf(plan) !== hour
        ) {
          // Gone, paused or moved to another hour since: not this hour's.
          await this.#store.delete(dueMarker(hour, id));
          await this.#store.unindex(dueIndex(hour), id, dueMarker(hour, id));
          // Still active but listed under another hour (RECURRING_SPREAD_MINUTES changed): listed again.
          if (plan?.state === "active" && dueAt !== undefined) {
            await this.#indexDue(plan);
            const moved = Math.floor(dueAt / HOUR_MS);
            // An hour this sweep already passed keeps the mark there, so the next tick finds it.
            if (moved <= nowHour) firstBusy = Math.min(firstBusy ?? moved, moved);
          }
          continue;
        }
        pending = true;
        if (dueAt <= now) found.push(plan);
      }
      if (pending) firstBusy = Math.min(firstBusy ?? hour, hour);
    }
    const nextMark = firstBusy ?? nowHour;
    if (nextMark !== mark) await this.#store.set("plans:swept", nextMark);
    return found;
  }

  #hourOf(plan: Plan): number | undefined {
    const dueAt = this.dueAt(plan);
    return dueAt === undefined ? undefined : Math.floor(dueAt / HOUR_MS);
  }

  async #indexDue(plan: Plan): Promise<void> {
    const hour = this.#hourOf(plan);
    if (hour === undefined || plan.state !== "active") return;
    await this.#store.setIndexed(dueMarker(hour, plan.id), plan.id, undefined, [
      { index: dueIndex(hour), member: plan.id },
    ]);
    // A plan due before the sweep's mark (a resume, a clock moved back) pulls the mark back.
    const mark = await this.#store.get<number>("plans:swept");
    if (mark !== undefined && hour < mark) await this.#store.set("plans:swept", hour);
  }

  async #unindexDue(plan: Plan): Promise<void> {
    const hour = this.#hourOf(plan);
    if (hour === undefined) return;
    await this.#store.delete(dueMarker(hour, plan.id));
    await this.#store.unindex(dueIndex(hour), plan.id, dueMarker(hour, plan.id));
  }

  /**
   * Moves the plan past the dates it has dealt with: `next` is the first date after `after`, the
   * dates count towards its end, and a plan past its end is `ended`. Writes over whatever the
   * runner read only the fields it owns (a pause or skip tapped meanwhile stays).
   */
  async advance(plan: Plan, after: number, dates: number, last: Plan["last"]): Promise<Plan | undefined> {
    const current = (await this.get(plan.id)) ?? plan;
    await this.#unindexDue(current);
    const next: Plan = { ...current, runs: current.runs + dates };
    if (last !== undefined) next.last = last;
    if (current.state === "active" || current.state === "paused") {
      const upcoming = nextRun(plan.schedule, plan.zone, after);
      if (endsBefore(next, upcoming)) {
        next.state = "ended";
        delete next.next;
      } else next.next = upcoming;
    }
    if (next.skipDate !== undefined && next.next?.date !== next.skipDate) delete next.skipDate;
    await this.#save(next);
    await this.#indexDue(next);
    return next;
  }

  /** Takes the run of a date (true once), recording it `running`. */
  claimRun(run: PlanRun): Promise<boolean> {
    return this.#store.setIfAbsent(runKey(run.planId, run.date), run, this.#retentionMs);
  }

  /** Takes over a run a crashed instance left `running` (compare-and-set on what was read). */
  retakeRun(stale: PlanRun, run: PlanRun): Promise<boolean> {
    return this.#store.replaceIfEquals(runKey(run.planId, run.date), stale, run);
  }

  /** Gives back the claim of a run that asked nothing of the exchange (it is tried again). */
  releaseRun(run: PlanRun): Promise<boolean> {
    return this.#store.deleteIfEquals(runKey(run.planId, run.date), run);
  }

  getRun(planId: string, date: string): Promise<PlanRun | undefined> {
    return this.#store.get<PlanRun>(runKey(planId, date));
  }

  /** Writes the run as it stands, listed under its day for the desk. */
  async saveRun(run: PlanRun): Promise<void> {
    const day = Math.floor((run.finishedAt ?? run.startedAt) / DAY_MS);
    await this.#store.setIndexed(runKey(run.planId, run.date), run, this.#retentionMs, [
      { index: runsIndex(day), member: `${run.planId}:${run.date}` },
    ]);
    if (run.outcome === "reminded") {
      await this.#store.setIndexed(
        remindMarker(run.planId, run.date),
        run.expiresAt ?? 0,
        this.#retentionMs,
        [{ index: REMINDERS_INDEX, member: `${run.planId}:${run.date}` }],
      );
    }
  }

  /** Account-mode reminders whose time is up, with the plan's owner. */
  async expiredReminders(now: number): Promise<PlanRun[]> {
    const members = await this.#store.indexMembers(REMINDERS_INDEX);
    const runs: PlanRun[] = [];
    for (const member of members) {
      const [planId = "", date = ""] = member.split(":");
      const run = await this.getRun(planId, date);
      if (run?.outcome === "reminded" && (run.expiresAt ?? 0) > now) continue;
      if (run?.outcome === "reminded") runs.push(run);
      else await this.dropReminder(planId, date);
    }
    return runs;
  }

  async dropReminder(planId: string, date: string): Promise<void> {
    await this.#store.delete(remindMarker(planId, date));
    await this.#store.unindex(REMINDERS_INDEX, `${planId}:${date}`, remindMarker(planId, date));
  }

  /** The runs that finished (or started) in the last `ms` (the desk: the last 24 h). */
  async recentRuns(now: number, ms = DAY_MS): Promise<PlanRun[]> {
    const runs: PlanRun[] = [];
    for (let day = Math.floor((now - ms) / DAY_MS); day <= Math.floor(now / DAY_MS); day++) {
      const members = await this.#store.indexMembers(runsIndex(day));
      const keys = members.map((member) => {
        const colon = member.indexOf(":");
        return runKey(member.slice(0, colon), member.slice(colon + 1));
      });
      for (const run of await this.#store.getMany<PlanRun>(keys)) {
        if (run !== undefined && (run.finishedAt ?? run.startedAt) >= now - ms) runs.push(run);
      }
    }
    return runs;
  }

  async #save(plan: Plan): Promise<void> {
    await this.#store.setIndexed(planKey(plan.id), plan, undefined, [
      { index: userIndex(plan.userId), member: plan.id },
      { index: ALL_INDEX, member: plan.id },
    ]);
  }
}

/** Whether the plan's end comes before this date runs. */
function endsBefore(plan: Plan, upcoming: Occurrence): boolean {
  const end = plan.end;
  if (end === undefined) return false;
  if ("runs" in end) return plan.runs >= end.runs;
  return upcoming.date > end.until;
}
