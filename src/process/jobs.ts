/**
 * Work the bot starts by itself, on a timer: session expiry warnings and auto-logout, order
 * reconciliation, recurring plans (partner mode's runs, account mode's reminders), price alerts,
 * the end of a new address's or bank account's cooling-off, in partner mode the re-check of users
 * whose verification is pending, notices held during quiet hours, and the daily digest. Each tick
 * is awaited before the next is scheduled, so a slow
 * exchange never piles ticks up. With several instances on one store, only the holder of the
 * `jobs:leader` lease ticks (alerts/lease.ts); another takes over when its lease runs out.
 * Everything these jobs tell users goes through the delivery queue (notify/), under Telegram's
 * broadcast limits. Each job is a file of its own in `jobs/`; the tick runs them in the order of
 * `jobList`.
 */
import type { Api } from "grammy";
import type { Lease } from "../alerts/lease.ts";
import type { AlertScheduler } from "../alerts/scheduler.ts";
import type { BotDeps } from "../bot/deps.ts";
import { securityNotice } from "../bot/ui/security-notice.ts";
import { createDelivery, type Delivery } from "../notify/delivery.ts";
import type { Notifier } from "../notify/notifier.ts";
import type { SecurityEvent } from "../safety/security-events.ts";
import { dailyDigestJob } from "./jobs/daily-digest.ts";
import { DailyDigest } from "./jobs/digest.ts";
import { indexOldRecordsJob } from "./jobs/index-old-records.ts";
import type { Job, JobContext } from "./jobs/job.ts";
import { kycRecheckJob } from "./jobs/kyc-recheck.ts";
import { Leadership } from "./jobs/leadership.ts";
import { masterAlertsJob } from "./jobs/master-alerts.ts";
import { alertScheduler, priceAlertsJob } from "./jobs/price-alerts.ts";
import { reconcileOrdersJob } from "./jobs/reconcile-orders.ts";
import { recordPricesJob } from "./jobs/record-prices.ts";
import { recurringPlansJob } from "./jobs/recurring-plans.ts";
import { releaseHeldJob } from "./jobs/release-held.ts";
import { sessionExpiryJob } from "./jobs/session-expiry.ts";
import { unfrozenJob } from "./jobs/unfrozen.ts";
import { usableNowJob } from "./jobs/usable-now.ts";

export interface BackgroundJobs {
  /** Runs one tick now (tests and the demo call it instead of waiting). */
  tick(): Promise<void>;
  /**
   * Stops ticking (a tick under way ends after its current step) and gives the lease back, so
   * another instance runs the jobs from its next tick. The delivery queue keeps sending.
   */
  stopTicks(): Promise<void>;
  /** stopTicks, then the delivery queue sends what is queued (up to 5 s) and stops. */
  stop(): Promise<void>;
  /** The door for notices the bot starts itself (also for features that want to tell a user later). */
  notifier: Notifier;
  alerts: AlertScheduler;
  /** The lease that decides which instance ticks. */
  lease: Lease;
}

/**
 * The jobs of a tick, in the order they run. Older records are indexed first (when due), so the
 * steps after them list everything.
 */
function jobList(context: JobContext, digest: DailyDigest, alerts: AlertScheduler): Job[] {
  return [
    indexOldRecordsJob(context),
    sessionExpiryJob(context),
    reconcileOrdersJob(context),
    recurringPlansJob(context),
    kycRecheckJob(context),
    recordPricesJob(context),
    priceAlertsJob(context, alerts),
    masterAlertsJob(context),
    releaseHeldJob(context),
    dailyDigestJob(context, digest),
    usableNowJob(context),
    unfrozenJob(context),
  ];
}

export function startBackgroundJobs(options: {
  deps: BotDeps;
  api: Api;
  intervalMs: number;
  /** false: no timer, ticks only when asked (tests). */
  autoStart?: boolean;
  /** The lease's length (default 15 s; renewed every third of it while held). */
  leaseTtlMs?: number;
  /** Delivery queue and notifier (default: built over `api`, Telegram's limits). */
  delivery?: Delivery;
}): BackgroundJobs {
  const { deps, api } = options;
  const delivery = options.delivery ?? createDelivery({ deps, api });
  const context: JobContext = { deps, notifier: delivery.notifier };
  const leadership = new Leadership(deps, options.leaseTtlMs ?? 15_000);
  const digest = new DailyDigest(deps);
  const alerts = alertScheduler(context, digest);
  const jobs = jobList(context, digest, alerts);

  let stopped = false;
  async function runAll(list: readonly Job[]): Promise<void> {
    // A shutdown does not wait for the whole tick: the lease is handed over after the current job.
    for (const job of list) {
      if (stopped) return;
      await job.run();
    }
  }
  async function tick(): Promise<void> {
    if (stopped || !(await leadership.leads(jobs))) return;
    await runAll(jobs);
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  if (options.autoStart !== false) {
    running = runAll(jobs.filter((job) => job.trigger === "start and tick"));
    schedule();
  }

  let handedOver: Promise<void> | undefined;
  function stopTicks(): Promise<void> {
    handedOver ??= (async () => {
      stopped = true;
      clearTimeout(timer);
      leadership.stopRenewing();
      await running;
      await leadership.handOver();
    })();
    return handedOver;
  }

  return {
    tick,
    notifier: delivery.notifier,
    alerts,
    lease: leadership.lease,
    stopTicks,
    async stop() {
      await stopTicks();
      await delivery.stop();
    },
  };
}

/**
 * What `deps.securityNotices` is connected to once the delivery queue exists (main.ts, the demo,
 * the test harness): each event rendered in the user's language with their anti-phishing phrase
 * and a Freeze button, as a `security` notice, which no notification setting holds back.
 *
 * @example
 * services.securityNotices.connect(securityNoticeSender(services.deps, delivery.notifier));
 */
export function securityNoticeSender(
  deps: Pick<BotDeps, "phishing" | "freezes" | "partner">,
  notifier: Notifier,
): (userId: number, event: SecurityEvent) => Promise<void> {
  const setting = {
    support: deps.partner?.supportContact,
    unfreezeDelayMs: deps.freezes.unfreezeDelayMs,
  };
  return async (userId, event) => {
    const phrase = await deps.phishing.get(userId);
    await notifier.notify({
      userId,
      kind: "security",
      render: (t, locale) => {
        const { text, keyboard } = securityNotice(t, event, locale, phrase, setting);
        return { text, other: { reply_markup: keyboard } };
      },
    });
  };
}
