/**
 * The deadline of the user-facing action in progress (SECURITY.md, Reliability: a final sentence
 * within 20 seconds whatever the exchange does). The bot opens one per update; every exchange
 * call made while handling it, however deep, fits its attempts and backoff inside what is left.
 * Work outside an update (jobs, reconciliation at start-up) has no deadline and keeps the
 * client's own, longer budget.
 *
 * Real time, not the injected clock: this is about how long a person waits.
 *
 * @example
 * await withDeadline(17_000, () => next());
 * const left = timeLeft(); // undefined outside an action
 * postponeDeadline(waitedForTheChatMs);
 */
import { AsyncLocalStorage } from "node:async_hooks";

interface Deadline {
  at: number;
  /** Closed when the action ends: a timer it left behind is background work then. */
  open: boolean;
}

const current = new AsyncLocalStorage<Deadline>();

/** Runs `task` as an action that must be done within `ms` from now. */
export async function withDeadline<T>(ms: number, task: () => Promise<T>): Promise<T> {
  const deadline: Deadline = { at: performance.now() + ms, open: true };
  try {
    return await current.run(deadline, task);
  } finally {
    deadline.open = false;
  }
}

/**
 * Moves the current action's deadline `ms` later (nothing outside an action): time the action spent
 * waiting for something that is not the exchange (another instance's hold on the chat) is not
 * taken from what its exchange calls may use.
 */
export function postponeDeadline(ms: number): void {
  const deadline = current.getStore();
  if (deadline?.open && ms > 0) deadline.at += ms;
}

/** Milliseconds left of the current action's deadline (0 when passed); undefined outside one. */
export function timeLeft(): number | undefined {
  const deadline = current.getStore();
  if (deadline === undefined || !deadline.open) return undefined;
  return Math.max(0, deadline.at - performance.now());
}
