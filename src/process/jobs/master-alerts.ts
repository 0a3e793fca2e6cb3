/** Partner mode: the operators are told once when a master balance falls below its threshold. */
import { formatAmount } from "../../domain/money.ts";
import { MasterAlerts } from "../../partner/master-alerts.ts";
import type { Job, JobContext } from "./job.ts";

export function masterAlertsJob({ deps, notifier }: JobContext): Job {
  return {
    name: "master balance alerts",
    trigger: "tick",
    async run() {
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
    },
  };
}
