/**
 * Work the bot starts by itself, on a timer: session expiry warnings and auto-logout, order
 * reconciliation, recurring plans (partner mode's runs, account mode's reminders), price alerts,
 * the end of a new address's or bank account's cooling-off, in partner mode the re-check of users
 * whose verification is pending, notices held during quiet hours, and the daily digest. Each tick
 * is awaited before the next is scheduled, so a slow
 * exchange never piles ticks up. With several instances on one store, only the holder of the
 * `jobs:leader` lease ticks (alerts/lease.ts); another takes over when its lease runs out.
 * Everything these jobs tell users goes through the delivery queue (notify/), under Telegram's
 * broadcast limits.
 */
import Big from "big.js";
import type { Api } from "grammy";
import { Lease } from "../alerts/lease.ts";
import { AlertScheduler } from "../alerts/scheduler.ts";
import type { BotDeps } from "../bot/deps.ts";
import { alertHeldLine, alertNotice } from "../bot/ui/alert-text.ts";
import { formatTime } from "../bot/ui/format.ts";
import { loginKeyboard, webAppLoginMarkup } from "../bot/ui/keyboards.ts";
import { readKyc } from "../bot/ui/kyc-status.ts";
import { withPhishingLine } from "../bot/ui/phishing.ts";
import { planEventText, reminderKeyboard } from "../bot/ui/plan-text.ts";
import { orderNoticeText } from "../bot/ui/quote-card.ts";
import { securityNotice } from "../bot/ui/security-notice.ts";
import { userText } from "../bot/ui/user-text.ts";
import { formatAmount } from "../domain/money.ts";
import { createDelivery, type Delivery } from "../notify/delivery.ts";
import type { Notifier } from "../notify/notifier.ts";
import { MasterAlerts } from "../partner/master-alerts.ts";
import { PlanRunner } from "../plans/runner.ts";
import { claimUsableNow } from "../safety/cooling-notices.ts";
import type { SecurityEvent } from "../safety/security-events.ts";
import { checkSessions, type SessionNotice } from "../session/expiry-watch.ts";
import { webAppLoginPageUrl } from "../support/webapp-paths.ts";
import { DailyDigest } from "./digest.ts";

