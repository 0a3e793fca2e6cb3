/**
 * Builds the feed from what createServices has: sessions to borrow a token from, and the optional
 * market-data account of the configuration.
 *
 * @example
 * const market = createMarketFeed({ account, sessions, clock, log, marketData: config.marketData });
 */

import type { AccountApi } from "../exchange/account.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import { CachedMarketFeed, toMarketPrices } from "./feed.ts";
import { MarketDataAccount, type MarketDataCredentials } from "./market-data-account.ts";
import { MarketUpstream } from "./upstream.ts";

export interface MarketFeedDeps {
  account: AccountApi;
  sessions: Pick<Sessions, "useAnyLive">;
  clock: Clock;
  log?: Pick<Logger, "warn">;
  marketData?: MarketDataCredentials | undefined;
  ttlMs?: number | undefined;
}

export function createMarketFeed(deps: MarketFeedDeps): CachedMarketFeed {
  const upstream = new MarketUpstream({
    sessions: deps.sessions,
    ...(deps.marketData
      ? {
          account: new MarketDataAccount({
            account: deps.account,
            credentials: deps.marketData,
            clock: deps.clock,
          }),
        }
      : {}),
  });
  return new CachedMarketFeed({
    fetch: async () => toMarketPrices(await upstream.use((client) => client.prices())),
    clock: deps.clock,
    ...(deps.ttlMs !== undefined ? { ttlMs: deps.ttlMs } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
}
