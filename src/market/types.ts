/**
 * What the market feed hands out: one snapshot of every price, fetched once for everyone
 * (ARCHITECTURE.md, market/). Amounts are decimal strings (JSON-safe, exact); `stale` says the exchange
 * could not be asked and this is the last good answer, `fetchedAt` how old it is.
 */
export interface MarketPrice {
  /** Lower-case currency code, e.g. "btc". */
  currency: string;
  /** Full name as the exchange gives it, e.g. "Bitcoin". */
  name: string;
  /** EUR price, decimal text. */
  price: string;
  /** 24 h change in percent, decimal text (may be negative). */
  change24h: string;
}

export interface MarketSnapshot {
  prices: MarketPrice[];
  /** Milliseconds since the epoch (the feed's clock) when the exchange answered. */
  fetchedAt: number;
  /** True when the exchange could not be reached and this is older data served with its age. */
  stale: boolean;
}

/** The port the bot, inline mode and the alert scheduler use. */
export interface MarketFeed {
  /** The current snapshot; concurrent callers share one upstream request. */
  snapshot(): Promise<MarketSnapshot>;
}
