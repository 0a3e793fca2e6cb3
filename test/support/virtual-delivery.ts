/**
 * Notices delivered on virtual time: the delivery queue paces a chat a second apart, which tests
 * pass by moving a ManualTimers instead of waiting.
 */

import { createDelivery } from "../../src/notify/delivery.ts";
import type { DeliveryQueue } from "../../src/notify/queue.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/process/jobs.ts";
import type { ManualTimers } from "../../src/support/clock.ts";
import type { Harness } from "./harness.ts";

/** The background jobs as tests tick them, their notices paced on `timers` instead of the wall clock. */
export function jobsOnTimers(h: Harness, timers: ManualTimers): BackgroundJobs {
  const delivery = createDelivery({ deps: h.deps, api: h.bot.api, queue: { timers } });
  return startBackgroundJobs({
    deps: h.deps,
    api: h.bot.api,
    intervalMs: 60_000,
    autoStart: false,
    delivery,
  });
}

/**
 * Runs a delivery queue on virtual time until it is empty: the sends in flight are answered first
 * (real I/O; no time passes meanwhile), then the clock moves to the queue's next timer.
 *
 * @example
 * const timers = new ManualTimers(HARNESS_EPOCH);
 * const queue = new DeliveryQueue({ send, timers });
 * queue.enqueue({ chatId: 42, text: "one" });
 * await drainQueue(queue, timers);
 */
export async function drainQueue(queue: DeliveryQueue, timers: ManualTimers): Promise<void> {
  for (;;) {
    while (queue.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    if (queue.pending === 0) return;
    const at = timers.nextAt;
    if (at === undefined) throw new Error("the queue holds messages but waits for nothing");
    timers.advance(at - timers.now());
  }
}
