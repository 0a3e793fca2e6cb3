/**
 * One background job: a step of the jobs' tick (`../jobs.ts` runs them in a list, in its order,
 * while this instance holds the `jobs:leader` lease). A job catches and logs its own failures, so
 * one failing never keeps the others of the tick from running.
 */
import type { BotDeps } from "../../bot/deps.ts";
import type { Notifier } from "../../notify/notifier.ts";

export interface Job {
  /** What the list calls it. */
  readonly name: string;
  /**
   * "tick": each tick of the lease holder. "start and tick": also once when the jobs start, before
   * the first tick and without waiting for the lease.
   */
  readonly trigger: "tick" | "start and tick";
  run(): Promise<void>;
  /** This instance has just taken the lease (before its first tick as the holder). */
  tookLead?(): Promise<void>;
  /** Another instance has the lease now. */
  lostLead?(): void;
}

/** What every job is built from: the bot's services and the door for notices. */
export interface JobContext {
  deps: BotDeps;
  notifier: Notifier;
}
