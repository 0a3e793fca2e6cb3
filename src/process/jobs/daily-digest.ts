/** The daily digest, at the hour each user picked (what it gathers and when: digest.ts). */
import type { DailyDigest } from "./digest.ts";
import type { Job, JobContext } from "./job.ts";

export function dailyDigestJob({ deps, notifier }: JobContext, digest: DailyDigest): Job {
  return {
    name: "daily digest",
    trigger: "tick",
    async run() {
      try {
        await digest.run(notifier);
      } catch (error) {
        deps.log.error({ err: error }, "daily digests failed");
      }
    },
  };
}
