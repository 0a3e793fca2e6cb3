/**
 * The one price feed for everyone (ARCHITECTURE.md, market/): `snapshot()` answers from a cache younger
 * than the TTL; past it, the first caller starts ONE upstream request and every caller that comes
 * while it runs waits for that same request (a thousand inline queries in one second make one
 * `GET v1/prices`).
 *
 * When the exchange cannot be asked, the last good snapshot is served again with `stale: true` and
 * its original `fetchedAt` (so its age can be shown), never anything invented; with nothing to fall
 * back on, MarketUnavailableError. After a failure the exchange is not asked again for
 * `retryAfterFailureMs`: a dead exchange costs one request per interval, not one per reader.
 *
 * Time comes from the injected clock, so tests move it instead of sleeping.
 *
 * @example
 * const feed = new CachedMarketFeed({ fetch: () => upstream.use((c) => c.prices()).then(toMarketPrices), clock });
 * const { prices, stale, fetchedAt } = await feed.snapshot();
 */

import type { PriceItem } from "../exchange/schemas.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import { MarketUnavailableError } from "./errors.ts";
import type { MarketFeed, MarketPrice, MarketSnapshot } from "./types.ts";

export const DEFAULT_MARKET_TTL_MS = 10_000;
const NO_SOURCE_RETRY_MS = 1_000;

export interface CachedMarketFeedOptions {
  /** One upstream read of every price. */
  fetch: () => Promise<MarketPrice[]>;
  clock: Clock;
  /** How long a snapshot is served without asking again (default 10 s). */
  ttlMs?: number;
  /** After a failed read, how long to serve the old data before asking again (default: the TTL). */
  retryAfterFailureMs?: number;
  log?: Pick<Logger, "warn">;
}

export class CachedMarketFeed implements MarketFeed {
  readonly #fetch: () => Promise<MarketPrice[]>;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #retryAfterFailureMs: number;
  readonly #log: Pick<Logger, "warn"> | undefined;
  #last: MarketSnapshot | undefined;
  /** `#last` marked stale: one object for as long as it is served, so readers can cache by it. */
  #stale: MarketSnapshot | undefined;
  #inFlight: Promise<MarketSnapshot> | undefined;
  #failure: { at: number; error: unknown } | undefined;

  constructor(options: CachedMarketFeedOptions) {
    this.#fetch = options.fetch;
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs ?? DEFAULT_MARKET_TTL_MS;
    this.#retryAfterFailureMs = options.retryAfterFailureMs ?? this.#ttlMs;
    this.#log = options.log;
  }

  /** How long a snapshot is served without asking again. */
  get ttlMs(): number {
    return this.#ttlMs;
  }

  snapshot(): Promise<MarketSnapshot> {
    const now = this.#clock.now();
    const last = this.#last;
    if (last !== undefined && now - last.fetchedAt < this.#ttlMs) return Promise.resolve(last);
    if (this.#inFlight !== undefined) return this.#inFlight;
    const failure = this.#failure;
    if (failure !== undefined && now - failure.at < this.#waitAfter(failure.error)) {
      return Promise.resolve(this.#fallback(failure.error));
    }
    const request = this.#refresh();
    this.#inFlight = request;
    // Cleared once settled, whoever awaits it: the next reader past the TTL starts a new one.
    void request.then(
      () => this.#clear(request),
      () => this.#clear(request),
    );
    return request;
  }

  /** "Nobody to borrow a token from" is cheap to ask again and may change any second (a login). */
  #waitAfter(error: unknown): number {
    const noSource = error instanceof MarketUnavailableError && error.reason === "no-source";
    return noSource ? Math.min(this.#retryAfterFailureMs, NO_SOURCE_RETRY_MS) : this.#retryAfterFailureMs;
  }

  #clear(request: Promise<MarketSnapshot>): void {
    if (this.#inFlight === request) this.#inFlight = undefined;
  }

  async #refresh(): Promise<MarketSnapshot> {
    try {
      const prices = await this.#fetch();
      const snapshot: MarketSnapshot = Object.freeze({
        prices: Object.freeze(prices.map((p) => Object.freeze({ ...p }))) as MarketPrice[],
        fetchedAt: this.#clock.now(),
        stale: false,
      });
      this.#last = snapshot;
      this.#failure = undefined;
      return snapshot;
    } catch (error) {
      this.#failure = { at: this.#clock.now(), error };
      if (!(error instanceof MarketUnavailableError && error.reason === "no-source")) {
        this.#log?.warn(
          { err: describe(error), servedStale: this.#last !== undefined },
          "market feed: the exchange could not be asked for prices",
        );
      }
      return this.#fallback(error);
    }
  }

  /** The last good snapshot marked stale, or the reason there is none. */
  #fallback(error: unknown): MarketSnapshot {
    const last = this.#last;
    if (last !== undefined) {
      if (this.#stale?.fetchedAt !== last.fetchedAt) this.#stale = Object.freeze({ ...last, stale: true });
      return this.#stale;
    }
    if (error instanceof MarketUnavailableError) throw error;
    throw new MarketUnavailableError("exchange", { cause: error });
  }
}

/** The exchange's price items as the feed hands them out: lower-case codes, decimal strings. */
export function toMarketPrices(items: readonly PriceItem[]): MarketPrice[] {
  return items.map((item) => ({
    currency: item.currency_code.toLowerCase(),
    name: item.currency_name,
    price: item.price.toFixed(),
    change24h: item["24hr_change"].toFixed(),
  }));
}

/** Enough to diagnose, nothing secret (ExchangeError holds no token or body secret). */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const details: Record<string, unknown> = { name: error.name, message: error.message };
  for (const field of ["kind", "status", "path", "requestId", "reason"]) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (value !== undefined) details[field] = value;
  }
  return details;
}
