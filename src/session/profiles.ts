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
  /**
   * The language of the user's Telegram app (a supported one), as last seen when a message the bot
   * starts itself became likely (a login, a confirmed order, a sign-up): such messages have no
   * update to read it from. `locale` wins when the user chose one.
   */
  appLocale?: string | undefined;
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

/**
 * The profile is read on every update (the locale negotiator asks for it), so reads are kept for a
 * moment in memory (measured: the read was the slowest store access of a /help). A change made on
 * this instance is seen at once; one made on another instance within `cacheMs`.
 */
export class Profiles {
  readonly #store: Store;
  readonly #cacheMs: number;
  readonly #cache = new Map<number, { profile: UserProfile; at: number }>();

  constructor(store: Store, options: { cacheMs?: number } = {}) {
    this.#store = store;
    this.#cacheMs = options.cacheMs ?? 2_000;
  }

  async get(userId: number): Promise<UserProfile> {
    const cached = this.#cache.get(userId);
    if (cached !== undefined && performance.now() - cached.at < this.#cacheMs) return copy(cached.profile);
    const saved = await this.#store.get<Partial<UserProfile>>(key(userId));
    const profile: UserProfile = {
      ...DEFAULT_PROFILE,
      ...saved,
      notifications: { ...DEFAULT_PROFILE.notifications, ...saved?.notifications },
    };
    this.#remember(userId, profile);
    return copy(profile);
  }

  async update(userId: number, change: (profile: UserProfile) => UserProfile): Promise<UserProfile> {
    this.#cache.delete(userId);
    const next = change(await this.get(userId));
    await this.#store.set(key(userId), next);
    this.#remember(userId, next);
    return copy(next);
  }

  /** Keeps the app's language for later notices; writes only when it changed. */
  async rememberAppLocale(userId: number, appLocale: string | undefined): Promise<void> {
    if (appLocale === undefined || (await this.get(userId)).appLocale === appLocale) return;
    await this.update(userId, (profile) => ({ ...profile, appLocale }));
  }

  /**
   * The profile as `get` would give it from memory, or undefined when `get` would read the store;
   * not a copy (do not change it). For a caller that reads the store later anyway, only when it
   * must (bot/i18n.ts on Redis).
   */
  remembered(userId: number): Readonly<UserProfile> | undefined {
    const cached = this.#cache.get(userId);
    return cached !== undefined && performance.now() - cached.at < this.#cacheMs ? cached.profile : undefined;
  }

  #remember(userId: number, profile: UserProfile): void {
    if (this.#cacheMs <= 0) return;
    if (this.#cache.size > 50_000) this.#cache.clear();
    this.#cache.set(userId, { profile: copy(profile), at: performance.now() });
  }
}

function copy(profile: UserProfile): UserProfile {
  return { ...profile, notifications: { ...profile.notifications } };
}

/** A user's profile is kept under this prefix; never with a TTL. */
export const PROFILE_PREFIX = "profile:";

function key(userId: number): string {
  return `${PROFILE_PREFIX}${userId}`;
}
