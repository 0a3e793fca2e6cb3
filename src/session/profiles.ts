/**
 * What a user chose in /settings and /language. Kept apart from grammY's session so that the
 * scheduler, inline mode and conversations (which have no session) read the same record.
 *
 * @example
 * const profile = await profiles.get(userId);
 * if (profile.notifications.alerts) queue.push(...);
 */
import type { Store } from "../store/store.ts";

export interface UserProfile {
  /** Undefined until the user picks one: Telegram's language, then DEFAULT_LOCALE, decide. */
  locale: string | undefined;
  notifications: { alerts: boolean; orders: boolean; expiry: boolean };
  /** Opt-in: keep the password (encrypted) so that re-login needs only a 2FA code. */
  rememberPassword: boolean;
  /** Log out after this many minutes without a message; 0 means never. */
  autoLogoutMinutes: number;
}

export const DEFAULT_PROFILE: UserProfile = {
  locale: undefined,
  notifications: { alerts: true, orders: true, expiry: true },
  rememberPassword: false,
  autoLogoutMinutes: 0,
};

export const AUTO_LOGOUT_CHOICES = [0, 15, 30, 60] as const;

export class Profiles {
  readonly #store: Store;
  constructor(store: Store) {
    this.#store = store;
  }

  async get(userId: number): Promise<UserProfile> {
    const saved = await this.#store.get<Partial<UserProfile>>(key(userId));
    return {
      ...DEFAULT_PROFILE,
      ...saved,
      notifications: { ...DEFAULT_PROFILE.notifications, ...saved?.notifications },
    };
  }

  async update(userId: number, change: (profile: UserProfile) => UserProfile): Promise<UserProfile> {
    const next = change(await this.get(userId));
    await this.#store.set(key(userId), next);
    return next;
  }
}

function key(userId: number): string {
  return `profile:${userId}`;
}
