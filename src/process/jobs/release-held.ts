/** Notices held during quiet hours that have ended: delivered, merged, by the lease holder. */
import Big from "big.js";
import { alertHeldLine } from "../../bot/ui/alert-text.ts";
import type { Job, JobContext } from "./job.ts";

export function releaseHeldJob({ deps, notifier }: JobContext): Job {
  return {
    name: "held notices",
    trigger: "tick",
    async run() {
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
    },
  };
}