/** The second pass of indexing older records, after taking the lead: past a rolling deploy. */
const REINDEX_AFTER_MS = 15 * 60_000;

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
  const { notifier } = delivery;
  const lease = new Lease(deps.store, "jobs:leader", { ttlMs: options.leaseTtlMs ?? 15_000 });
  const digest = new DailyDigest(deps);
  const alerts = new AlertScheduler({
    book: deps.alertBook,
    feed: deps.market,
    clock: deps.clock,
    log: deps.log,
    onFired: async (alert, at) => {
      await digest.fired.record(alert, at.price.toFixed(), deps.clock.now());
      // Its Buy and Sell buttons offer the amounts of the user's last orders of that currency.
      const last = await deps.orders.lastTradeAmounts(alert.userId, alert.currency);
      await notifier.notify(alertNotice(alert, at, last));
    },
  });

  async function notify(notice: SessionNotice): Promise<void> {
    if (notice.kind === "expiry-warning") {
      // It asks for a code: it carries the anti-phishing phrase like every such question.
      const phrase = await deps.phishing.get(notice.userId);
      await notifier.notify({
        userId: notice.userId,
        kind: "expiry",
        locale: notice.locale,
        render: (t, locale) => ({
          text: withPhishingLine(
            t,
            phrase,
            // It says what works: a code alone with a remembered password, else the button.
            t(notice.codeOnly ? "login-expiry-warning" : "login-expiry-warning-tap", {
              time: formatTime(notice.expiresAt, locale),
            }),
          ),
          other: {
            // This queue's API client has none of the bot's transformers: the Mini App button is set here.
            reply_markup: webAppLoginMarkup(
              loginKeyboard((key) => (key === "button-login" ? t("login-stay-button") : t(key))),
              deps.config.webAppUrl ? webAppLoginPageUrl(deps.config.webAppUrl) : undefined,
            ),
          },
        }),
      });
    } else {
      await notifier.notify({
        userId: notice.userId,
        kind: "account",
        locale: notice.locale,
        render: (t) => ({ text: t("logout-auto", { minutes: notice.minutes }) }),
      });
    }
  }

  /** Orders whose outcome is open (sent, unknown, placed): reconciled, and their owners told. */
  async function reconcileOrders(): Promise<void> {
    try {
      const notices = await deps.orders.reconcileAll();
      for (const notice of notices) {
        // reconcileAll already applied the user's order switch (and some notices always go out);
        // the mode's sound still applies. A money outcome is never held by quiet hours.
        const phrase = await deps.phishing.get(notice.userId);
        await notifier.notify({
          userId: notice.userId,
          kind: "orders",
          always: true,
          locale: notice.locale,
          render: (t, locale) => ({ text: orderNoticeText(t, notice, locale, phrase) }),
        });
      }
    } catch (error) {
      deps.log.error({ err: error }, "order reconciliation failed");
    }
  }

  /**
   * Recurring plans due now: partner mode buys (one order per run, plans/runner.ts), account mode
   * reminds with a one-tap quote. One message per run; a run whose order's answer was lost is told
   * by the order reconciliation instead.
   */
  const runner = PlanRunner.over(deps);
  async function runPlans(): Promise<void> {
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
  }

  /** Whether this instance runs the jobs now: holds (or just took) the lease. */
  let keepAlive: NodeJS.Timeout | undefined;
  async function leads(): Promise<boolean> {
    const was = lease.held;
    let holds = false;
    try {
      holds = await lease.hold();
    } catch (error) {
      deps.log.error({ err: error }, "job lease check failed");
    }
    if (holds && !was) {
      deps.log.info({ holder: lease.holderId }, "this instance runs the background jobs");
      await indexOldRecords();
      reindexAt = deps.clock.now() + REINDEX_AFTER_MS;
      clearInterval(keepAlive);
      keepAlive = setInterval(() => {
        if (lease.held) void lease.hold().catch(() => {});
      }, lease.ttlMs / 3);
      keepAlive.unref();
    }
    if (!holds && was) {
      deps.log.warn("lost the job lease: another instance runs the background jobs");
      clearInterval(keepAlive);
      alerts.drop();
    }
    return holds;
  }

  /**
   * The ticks list sessions, open orders and alerts through store indexes. Records written by a
   * version without them are added by one key listing each time an instance takes the lead, and
   * once more a while later (an instance of that version may still be running during a rolling
   * deploy): a SCAN on Redis, but not per tick.
   */
  let reindexAt: number | undefined;
  async function indexOldRecords(): Promise<void> {
    try {
      const [sessions, orders, alerts, partner] = await Promise.all([
        deps.sessions.indexExisting(),
        deps.orders.ledger.indexExisting(),
        deps.alertBook.indexExisting(),
        deps.partner
          ? Promise.all([deps.partner.kyc.indexExisting(), new MasterAlerts(deps.store).indexExisting()])
          : [],
      ]);
      deps.log.debug({ sessions, orders, alerts, partner }, "records listed in the store indexes");
    } catch (error) {
      deps.log.error({ err: error }, "indexing older records failed; the next lead tries again");
    }
  }

  /** Partner mode: users whose verification was pending and has changed are told, once. */
  async function recheckKyc(): Promise<void> {
    const partner = deps.partner;
    if (!partner) return;
    try {
      const changes = await partner.kyc.recheck((error) =>
        deps.log.warn({ err: error }, "KYC re-check of one user failed"),
      );
      for (const change of changes) {
        await notifier.notify({
          userId: change.telegramId,
          kind: "account",
          render: (t) => ({
            text: `${t("kyc-changed")}\n\n${readKyc(t, change.user, partner.supportContact).text}`,
          }),
        });
      }
    } catch (error) {
      deps.log.error({ err: error }, "KYC re-check failed");
    }
  }

  /** Partner mode: the operators are told once when a master balance falls below its threshold. */
  async function checkMasterAlerts(): Promise<void> {
    const partner = deps.partner;
    if (partner === undefined) return;
    try {
      const fired = await new MasterAlerts(deps.store).check(partner.api, (error) =>
        deps.log.warn({ err: error }, "master balance check failed"),
      );
      for (const alert of fired) {
        for (const operator of partner.operators) {
          await notifier.notify({
            userId: operator,
            kind: "account",
            render: (t, locale) => ({
              text: t("operator-alert-notice", {
                balance: formatAmount(alert.balance, alert.currency, locale),
                threshold: formatAmount(alert.threshold, alert.currency, locale),
              }),
            }),
          });
        }
      }
    } catch (error) {
      deps.log.error({ err: error }, "master balance alerts failed");
    }
  }

  /** Saved addresses and bank accounts whose cooling-off ended: their owners are told, once. */
  /** Unfreezes whose delay ended: announced once, as the freeze's notice promised, with Freeze. */
  async function tellUnfrozen(): Promise<void> {
    try {
      for (const userId of await deps.freezes.claimUnfrozen()) {
        await deps.securityNotices.tell(userId, { type: "unfrozen" });
      }
    } catch (error) {
      deps.log.error({ err: error }, "unfreeze notices failed");
    }
  }

  async function tellUsable(): Promise<void> {
    try {
      for (const due of await claimUsableNow(deps.store, deps.safety, deps.clock.now())) {
        await notifier.notify({
          userId: due.userId,
          kind: "account",
          render: (t) => ({
            text:
              due.type === "address"
                ? t("addresses-usable-now", { label: userText(due.label), code: due.currency.toUpperCase() })
                : t("banks-usable-now", { iban: due.iban }),
          }),
        });
      }
    } catch (error) {
      deps.log.error({ err: error }, "cooling-off notices failed");
    }
  }

  /**
   * The prices of this tick kept for charts (market/history.ts): account mode's from the shared
   * feed (the snapshot the alerts read), partner mode's from the partner API's rates in euros.
   */
  async function recordPrices(): Promise<void> {
    try {
      const partner = deps.partner;
      if (partner !== undefined) {
        // Asked once per 5-minute slot, not on every tick.
        if (!deps.priceHistory.due(deps.clock.now())) return;
        const rows = (await partner.api.exchangeRates()).rows.filter((row) => row.quote === "eur");
        const prices = rows.map((row) => ({ currency: row.base, price: row.price.toFixed() }));
        await deps.priceHistory.record(prices, deps.clock.now());
        return;
      }
      const snapshot = await deps.market.snapshot();
      // An old snapshot served again was recorded when it was new.
      if (!snapshot.stale) await deps.priceHistory.record(snapshot.prices, snapshot.fetchedAt);
    } catch (error) {
      deps.log.warn({ err: error }, "prices not recorded for charts this tick");
    }
  }

  async function checkAlerts(): Promise<void> {
    try {
      const result = await alerts.tick();
      if (result.fired > 0 || result.rearmed > 0) deps.log.debug(result, "alert tick");
    } catch (error) {
      deps.log.error({ err: error }, "alert tick failed");
    }
  }

  /** Notices held during quiet hours that have ended: delivered, merged, by the lease holder. */
  async function releaseHeld(): Promise<void> {
    try {
      await notifier.releaseHeld(async (price, t, locale) => {
        const now = (await deps.market.snapshot()).prices.find((p) => p.currency === price.currency);
        return alertHeldLine(
          t,
          locale,
          new Big(price.crossed),
          now === undefined ? undefined : new Big(now.price),
        );
      });
    } catch (error) {
      deps.log.error({ err: error }, "releasing held notices failed");
    }
  }

  async function sendDigests(): Promise<void> {
    try {
      await digest.run(notifier);
    } catch (error) {
      deps.log.error({ err: error }, "daily digests failed");
    }
  }

  let stopped = false;
  async function tick(): Promise<void> {
    if (stopped || !(await leads())) return;
    if (reindexAt !== undefined && deps.clock.now() >= reindexAt) {
      reindexAt = undefined;
      await indexOldRecords();
    }
    const steps = [
      async () => {
        try {
          await checkSessions({ ...deps, notify });
        } catch (error) {
          deps.log.error({ err: error }, "session check failed");
        }
      },
      reconcileOrders,
      runPlans,
      recheckKyc,
      recordPrices,
      checkAlerts,
      checkMasterAlerts,
      releaseHeld,
      sendDigests,
      tellUsable,
      tellUnfrozen,
    ];
    // A shutdown does not wait for the whole tick: the lease is handed over after the current step.
    for (const step of steps) {
      if (stopped) return;
      await step();
    }
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
    // At start: orders left open by a crash or a restart are reconciled at once, not a tick later.
    running = reconcileOrders();
    schedule();
  }

  let handedOver: Promise<void> | undefined;
  function stopTicks(): Promise<void> {
    handedOver ??= (async () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(keepAlive);
      await running;
      // A renewal under way (the keep-alive's) settles first, or it could take the lease back.
      if (lease.held) await lease.hold().catch(() => false);
      await lease.release().catch(() => {});
    })();
    return handedOver;
  }

  return {
    tick,
    notifier,
    alerts,
    lease,
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
