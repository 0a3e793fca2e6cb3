/**
 * Looks over the stored sessions once per tick: five minutes before a token expires the user is
 * offered to stay logged in (once per token, guarded in the store so that several instances send
 * one message), and a session idle for longer than the user's auto-logout setting is ended.
 * Knows nothing of Telegram: it hands what to say to `notify`.
 *
 * With a remembered password, the warning's offer is "send a fresh code": it stands in the store
 * (`stay-offer:`) until five minutes after the session's end, and `stayOfferOpen` tells the bot
 * whether a 6-digit message typed outside any flow is that code. Without one, the offer is the
 * warning's button (a login needs the password too).
 */

import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { Profiles } from "./profiles.ts";
import type { Sessions } from "./sessions.ts";

export const EXPIRY_WARNING_MS = 5 * 60_000;

const offerKey = (userId: number) => `stay-offer:${userId}`;

export type SessionNotice =
  | {
      kind: "expiry-warning";
      userId: number;
      expiresAt: number;
      locale: string | undefined;
      /** A remembered password: a fresh code alone logs in again (the warning says so). */
      codeOnly: boolean;
    }
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
    if (status.expiresAt - now > EXPIRY_WARNING_MS || profile.notifications.expiry === "off") continue;
    const first = await options.store.setIfAbsent(
      `expiry-warned:${userId}:${status.expiresAt}`,
      now,
      EXPIRY_WARNING_MS * 2,
    );
    if (!first) continue;
    const codeOnly = await options.sessions.hasRememberedPassword(userId);
    if (codeOnly) {
      // Open until a while after the end: a code sent just after the session ran out still counts.
      await options.store.set(offerKey(userId), status.expiresAt, status.expiresAt - now + EXPIRY_WARNING_MS);
    }
    const notice: SessionNotice = {
      kind: "expiry-warning",
      userId,
      expiresAt: status.expiresAt,
      locale: profile.locale,
      codeOnly,
    };
    await options.notify(notice);
    done.push(notice);
  }
  return done;
}

/**
 * Whether the warning's "send a fresh code" offer stands for this user: it was made for the
 * session they still have (or that has just run out; a session renewed since is not it), and the
 * password is still remembered. A 6-digit message outside a flow is then that code.
 */
export async function stayOfferOpen(
  parts: { store: Store; sessions: Sessions },
  userId: number,
): Promise<boolean> {
  const offeredFor = await parts.store.get<number>(offerKey(userId));
  if (offeredFor === undefined) return false;
  const status = await parts.sessions.status(userId);
  if (status.state === "logged-out") return false;
  if (status.state === "active" && status.expiresAt !== offeredFor) return false;
  return parts.sessions.hasRememberedPassword(userId);
}

/** The offer is taken (a login succeeded) or void (the remembered password was refused). */
export async function closeStayOffer(store: Store, userId: number): Promise<void> {
  await store.delete(offerKey(userId));
}
