/**
 * The prices of this tick kept for charts (market/history.ts): account mode's from the shared
 * feed (the snapshot the alerts read), partner mode's from the partner API's rates in euros.
 */
import type { Job, JobContext } from "./job.ts";

export function recordPricesJob({ deps }: JobContext): Job {
  return {
    name: "price history",
    trigger: "tick",
    async run() {
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
    },
  };
}
