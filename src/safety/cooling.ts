/**
 * The cooling-off of new destinations: how long a saved address or a bank account added through
 * the bot waits before money may go to it. The operator sets the default and the minimum
 * (SAFETY_COOLING_OFF_HOURS, SAFETY_COOLING_OFF_MIN_HOURS: src/config/sections/safety.ts); a user
 * chooses within [minimum, 72] hours. A user's pending destinations are listed in one index, so the jobs' tick
 * tells them when one becomes usable without listing keys (cooling-notices.ts).
 */
import type { Store } from "../store/store.ts";

export const HOUR_MS = 60 * 60_000;
export const MAX_COOLING_HOURS = 72;

export interface CoolingConfig {
  /** Hours a new user's destinations cool off. */
  defaultHours: number;
  /** The shortest a user may choose. */
  minimumHours: number;
}

export const DEFAULT_COOLING: CoolingConfig = { defaultHours: 24, minimumHours: 1 };

/** Users with a destination that may still be cooling off (the jobs' tick reads it). */
export const COOLING_INDEX = "safety:cooling";
export const coolingKey = (userId: number) => `safety-cooling:${userId}`;

/** Lists the user for the tick until a while after `usableAt`. */
export async function listCooling(
  store: Store,
  userId: number,
  usableAt: number,
  now: number,
): Promise<void> {
  const ttl = Math.max(usableAt - now, 0) + 7 * 24 * HOUR_MS;
  const current = await store.get<number>(coolingKey(userId));
  const until = Math.max(current ?? 0, usableAt);
  await store.setIndexed(coolingKey(userId), until, ttl, [{ index: COOLING_INDEX, member: String(userId) }]);
}
