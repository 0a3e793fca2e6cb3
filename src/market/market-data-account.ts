/**
 * The operator's own market-data account (MARKET_DATA_EMAIL, _PASSWORD, _TOTP_SECRET): the only
 * account whose TOTP secret the bot holds, and the only one for which it makes a code itself
 * (SECURITY.md, rule 9). Used to read prices when no user is logged in.
 *
 * The token lives in memory only, until a minute before its expiry; a 401 forgets it and logs in
 * again once. Concurrent callers share one login.
 *
 * @example
 * const account = new MarketDataAccount({ account: accountApi, credentials, clock });
 * const items = await account.use((client) => client.prices());
 */

import type { AccountApi, AccountSession } from "../exchange/account.ts";
import { ExchangeError } from "../exchange/errors.ts";
import type { Clock } from "../support/clock.ts";
import { operatorCode } from "../support/totp.ts";

export interface MarketDataCredentials {
  email: string;
  password: string;
  /** Base32 TOTP secret of the market-data account. */
  totpSecret: string;
}

export interface MarketDataAccountOptions {
  account: Pick<AccountApi, "login" | "session">;
  credentials: MarketDataCredentials;
  clock: Clock;
  /** The token is dropped this long before its expiry (default one minute). */
  expiryMarginMs?: number;
}

export class MarketDataAccount {
  readonly #account: Pick<AccountApi, "login" | "session">;
  readonly #credentials: MarketDataCredentials;
  readonly #clock: Clock;
  readonly #marginMs: number;
  #current: { client: AccountSession; expiresAt: number } | undefined;
  #login: Promise<AccountSession> | undefined;

  constructor(options: MarketDataAccountOptions) {
    this.#account = options.account;
    this.#credentials = options.credentials;
    this.#clock = options.clock;
    this.#marginMs = options.expiryMarginMs ?? 60_000;
  }

  /** Runs `task` with a logged-in client; a 401 means one fresh login and one more try. */
  async use<T>(task: (client: AccountSession) => Promise<T>): Promise<T> {
    const client = await this.#client();
    try {
      return await task(client);
    } catch (error) {
      if (!(error instanceof ExchangeError) || error.kind !== "unauthenticated") throw error;
      if (this.#current?.client === client) this.#current = undefined;
      return task(await this.#client());
    }
  }

  #client(): Promise<AccountSession> {
    const current = this.#current;
    if (current !== undefined && current.expiresAt - this.#marginMs > this.#clock.now()) {
      return Promise.resolve(current.client);
    }
    this.#login ??= this.#logIn().finally(() => {
      this.#login = undefined;
    });
    return this.#login;
  }

  async #logIn(): Promise<AccountSession> {
    const { email, password, totpSecret } = this.#credentials;
    const securityCode = operatorCode(totpSecret, this.#clock.now());
    const session = await this.#account.login({ email, password, securityCode });
    const client = this.#account.session(session.access_token);
    this.#current = { client, expiresAt: this.#clock.now() + session.expires_in * 1000 };
    return client;
  }
}
