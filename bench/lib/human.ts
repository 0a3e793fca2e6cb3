/**
 * The driver of (u): many distinct users at human pace, not a few busy ones. Every user is a loop
 * of its own: it sends, waits for the reply, and sends again no sooner than a second after its
 * previous message (`intervalMs`). The users start spread over the first second, so the offered
 * load is `users` updates a second; a bot that answers slower than that queues them, as Telegram
 * queues a busy bot's updates, and is "saturated". A reply telling the user they send too fast
 * fails the run, as any reply other than the expected one does.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { Env } from "./env.ts";

export interface HumanOptions {
  users: FakeUser[];
  /** How many messages each user sends. */
  passes: number;
  text: string;
  expect: (reply: string) => boolean;
  /** A reply that means the bot's flood limit was hit: the run fails with its own message. */
  tooFast: (reply: string) => boolean;
  /** Least time between two messages of one user; default 1 s. */
  intervalMs?: number;
}

export interface HumanResult {
  updates: number;
  elapsedMs: number;
  /** Updates answered per second over the run. */
  throughput: number;
  /** What the users offered: users / interval. */
  offered: number;
  latenciesMs: number[];
  /** The shortest time between two messages of one user (≥ intervalMs by construction, checked). */
  minGapMs: number;
}

export async function driveHuman(env: Env, options: HumanOptions): Promise<HumanResult> {
  const { users, passes, text } = options;
  const interval = options.intervalMs ?? 1_000;
  const n = users.length;
  const latenciesMs: number[] = [];
  let minGapMs = Number.POSITIVE_INFINITY;
  const start = performance.now();
  // A reply can wait long behind a queue of thousands: a minute before a run counts as failed.
  const timeoutMs = 60_000;
  const user = async (who: FakeUser, i: number) => {
    let last = Number.NEGATIVE_INFINITY;
    for (let pass = 0; pass < passes; pass++) {
      const due = Math.max(start + (i / n) * interval + pass * interval, last + interval);
      // Again while early: a timer counts from the event loop's cached time and may fire a little early.
      for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) {
        await sleep(Math.ceil(wait));
      }
      const reply = env.replies.next(who.id, timeoutMs);
      const sentAt = performance.now();
      minGapMs = Math.min(minGapMs, sentAt - last);
      last = sentAt;
      await who.send(text);
      const { at, text: got } = await reply;
      latenciesMs.push(at - sentAt);
      if (options.tooFast(got)) throw new Error(`User ${who.id} was told they send too fast: ${got}`);
      if (!options.expect(got))
        throw new Error(`Unexpected reply to ${text} for user ${who.id}: ${got.slice(0, 200)}`);
    }
  };
  await Promise.all(users.map(user));
  const elapsedMs = performance.now() - start;
  if (minGapMs < interval) throw new Error(`A user sent twice within ${minGapMs.toFixed(0)} ms`);
  const updates = n * passes;
  return {
    updates,
    elapsedMs,
    throughput: (updates / elapsedMs) * 1000,
    offered: (n / interval) * 1000,
    latenciesMs,
    minGapMs,
  };
}
