/**
 * The time zone of the person a message is being worded for, while it is worded: set once per
 * update (bot.ts, from the user's profile) and once per notice (notify/notifier.ts), read by the
 * time formatters (bot/ui/format.ts). A time is then shown in the reader's zone, with the zone
 * named, without threading the zone through every card, refusal and notice that shows a time.
 *
 * @example
 * await withReaderZone(profile.timeZone, () => next());
 * readerZone(); // "Europe/Berlin", or undefined: UTC
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string | undefined>();

/** Runs `work` with `zone` (an IANA name or a UTC offset) as the reader's; undefined means UTC. */
export function withReaderZone<T>(zone: string | undefined, work: () => T): T {
  return scope.run(zone, work);
}

/** The reader's zone while a message is worded, or undefined (UTC) outside of one. */
export function readerZone(): string | undefined {
  return scope.getStore();
}
