/**
 * The partner's service account (PARTNER_EMAIL, PARTNER_PASSWORD, PARTNER_TOTP_SECRET): the bot
 * logs in with `POST v1/auth/login` (the operator's client id and secret, a code made from the
 * secret) and uses that token on the partner paths. A session lasts 60 minutes, so the token is
 * renewed before it runs out.
 *
 * One token for all instances: it lives in the store, sealed by the Vault, with its expiry. Whoever
 * finds it missing or near its end takes a short login lease in the store (setIfAbsent) and logs in;
 * the others keep using the old token while it is still valid, or wait for the new one. A process
 * that dies holding the lease lets it run out, and the next caller logs in.
 *
 * @example
 * const tokens = new PartnerServiceAccount({ store, vault, account, clock, credentials });
 * const partner = new PartnerApi(http, tokens); // a 401 makes it log in again, once
 */
import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { AccountApi } from "../exchange/account.ts";
import type { PartnerTokenSource } from "../exchange/partner.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import { operatorCode } from "../support/totp.ts";

export const PARTNER_TOKEN_KEY = "partner-auth:token";
export const PARTNER_LOGIN_LEASE_KEY = "partner-auth:login";

export interface ServiceAccountCredentials {
  email: string;
  password: string;
  /** Base32 TOTP secret of the service account. */
  totpSecret: string;
}

interface StoredToken {
  token: string;
  /** On the injected clock. */
  expiresAt: number;
}

export interface PartnerServiceAccountOptions {
  store: Store;
  vault: Vault;
  account: Pick<AccountApi, "login">;
  clock: Clock;
  credentials: ServiceAccountCredentials;
  /** Renewed this long before its expiry (default 5 minutes: well inside the 60). */
  renewBeforeMs?: number;
  /** How long one login may hold the lease (real time, as store TTLs are). Default 30 s. */
  leaseMs?: number;
  /** Real-time wait between looks at the store while another instance logs in. */
  pollMs?: number;
}

export class PartnerServiceAccount implements PartnerTokenSource {
  readonly #store: Store;
  readonly #vault: Vault;
  readonly #account: Pick<AccountApi, "login">;
  readonly #clock: Clock;
  readonly #credentials: ServiceAccountCredentials;
  readonly #renewBeforeMs: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #holder = randomBytes(8).toString("hex");
  /** Concurrent callers in this process share one look (and one login). */
  #pending: Promise<string> | undefined;

  constructor(options: PartnerServiceAccountOptions) {
    this.#store = options.store;
    this.#vault = options.vault;
    this.#account = options.account;
    this.#clock = options.clock;
    this.#credentials = options.credentials;
    this.#renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 50;
  }

  /** A token valid now; logs in (once, for every instance) when there is none or it nears its end. */
  token(): Promise<string> {
    this.#pending ??= this.#current().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /**
   * The exchange refused `token` (revoked before its hour): it is forgotten, for every instance, so
   * the next `token()` logs in again. A newer token another caller stored meanwhile is kept.
   */
  async refused(token: string): Promise<void> {
    const stored = await this.#read();
    if (stored?.token !== token) return;
    const sealed = await this.#store.get<string>(PARTNER_TOKEN_KEY);
    if (sealed !== undefined) await this.#store.deleteIfEquals(PARTNER_TOKEN_KEY, sealed);
  }

  async #current(): Promise<string> {
    const deadline = Date.now() + this.#leaseMs * 2;
    for (;;) {
      const stored = await this.#read();
      const now = this.#clock.now();
      if (stored !== undefined && stored.expiresAt - this.#renewBeforeMs > now) return stored.token;
      if (await this.#store.setIfAbsent(PARTNER_LOGIN_LEASE_KEY, this.#holder, this.#leaseMs)) {
        try {
          // Another instance may have renewed between our look and our lease.
          const again = await this.#read();
          if (again !== undefined && again.expiresAt - this.#renewBeforeMs > this.#clock.now()) {
            return again.token;
          }
          return await this.#logIn();
        } finally {
          await this.#store.deleteIfEquals(PARTNER_LOGIN_LEASE_KEY, this.#holder).catch(() => false);
        }
      }
      // Someone else is logging in: the old token serves until it really expires.
      if (stored !== undefined && stored.expiresAt > now) return stored.token;
      if (Date.now() > deadline) throw new Error("The partner service account login did not finish in time.");
      await delay(this.#pollMs);
    }
  }

  /** The stored token; one no configured key opens counts as none (the next caller logs in again). */
  async #read(): Promise<StoredToken | undefined> {
    const sealed = await this.#store.get<string>(PARTNER_TOKEN_KEY);
    return sealed === undefined ? undefined : this.#vault.openJson<StoredToken>(sealed);
  }

  async #logIn(): Promise<string> {
    const { email, password, totpSecret } = this.#credentials;
    const now = this.#clock.now();
    const session = await this.#account.login({
      email,
      password,
      securityCode: operatorCode(totpSecret, now),
    });
    const record: StoredToken = { token: session.access_token, expiresAt: now + session.expires_in * 1000 };
    await this.#store.set(PARTNER_TOKEN_KEY, this.#vault.encryptJson(record));
    return record.token;
  }
}
