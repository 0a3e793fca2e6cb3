/**
 * Login, token lifetime and "give me a live exchange client for this user". Knows nothing of
 * Telegram: users are numbers. Tokens and remembered passwords are kept only through the Vault.
 *
 * The exchange's token lives 60 minutes and cannot be refreshed: a new one needs a login with a
 * fresh 2FA code (SECURITY.md, Sessions). Failed logins are limited per user in the store, so the
 * limit holds across restarts and instances.
 *
 * The login record names a person, so its e-mail is sealed like the token, and it ends: a day after
 * its token (long enough to offer the e-mail at the next login and for the auto-logout sweep), or,
 * while a remembered password needs its e-mail, together with that password (at /logout or
 * auto-logout). A sealed value no configured key opens counts as absent: the user logs in again.
 *
 * @example
 * const outcome = await sessions.login(userId, { email, password, securityCode });
 * if (outcome.ok) await sessions.use(userId, (client) => client.fiatBalance());
 */
import { createHash } from "node:crypto";
import type { AccountApi, AccountSession } from "../exchange/account.ts";
import { ExchangeError } from "../exchange/errors.ts";
import { indexExistingKeys } from "../store/indexed.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import { NotLoggedInError } from "./errors.ts";
import { FailureLimit } from "./failure-limit.ts";

/** The login record as the store holds it. */
interface StoredAuth {
  /** The e-mail, sealed by the Vault. */
  sealedEmail?: string;
  /** Records written before the e-mail was sealed hold it in plain text: read, sealed at their next write. */
  email?: string;
  sealedToken: string;
  issuedAt: number;
  expiresAt: number;
  lastActivityAt: number;
  /** Set when the exchange said 401 or the expiry passed; the token is gone then. */
  expired?: boolean;
  /** A remembered password needs this record's e-mail: kept without a TTL while it is there. */
  keep?: boolean;
}

export type LoginOutcome =
  | { ok: true; expiresAt: number }
  | {
      ok: false;
      reason: "rate-limited";
      retryAt: number;
      /** True when this attempt reached the exchange and its failure used up the limit (a lockout). */
      lockedNow: boolean;
    }
  | { ok: false; reason: "bad-credentials" | "bad-code"; attemptsLeft: number };

export type SessionStatus =
  | { state: "logged-out" }
  | { state: "expired"; email: string; lastActivityAt: number }
  | { state: "active"; email: string; expiresAt: number; lastActivityAt: number };

export interface SessionOptions {
  store: Store;
  vault: Vault;
  account: AccountApi;
  clock: Clock;
  /** Failed logins allowed per window (SECURITY.md, rule 3). */
  maxFailures?: number;
  failureWindowMs?: number;
  /**
   * More store keys that hold a user's secrets and go at logout: the bot's conversation state,
   * which holds what a half-finished flow was typed (a password, a code).
   */
  alsoWipe?: (userId: number) => string[];
  /** Told of every login's outcome, chat and Mini App alike (metrics: failures and lockouts). */
  onLogin?: (outcome: LoginOutcome) => void;
  /**
   * Told of every successful login, after it is recorded, with where it came from: the
   * composition root raises the security notice (a login the user did not make is the first sign
   * of a taken-over account). Awaited; it must not throw.
   */
  onLoggedIn?: (userId: number, via: LoginVia, at: number) => Promise<void>;
}

/** Where a login was typed: the chat's login steps, or the Mini App's page. */
export type LoginVia = "chat" | "webapp";

export class Sessions {
  readonly #store: Store;
  readonly #vault: Vault;
  readonly #account: AccountApi;
  readonly #clock: Clock;
  readonly #perUser: FailureLimit;
  readonly #perEmail: FailureLimit;
  readonly #alsoWipe: (userId: number) => string[];
  readonly #onLogin: ((outcome: LoginOutcome) => void) | undefined;
  readonly #onLoggedIn: SessionOptions["onLoggedIn"];
  /** The user whose session useAnyLive borrowed last: asked first next time. */
  #lender: number | undefined;

