/** Saved addresses and bank accounts whose cooling-off ended: their owners are told, once. */
import { userText } from "../../bot/ui/user-text.ts";
import { claimUsableNow } from "../../safety/cooling-notices.ts";
import type { Job, JobContext } from "./job.ts";

export function usableNowJob({ deps, notifier }: JobContext): Job {
  return {
    name: "cooling-off ended",
    trigger: "tick",
    async run() {
      try {
        for (const due of await claimUsableNow(deps.store, deps.safety, deps.clock.now())) {
          await notifier.notify({
            userId: due.userId,
            kind: "account",
            render: (t) => ({
              text:
                due.type === "address"
                  ? t("addresses-usable-now", {
                      label: userText(due.label),
                      code: due.currency.toUpperCase(),
                    })
                  : t("banks-usable-now", { iban: due.iban }),
            }),
          });
        }
      } catch (error) {
        deps.log.error({ err: error }, "cooling-off notices failed");
      }
    },
  };
}
