/**
 * Which instance runs the jobs: the holder of the `jobs:leader` lease (alerts/lease.ts). While it
 * holds the lease, a keep-alive timer renews it every third of its length, so a long tick never
 * lets it run out; the jobs are told when this instance takes the lease and when it loses it.
 */
import { Lease } from "../../alerts/lease.ts";
import type { BotDeps } from "../../bot/deps.ts";
import type { Job } from "./job.ts";

export class Leadership {
  readonly lease: Lease;
  readonly #log: BotDeps["log"];
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(deps: Pick<BotDeps, "store" | "log">, ttlMs: number) {
    this.lease = new Lease(deps.store, "jobs:leader", { ttlMs });
    this.#log = deps.log;
  }

  /** Whether this instance runs the jobs now: holds (or just took) the lease. */
  async leads(jobs: readonly Job[]): Promise<boolean> {
    const lease = this.lease;
    const was = lease.held;
    let holds = false;
    try {
      holds = await lease.hold();
    } catch (error) {
      this.#log.error({ err: error }, "job lease check failed");
    }
    if (holds && !was) {
      this.#log.info({ holder: lease.holderId }, "this instance runs the background jobs");
      for (const job of jobs) await job.tookLead?.();
      clearInterval(this.#keepAlive);
      this.#keepAlive = setInterval(() => {
        if (lease.held) void lease.hold().catch(() => {});
      }, lease.ttlMs / 3);
      this.#keepAlive.unref();
    }
    if (!holds && was) {
      this.#log.warn("lost the job lease: another instance runs the background jobs");
      clearInterval(this.#keepAlive);
      for (const job of jobs) job.lostLead?.();
    }
    return holds;
  }

  /** No more renewals from the keep-alive timer. */
  stopRenewing(): void {
    clearInterval(this.#keepAlive);
  }

  /** Gives the lease back, so another instance runs the jobs from its next tick. */
  async handOver(): Promise<void> {
    // A renewal under way (the keep-alive's) settles first, or it could take the lease back.
    if (this.lease.held) await this.lease.hold().catch(() => false);
    await this.lease.release().catch(() => {});
  }
}
