/**
 * Price alerts: the scheduler evaluates the alert index against the feed's prices at each tick;
 * a fired alert is noted for the daily digest and told, with Buy and Sell buttons. When another
 * instance takes the lease, this one drops what it had loaded.
 */
import { AlertScheduler } from "../../alerts/scheduler.ts";
import { alertNotice } from "../../bot/ui/alert-text.ts";
import type { DailyDigest } from "./digest.ts";
import type { Job, JobContext } from "./job.ts";

export function alertScheduler({ deps, notifier }: JobContext, digest: DailyDigest): AlertScheduler {
  return new AlertScheduler({
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
}

export function priceAlertsJob({ deps }: JobContext, alerts: AlertScheduler): Job {
  return {
    name: "price alerts",
    trigger: "tick",
    async run() {
      try {
        const result = await alerts.tick();
        if (result.fired > 0 || result.rearmed > 0) deps.log.debug(result, "alert tick");
      } catch (error) {
        deps.log.error({ err: error }, "alert tick failed");
      }
    },
    lostLead() {
      alerts.drop();
    },
  };
}
