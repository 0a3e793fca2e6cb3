/**
 * What a user chose in /settings and /language. Kept apart from grammY's session so that the
 * scheduler, inline mode and conversations (which have no session) read the same record.
 *
 * @example
 * const profile = await profiles.get(userId);
 * if (profile.notifications.alerts !== "off") queue.push(...);
 */
import type { Store } from "../store/store.ts";

/** How a kind of notice reaches the user: with a sound, silently (Telegram's `disable_notification`), or not. */
export type NotifyMode = "on" | "silent" | "off";
export const NOTIFY_MODES: readonly NotifyMode[] = ["on", "silent", "off"];
/** The kinds of notices the user controls in /settings. */
export const NOTIFY_KINDS = ["alerts", "orders", "expiry", "digest"] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** Quiet hours in the user's own time zone: minutes after local midnight, `from` up to `to` (may span midnight). */
export interface QuietHours {
  from: number;
  to: number;
}

export interface UserProfile {
  /** Undefined until the user picks one: Telegram's language, then DEFAULT_LOCALE, decide. */
  locale: string | undefined;
  /**
   * The language of the user's Telegram app (a supported one), as last seen when a message the bot
   * starts itself became likely (a login, a confirmed order, a sign-up): such messages have no
   * update to read it from. `locale` wins when the user chose one.
   */
  appLocale?: string | undefined;
  notifications: Record<NotifyKind, NotifyMode>;
  /** Undefined: none. Only kept while a time zone is known (they are the user's own hours). */
  quietHours?: QuietHours | undefined;
  /** The local hour (0–23) of the daily digest, when `notifications.digest` is not off. */
  digestHour: number;
  /** Opt-in: keep the password (encrypted) so that re-login needs only a 2FA code. */
  rememberPassword: boolean;
  /** Log out after this many minutes without a message; 0 means never. */
  autoLogoutMinutes: number;
  /**
   * Where the user's wall clock is (an IANA name or a "+HH:MM" offset, see src/domain/time-zone.ts): asked
   * once, the first time something runs at the user's own hours (quiet hours, the digest, plans).
   */
  timeZone?: string | undefined;
}

export const DEFAULT_PROFILE: UserProfile = {
  locale: undefined,
  notifications: { alerts: "on", orders: "on", expiry: "on", digest: "off" },
  rememberPassword: false,
  autoLogoutMinutes: 0,
  digestHour: 8,
};

/**
 * The switches as stored, old or new: profiles written before the modes hold booleans (true → on,
 * false → off); anything unknown falls back to the default, so a bad record never silences a kind.
 */
export function readNotifications(saved: unknown): UserProfile["notifications"] {
  const stored = (typeof saved === "object" && saved !== null ? saved : {}) as Record<string, unknown>;
  const modes = { ...DEFAULT_PROFILE.notifications };
  for (const kind of NOTIFY_KINDS) {
    const value = stored[kind];
    if (value === true) modes[kind] = "on";
    else if (value === false) modes[kind] = "off";
    else if (NOTIFY_MODES.includes(value as NotifyMode)) modes[kind] = value as NotifyMode;
  }
  return modes;
}

/** The profile with one kind of notice set to `mode`. */
export function withMode(profile: UserProfile, kind: NotifyKind, mode: NotifyMode): UserProfile {
  return { ...profile, notifications: { ...profile.notifications, [kind]: mode } };
}

/** Where the digest's subscribers are listed (the jobs' tick reads one index, not every profile). */
export const DIGEST_INDEX = "digest:users";
const digestKey = (userId: number) => `digest-on:${userId}`;

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
    const profile = readProfile(await this.#store.get<Partial<UserProfile>>(key(userId)));
    this.#remember(userId, profile);
    return copy(profile);
  }

  async update(userId: number, change: (profile: UserProfile) => UserProfile): Promise<UserProfile> {
    this.#cache.delete(userId);
    const before = await this.get(userId);
    const next = change(before);
    await this.#store.set(key(userId), next);
    this.#remember(userId, next);
    const wants = next.notifications.digest !== "off";
    if (wants !== (before.notifications.digest !== "off")) {
      if (wants) await this.#store.setIndexed(digestKey(userId), true, undefined, [digestEntry(userId)]);
      else await this.#store.delete(digestKey(userId));
    }
    return copy(next);
  }

  /**
   * The users who want a digest, with their profiles, read in one round trip (the jobs' tick asks
   * every time); one who switched it off since is taken off the list here.
   */
  async digestSubscribers(): Promise<Array<{ userId: number; profile: UserProfile }>> {
    const ids = (await this.#store.indexMembers(DIGEST_INDEX)).map(Number).filter(Number.isSafeInteger);
    const saved = await this.#store.getMany<Partial<UserProfile>>(ids.map(key));
    const subscribers: Array<{ userId: number; profile: UserProfile }> = [];
    for (const [i, userId] of ids.entries()) {
      const profile = readProfile(saved[i]);
      if (profile.notifications.digest === "off") {
        await this.#store.unindex(DIGEST_INDEX, String(userId), digestKey(userId));
      } else {
        subscribers.push({ userId, profile });
      }
    }
    return subscribers;
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

/** A stored profile (or none) with the defaults filled in and old switches read as modes. */
function readProfile(saved: Partial<UserProfile> | undefined): UserProfile {
  return { ...DEFAULT_PROFILE, ...saved, notifications: readNotifications(saved?.notifications) };
}

function copy(profile: UserProfile): UserProfile {
  return {
    ...profile,
    notifications: { ...profile.notifications },
    ...(profile.quietHours ? { quietHours: { ...profile.quietHours } } : {}),
  };
}

function digestEntry(userId: number) {
  return { index: DIGEST_INDEX, member: String(userId) };
}

/** A user's profile is kept under this prefix; never with a TTL. */
export const PROFILE_PREFIX = "profile:";

function key(userId: number): string {
  return `${PROFILE_PREFIX}${userId}`;
}
