/**
 * Looks over the stored sessions once per tick: five minutes before a token expires the user is
 * offered to stay logged in (once per token, guarded in the store so that several instances send
 * one message), and a session idle for longer than the user's auto-logout setting is ended.
 * Knows nothing of Telegram: it hands what to say to `notify`.
 */
import type { Clock } from "../clock.ts";
import type { Store } from "../store/store.ts";
import type { Profiles } from "./profiles.ts";
import type { Sessions } from "./sessions.ts";

export const EXPIRY_WARNING_MS = 5 * 60_000;

export type SessionNotice =
  | { kind: "expiry-warning"; userId: number; expiresAt: number; locale: string | undefined }
  | { kind: "auto-logout"; userId: number; minutes: number; locale: string | undefined };

export interface ExpiryWatchOptions {
  sessions: Sessions;
  profiles: Profiles;
  store: Store;
  clock: Clock;
  notify: (notice: SessionNotice) => Promise<void>;
}

/** One pass over every session; returns what it did, for tests and logs. */
export async function checkSessions(options: ExpiryWatchOptions): Promise<SessionNotice[]> {
  const done: SessionNotice[] = [];
  const now = options.clock.now();
  for (const userId of await options.sessions.userIds()) {
    const status = await options.sessions.status(userId);
    if (status.state === "logged-out") {
      // Listed but gone (its record expired): off the list, so the next sweep does not ask again.
      await options.sessions.unlist(userId);
      continue;
    }
    const profile = await options.profiles.get(userId);
    const idleLimit = profile.autoLogoutMinutes * 60_000;
    // An expired session idle past the limit is ended too: it may still hold a remembered password.
    if (idleLimit > 0 && now - status.lastActivityAt >= idleLimit) {
      await options.sessions.logout(userId);
      const notice: SessionNotice = {
        kind: "auto-logout",
        userId,
        minutes: profile.autoLogoutMinutes,
        locale: profile.locale,
      };
      await options.notify(notice);
      done.push(notice);
      continue;
    }
    if (status.state !== "active") continue;
    if (status.expiresAt - now > EXPIRY_WARNING_MS || !profile.notifications.expiry) continue;
    const first = await options.store.setIfAbsent(
      `expiry-warned:${userId}:${status.expiresAt}`,
      now,
      EXPIRY_WARNING_MS * 2,
    );
    if (!first) continue;
    const notice: SessionNotice = {
      kind: "expiry-warning",
      userId,
      expiresAt: status.expiresAt,
      locale: profile.locale,
    };
    await options.notify(notice);
    done.push(notice);
  }
  return done;
}
