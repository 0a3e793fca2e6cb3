/** Partner mode: users whose verification was pending and has changed are told, once. */
import { readKyc } from "../../bot/ui/kyc-status.ts";
import type { Job, JobContext } from "./job.ts";

export function kycRecheckJob({ deps, notifier }: JobContext): Job {
  return {
    name: "KYC re-check",
    trigger: "tick",
    async run() {
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
    },
  };
}
