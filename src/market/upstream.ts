/**
 * Where the feed gets a logged-in exchange client: the operator's market-data account when one is
 * configured, else a token borrowed from any user who is logged in (the token never leaves
 * session/), else nothing
 * ("no market data source", which the bot turns into a sentence).
 *
 * @example
 * const upstream = new MarketUpstream({ sessions, account: marketDataAccount });
 * const items = await upstream.use((client) => client.prices());
 */
import type { AccountSession } from "../exchange/account.ts";
import type { Sessions } from "../session/sessions.ts";
import { MarketUnavailableError } from "./errors.ts";
import type { MarketDataAccount } from "./market-data-account.ts";

export interface MarketUpstreamOptions {
  sessions?: Pick<Sessions, "useAnyLive">;
  account?: Pick<MarketDataAccount, "use">;
}

export class MarketUpstream {
  readonly #sessions: Pick<Sessions, "useAnyLive"> | undefined;
  readonly #account: Pick<MarketDataAccount, "use"> | undefined;

  constructor(options: MarketUpstreamOptions) {
    this.#sessions = options.sessions;
    this.#account = options.account;
  }

  /** Throws MarketUnavailableError("no-source") when there is no way to ask the exchange. */
  async use<T>(task: (client: AccountSession) => Promise<T>): Promise<T> {
    // The operator's own account first: borrowing spends a user's rate limit at the exchange.
    if (this.#account !== undefined) return this.#account.use(task);
    const borrowed = await this.#sessions?.useAnyLive(task);
    if (borrowed !== undefined) return borrowed.value;
    throw new MarketUnavailableError("no-source");
  }
}
