/**
 * The ticks list sessions, open orders and alerts through store indexes. Records written by a
 * version without them are added by one key listing each time an instance takes the lead, and
 * once more a while later (an instance of that version may still be running during a rolling
 * deploy): a SCAN on Redis, but not per tick.
 */
import { MasterAlerts } from "../../partner/master-alerts.ts";
import type { Job, JobContext } from "./job.ts";

/** The second pass of indexing older records, after taking the lead: past a rolling deploy. */
const REINDEX_AFTER_MS = 15 * 60_000;

export function indexOldRecordsJob({ deps }: JobContext): Job {
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
  return {
    name: "index older records",
    trigger: "tick",
    async tookLead() {
      await indexOldRecords();
      reindexAt = deps.clock.now() + REINDEX_AFTER_MS;
    },
    async run() {
      if (reindexAt === undefined || deps.clock.now() < reindexAt) return;
      reindexAt = undefined;
      await indexOldRecords();
    },
  };
}
