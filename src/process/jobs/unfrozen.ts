/** Unfreezes whose delay ended: announced once, as the freeze's notice promised, with Freeze. */
import type { Job, JobContext } from "./job.ts";

export function unfrozenJob({ deps }: JobContext): Job {
  return {
    name: "unfreeze notices",
    trigger: "tick",
    async run() {
      try {
        for (const userId of await deps.freezes.claimUnfrozen()) {
          await deps.securityNotices.tell(userId, { type: "unfrozen" });
        }
      } catch (error) {
        deps.log.error({ err: error }, "unfreeze notices failed");
      }
    },
  };
}
