/**
 * Quiet hours on the user's own wall clock: whether an instant falls inside them, read in the zone
 * the user gave (src/domain/time-zone.ts), so "22:00–07:00" follows them across summer time and a move
 * to another zone. Without a zone there are no quiet hours: they are the user's hours, not UTC's.
 *
 * @example
 * inQuietHours({ timeZone: "Europe/Berlin", quietHours: { from: 22 * 60, to: 7 * 60 } }, clock.now());
 */

import { localTime } from "../domain/time-zone.ts";
import type { UserProfile } from "../session/profiles.ts";

/** Minutes in a day: the largest value `from` and `to` take (24:00, the end of the day). */
export const DAY_MINUTES = 24 * 60;

/** True when `at` is inside the quiet hours; `from` > `to` spans midnight, `from` = `to` is none. */
export function inQuietHours(profile: Pick<UserProfile, "timeZone" | "quietHours">, at: number): boolean {
  const quiet = profile.quietHours;
  if (quiet === undefined || profile.timeZone === undefined || quiet.from === quiet.to) return false;
  let local: ReturnType<typeof localTime>;
  try {
    local = localTime(profile.timeZone, at);
  } catch {
    // A zone this ICU no longer knows: no quiet hours rather than no notices.
    return false;
  }
  const minute = local.hour * 60 + local.minute;
  return quiet.from < quiet.to
    ? minute >= quiet.from && minute < quiet.to
    : minute >= quiet.from || minute < quiet.to;
}

/** 1320 → "22:00". */
export function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