  constructor(options: SessionOptions) {
    this.#store = options.store;
    this.#vault = options.vault;
    this.#account = options.account;
    this.#clock = options.clock;
    const windowMs = options.failureWindowMs ?? 15 * 60_000;
    const max = options.maxFailures ?? 5;
    this.#perUser = new FailureLimit(this.#store, this.#clock, { max, windowMs, name: "login-user" });
    this.#perEmail = new FailureLimit(this.#store, this.#clock, {
      max: max * 2,
      windowMs,
      name: "login-email",
      // Keyed: without SECRETS_KEY a guessed address cannot be tested against the counters' keys.
      hashSubject: (subject) => this.#vault.hash(subject),
    });
    this.#alsoWipe = options.alsoWipe ?? (() => []);
    this.#onLogin = options.onLogin;
    this.#onLoggedIn = options.onLoggedIn;
  }

  /** Logs in at the exchange; wrong input counts against the user's limit. */
  async login(
    userId: number,
    input: { email: string; password: string; securityCode: string },
    options: { rememberPassword?: boolean; via?: LoginVia } = {},
  ): Promise<LoginOutcome> {
    const outcome = await this.#login(userId, input, options);
    this.#onLogin?.(outcome);
    if (outcome.ok) await this.#onLoggedIn?.(userId, options.via ?? "chat", this.#clock.now());
    return outcome;
  }

  async #login(
    userId: number,
    input: { email: string; password: string; securityCode: string },
    options: { rememberPassword?: boolean },
  ): Promise<LoginOutcome> {
    // Per Telegram user, and per e-mail: many Telegram accounts must not share one guess budget.
    // Both are reserved before the call (failure-limit.ts): a burst of concurrent attempts makes at
    // most the limit's worth of login calls, whichever instances it reaches.
    const user = await this.#perUser.reserve(String(userId));
    if (!user.ok) return { ok: false, reason: "rate-limited", retryAt: user.until, lockedNow: false };
    const email = await this.#perEmail.reserve(emailSubject(input.email));
    if (!email.ok) {
      await this.#perUser.release(user.slot);
      return { ok: false, reason: "rate-limited", retryAt: email.until, lockedNow: false };
    }
    let session: Awaited<ReturnType<AccountApi["login"]>>;
    try {
      session = await this.#account.login(input);
    } catch (error) {
      const refused =
        error instanceof ExchangeError &&
        (error.kind === "validation" || error.kind === "unauthenticated" || error.kind === "forbidden");
      if (!refused) {
        // Not a wrong guess (the exchange did not answer, say): it does not count. Should the store
        // fail too, the attempt stays counted (the safe side) and the caller hears the first error.
        await Promise.allSettled([this.#perUser.release(user.slot), this.#perEmail.release(email.slot)]);
        throw error;
      }
      const perUser = await this.#perUser.fail(user.slot);
      const perEmail = await this.#perEmail.fail(email.slot);
      const retryAt = perUser.lockedUntil ?? perEmail.lockedUntil;
      if (retryAt !== undefined) return { ok: false, reason: "rate-limited", retryAt, lockedNow: true };
      const badCode = "security_code" in error.fieldErrors && !("email" in error.fieldErrors);
      const attemptsLeft = Math.max(0, this.#perUser.max - perUser.failures);
      return { ok: false, reason: badCode ? "bad-code" : "bad-credentials", attemptsLeft };
    }
    const now = this.#clock.now();
    const record: StoredAuth = {
      sealedEmail: this.#vault.encrypt(input.email),
      sealedToken: this.#vault.encrypt(session.access_token),
      issuedAt: now,
      expiresAt: now + session.expires_in * 1000,
      lastActivityAt: now,
      // Not remembering now: whether a password remembered before is still there decides (#write).
      ...(options.rememberPassword ? { keep: true } : {}),
    };
    const previous = await this.#read(userId);
    // Listed in the "auth" index with the record, atomically: the tick reads the index, not the keyspace.
    await this.#write(userId, record, { list: true });
    await this.#perUser.clear(String(userId));
    // The e-mail's failures stay (others may be guessing it); this attempt was not one of them.
    await this.#perEmail.release(email.slot);
    // A renewed session ("stay logged in"): the old token is ended at the exchange, not left alive.
    const previousToken = previous && this.#liveToken(previous);
    if (previousToken !== undefined) {
      await this.#account
        .session(previousToken)
        .logout()
        .catch((error: unknown) => {
          if (!(error instanceof ExchangeError)) throw error;
        });
    }
    if (options.rememberPassword) {
      await this.#store.set(passwordKey(userId), this.#vault.encrypt(input.password));
    }
    return { ok: true, expiresAt: record.expiresAt };
  }

  /**
   * When the user may try to log in again, or undefined when they may now: asked before a login
   * asks for anything secret. The e-mail's own limit counts too when the e-mail is known.
   */
  async loginBlockedUntil(userId: number): Promise<number | undefined> {
    const blocked = await this.#perUser.blockedUntil(String(userId));
    if (blocked !== undefined) return blocked;
    const status = await this.status(userId);
    return status.state === "logged-out"
      ? undefined
      : this.#perEmail.blockedUntil(emailSubject(status.email));
  }

  /**
   * Re-login with the remembered password and a fresh code; undefined when none is remembered (or
   * none that a configured key opens), and the remembered password is kept as it was.
   */
  async quickLogin(userId: number, securityCode: string): Promise<LoginOutcome | undefined> {
    const password = await this.#rememberedPassword(userId);
    const status = await this.status(userId);
    if (password === undefined || status.state === "logged-out") return undefined;
    return this.login(userId, { email: status.email, password, securityCode }, { rememberPassword: true });
  }

  async hasRememberedPassword(userId: number): Promise<boolean> {
    return (await this.#rememberedPassword(userId)) !== undefined;
  }

  async forgetPassword(userId: number): Promise<void> {
    await this.#store.delete(passwordKey(userId));
    // The login record no longer serves a remembered password: it ends with its token again.
    const record = await this.#read(userId);
    if (record?.keep) await this.#write(userId, { ...record, keep: false });
  }

  /**
   * The session's state. Its `email` is opened when it is first read: the expiry sweep asks every
   * listed session for its state and times only, and is spared a decryption per session and tick.
   */
  async status(userId: number): Promise<SessionStatus> {
    const record = await this.#read(userId);
    if (record === undefined) return { state: "logged-out" };
    const email = this.#lazyEmail(record);
    if (record.expired || record.expiresAt <= this.#clock.now()) {
      return {
        state: "expired",
        get email() {
          return email();
        },
        lastActivityAt: record.lastActivityAt,
      };
    }
    return {
      state: "active",
      get email() {
        return email();
      },
      expiresAt: record.expiresAt,
      lastActivityAt: record.lastActivityAt,
    };
  }

  /** A client bound to the user's token; throws NotLoggedInError when there is none. */
  async client(userId: number): Promise<AccountSession> {
    const record = await this.#read(userId);
    if (record === undefined) throw new NotLoggedInError("logged-out");
    // A token no configured key opens is as good as an expired one: the user logs in again.
    const token = this.#liveToken(record);
    if (token === undefined) {
      await this.markExpired(userId);
      throw new NotLoggedInError("expired");
    }
    return this.#account.session(token);
  }

  /**
   * Runs `task` with the user's client; a 401 from the exchange marks the session expired and
   * becomes NotLoggedInError, so callers handle one case for "log in again".
   */
  async use<T>(userId: number, task: (client: AccountSession) => Promise<T>): Promise<T> {
    const client = await this.client(userId);
    try {
      return await task(client);
    } catch (error) {
      if (error instanceof ExchangeError && error.kind === "unauthenticated") {
        await this.markExpired(userId);
        throw new NotLoggedInError("expired");
      }
      throw error;
    }
  }

  /**
   * Runs `task` with the exchange client of some user who is logged in, for data that is the same
   * for everyone (the market feed's prices). The token never leaves this class, and the user's
   * activity time is not touched. The user who lent last is asked first; a 401 marks that session
   * expired (the token is dead for its owner too) and the next one is tried. Undefined when
   * nobody has a live session.
   */
  async useAnyLive<T>(task: (client: AccountSession) => Promise<T>): Promise<{ value: T } | undefined> {
    const order = this.#lender === undefined ? [] : [this.#lender];
    let scanned = false;
    for (let i = 0; ; i++) {
      if (i === order.length) {
        if (scanned) return undefined;
        scanned = true;
        const seen = new Set(order);
        for (const id of await this.userIds()) if (!seen.has(id)) order.push(id);
        if (i === order.length) return undefined;
      }
      const userId = order[i] as number;
      const record = await this.#read(userId);
      const token = record && this.#liveToken(record);
      if (token === undefined) continue;
      try {
        const value = await task(this.#account.session(token));
        this.#lender = userId;
        return { value };
      } catch (error) {
        if (!(error instanceof ExchangeError) || error.kind !== "unauthenticated") throw error;
        if (this.#lender === userId) this.#lender = undefined;
        await this.markExpired(userId);
      }
    }
  }

  /** Forgets the token but keeps the e-mail, so the next login can offer it. */
  async markExpired(userId: number): Promise<void> {
    const record = await this.#read(userId);
    if (record === undefined || record.expired) return;
    await this.#write(userId, { ...record, sealedToken: "", expired: true });
  }

  /**
   * Records activity, for auto-logout after inactivity. Within a few seconds of the last record
   * the write is skipped: auto-logout counts in minutes, and a store write per update cost more
   * than the rest of a /balance's store work.
   */
  async touch(userId: number): Promise<void> {
    const record = await this.#read(userId);
    if (record === undefined || record.expired) return;
    const now = this.#clock.now();
    if (now >= record.lastActivityAt && now - record.lastActivityAt < TOUCH_GRANULARITY_MS) return;
    await this.#write(userId, { ...record, lastActivityAt: now });
  }

  /** Ends the session at the exchange (best effort) and wipes every secret held for the user. */
  async logout(userId: number): Promise<{ wasLoggedIn: boolean }> {
    const record = await this.#read(userId);
    const token = record && this.#liveToken(record);
    let wasLoggedIn = false;
    if (token !== undefined) {
      wasLoggedIn = true;
      try {
        await this.#account.session(token).logout();
      } catch (error) {
        // The token is wiped here whatever the exchange said; a dead token is already logged out.
        if (!(error instanceof ExchangeError)) throw error;
      }
    }
    await this.#store.delete(authKey(userId));
    await this.unlist(userId);
    await this.#store.delete(passwordKey(userId));
    for (const key of this.#alsoWipe(userId)) await this.#store.delete(key);
    await this.#store.purgeDeleted();
    return { wasLoggedIn };
  }

  /**
   * The login record; undefined when there is none, when it has ended (on the injected clock too:
   * the store's TTL counts real time), or when its e-mail was sealed by no configured key (told by
   * the key id, without decrypting: most updates never need the e-mail).
   */
  async #read(userId: number): Promise<StoredAuth | undefined> {
    const stored = await this.#store.get<StoredAuth>(authKey(userId));
    if (stored === undefined) return undefined;
    // `keep` unset: a record of an older version, without a TTL; it gets one at its next write.
    if (stored.keep === false && stored.expiresAt + ENDED_SESSION_KEPT_MS <= this.#clock.now())
      return undefined;
    if (stored.sealedEmail !== undefined && !this.#vault.canOpen(stored.sealedEmail)) return undefined;
    return stored;
  }

  /**
   * The record's e-mail (opened, or as an older version kept it), at the first call. #read checked
   * its key id; one altered in the store (the key id right, the rest not) reads as "".
   */
  #lazyEmail(record: StoredAuth): () => string {
    let email: string | undefined;
    return () => {
      email ??=
        (record.sealedEmail === undefined ? record.email : this.#vault.open(record.sealedEmail)) ?? "";
      return email;
    };
  }

  /**
   * Writes the record with its e-mail sealed and its TTL: none while a remembered password needs
   * it, else a day past its token's end. A record of an older version (no `keep` yet) keeps
   * whatever remembered password is there.
   */
  async #write(userId: number, record: StoredAuth, options: { list?: boolean } = {}): Promise<void> {
    const { email, sealedEmail, ...rest } = record;
    const keep = rest.keep ?? (await this.#store.get(passwordKey(userId))) !== undefined;
    const stored: StoredAuth = {
      ...rest,
      // What was read before a rotation (from this process's cache) is written back under the current key.
      sealedToken: rest.sealedToken === "" ? "" : this.#vault.current(rest.sealedToken),
      sealedEmail:
        sealedEmail === undefined ? this.#vault.encrypt(email ?? "") : this.#vault.current(sealedEmail),
      keep,
    };
    const ttlMs = keep ? undefined : rest.expiresAt + ENDED_SESSION_KEPT_MS - this.#clock.now();
    if (ttlMs !== undefined && ttlMs <= 0) {
      await this.#store.delete(authKey(userId));
    } else if (options.list) {
      await this.#store.setIndexed(authKey(userId), stored, ttlMs, [authIndexEntry(userId)]);
    } else {
      await this.#store.set(authKey(userId), stored, ttlMs);
    }
  }

  /** The record's token while it is live and a configured key opens it. */
  #liveToken(record: StoredAuth): string | undefined {
    if (record.expired || record.expiresAt <= this.#clock.now()) return undefined;
    return this.#vault.open(record.sealedToken);
  }

  async #rememberedPassword(userId: number): Promise<string | undefined> {
    const sealed = await this.#store.get<string>(passwordKey(userId));
    return sealed === undefined ? undefined : this.#vault.open(sealed);
  }

  /**
   * User ids listed in the "auth" index: every stored session, and maybe some whose record is gone
   * (expired); `status()` says so, and `unlist()` drops them.
   */
  async userIds(): Promise<number[]> {
    const members = await this.#store.indexMembers(AUTH_INDEX);
    return members.map(Number).filter(Number.isSafeInteger);
  }

  /** Drops the user from the "auth" index unless a login record is there (the sweep met a gone one). */
  async unlist(userId: number): Promise<void> {
    await this.#store.unindex(AUTH_INDEX, String(userId), authKey(userId));
  }

  /**
   * Adds login records written before the "auth" index existed to it (one key listing). Run when an
   * instance becomes the jobs leader; returns how many records it saw.
   */
  indexExisting(): Promise<number> {
    return indexExistingKeys(this.#store, AUTH_PREFIX, (key) => {
      const userId = Number(key.slice(AUTH_PREFIX.length));
      return Number.isSafeInteger(userId) ? [authIndexEntry(userId)] : [];
    });
  }
}

/**
 * For key rotation (store/rotation.ts): a login record of an older version, its e-mail in plain
 * text, in the current form (the e-mail sealed), or undefined when `value` is not one. Its `keep`
 * stays unset: the bot's next write of it decides, from whether a remembered password is there.
 */
export function upgradeAuthRecord(key: string, value: unknown, vault: Vault): unknown {
  if (!key.startsWith(AUTH_PREFIX) || typeof value !== "object" || value === null) return undefined;
  const { email, ...rest } = value as StoredAuth;
  if (typeof email !== "string" || rest.sealedEmail !== undefined) return undefined;
  return { ...rest, sealedEmail: vault.encrypt(email) };
}

/** Activity is recorded at most this often (auto-logout's choices are 15 minutes and more). */
const TOUCH_GRANULARITY_MS = 10_000;

/**
 * How long a login record outlives its token when no remembered password needs it: the next login
 * offers its e-mail, and the auto-logout sweep (at most 60 minutes idle) still finds it.
 */
export const ENDED_SESSION_KEPT_MS = 24 * 60 * 60_000;

/** The login record (sealed e-mail and token, expiry, last activity); with a TTL (see above). */
export const AUTH_PREFIX = "auth:";
const authKey = (userId: number) => `${AUTH_PREFIX}${userId}`;
/** The index of user ids with a login record (store indexes: the tick lists it, never the keyspace). */
const AUTH_INDEX = "auth";
const authIndexEntry = (userId: number) => ({ index: AUTH_INDEX, member: String(userId) });
const passwordKey = (userId: number) => `remembered-password:${userId}`;
/** Not the address: store keys are not the place for personal data (the limit keys it again). */
const emailSubject = (email: string) =>
  createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
