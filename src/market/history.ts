/**
 * The market's past, for charts: the prices the feed fetched, kept in the store as a time series
 * in three tiers, each a sample per slot of its step — every 5 minutes for two days, every hour for
 * ten days, every four hours for a hundred days. A 24 h chart reads 288 points, a week 168, a
 * month 180, whatever the age of the install; the store holds at most 576 + 240 + 600 points,
 * each one snapshot of every currency (a key per slot: `price-history:<tier>:<slot>`).
 *
 * Written by the jobs' tick (only the instance holding the jobs lease ticks), and each slot with
 * `setIfAbsent`: two instances that both believed they led, or a tick repeated, write a slot once.
 * A slot's value is the first price of its period, not an average: a sample is enough for a
 * picture and costs one write per slot. The slot that falls out of a tier's window is deleted as
 * the next one is written, so the size stays bounded on the clock the bot runs on; the keys' TTL
 * (the window and a step) removes what a stopped bot left behind.
 *
 * Knows nothing of Telegram or drawing: points in, points out.
 *
 * @example
 * await history.record(snapshot.prices, snapshot.fetchedAt); // once per tick, by the jobs leader
 * const { points, since } = await history.series("btc", "24h", clock.now());
 */
import type { Store } from "../store/store.ts";
import type { MarketPrice } from "./types.ts";

export const HISTORY_PREFIX = "price-history:";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface HistoryTier {
  readonly name: string;
  /** One sample per this many milliseconds (slots are whole multiples since the epoch). */
  readonly stepMs: number;
  /** How far back the tier keeps samples. */
  readonly keepMs: number;
}

export const TIERS = {
  fine: { name: "5m", stepMs: 5 * MINUTE, keepMs: 2 * DAY },
  hourly: { name: "1h", stepMs: HOUR, keepMs: 10 * DAY },
  coarse: { name: "4h", stepMs: 4 * HOUR, keepMs: 100 * DAY },
} as const satisfies Record<string, HistoryTier>;

/** The spans a chart shows, and the tier each one reads. */
export const CHART_RANGES = {
  "24h": { spanMs: DAY, tier: TIERS.fine },
  "7d": { spanMs: 7 * DAY, tier: TIERS.hourly },
  "30d": { spanMs: 30 * DAY, tier: TIERS.coarse },
} as const satisfies Record<string, { spanMs: number; tier: HistoryTier }>;

export type ChartRange = keyof typeof CHART_RANGES;
export const CHART_RANGE_NAMES = Object.keys(CHART_RANGES) as ChartRange[];

export function isChartRange(text: string): text is ChartRange {
  return Object.hasOwn(CHART_RANGES, text);
}

/** More currencies than an exchange lists: a bound on one sample's size, whatever the feed says. */
const MAX_CURRENCIES = 300;

/** One sample as stored: when the exchange gave the prices, and each currency's EUR price. */
interface Sample {
  at: number;
  p: Record<string, number>;
}

/** One point of a chart: milliseconds since the epoch, EUR price. */
export type HistoryPoint = readonly [at: number, price: number];

export interface HistorySeries {
  /** Oldest first; empty when the store has nothing of this currency in the span. */
  points: HistoryPoint[];
  /**
   * When the span reaches further back than the data (a new install, a currency listed lately):
   * the time of the oldest point, so the chart can say since when it has data.
   */
  since: number | undefined;
}

export class PriceHistory {
  readonly #store: Store;
  /** The last slot this process wrote (or found written) per tier: no store call within a slot. */
  readonly #written = new Map<string, number>();

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * Keeps one snapshot: each tier whose current slot has no sample yet gets this one. Prices that
   * are not positive numbers are left out.
   */
  async record(prices: readonly Pick<MarketPrice, "currency" | "price">[], at: number): Promise<void> {
    const p: Record<string, number> = {};
    let count = 0;
    for (const { currency, price } of prices) {
      const value = Number(price);
      if (!Number.isFinite(value) || value <= 0 || count >= MAX_CURRENCIES) continue;
      p[currency] = value;
      count++;
    }
    if (count === 0) return;
    const sample: Sample = { at, p };
    for (const tier of Object.values(TIERS)) {
      const slot = Math.floor(at / tier.stepMs);
      const last = this.#written.get(tier.name);
      if (last !== undefined && slot <= last) continue;
      const wrote = await this.#store.setIfAbsent(keyOf(tier, slot), sample, tier.keepMs + tier.stepMs);
      this.#written.set(tier.name, slot);
      if (wrote) await this.#dropExpired(tier, slot, last);
    }
  }

  /** The slots that fell out of the window since the last one written (only that one, mostly). */
  async #dropExpired(tier: HistoryTier, slot: number, last: number | undefined): Promise<void> {
    const window = tier.keepMs / tier.stepMs;
    const newest = slot - window;
    // After a gap (a restart, a stop) the slots it skipped expire by their TTL; at most a window.
    const oldest = last === undefined ? newest : Math.max(last - window + 1, newest - window + 1);
    const drops: Promise<boolean>[] = [];
    for (let s = oldest; s <= newest; s++) drops.push(this.#store.delete(keyOf(tier, s)));
    await Promise.all(drops);
  }

  /**
   * Whether the finest tier has a sample from its current or previous slot: a cheap "is there
   * anything to draw" (two keys read) before a chart is offered.
   */
  async hasRecent(now: number): Promise<boolean> {
    const slot = Math.floor(now / TIERS.fine.stepMs);
    const found = await this.#store.getMany([keyOf(TIERS.fine, slot), keyOf(TIERS.fine, slot - 1)]);
    return found.some((sample) => sample !== undefined);
  }

  /** One currency's points over `range` up to `now`, from the range's tier (one read). */
  async series(currency: string, range: ChartRange, now: number): Promise<HistorySeries> {
    const [series] = await this.seriesOf([currency], range, now);
    return series ?? { points: [], since: undefined };
  }

  /** Several currencies' points from the same samples (the /prices chart). */
  async seriesOf(currencies: readonly string[], range: ChartRange, now: number): Promise<HistorySeries[]> {
    const { spanMs, tier } = CHART_RANGES[range];
    const from = now - spanMs;
    const first = Math.floor(from / tier.stepMs) + 1;
    const last = Math.floor(now / tier.stepMs);
    const keys: string[] = [];
    for (let slot = first; slot <= last; slot++) keys.push(keyOf(tier, slot));
    const samples = (await this.#store.getMany<Sample>(keys)).filter(
      (sample): sample is Sample => sample !== undefined && sample.at > from && sample.at <= now,
    );
    return currencies.map((currency) => {
      const points: HistoryPoint[] = [];
      for (const sample of samples) {
        const price = sample.p[currency];
        if (typeof price === "number") points.push([sample.at, price]);
      }
      const oldest = points[0]?.[0];
      // Data from within one step of the span's start covers the span.
      const since = oldest !== undefined && oldest - from > tier.stepMs ? oldest : undefined;
      return { points, since };
    });
  }
}

function keyOf(tier: HistoryTier, slot: number): string {
  return `${HISTORY_PREFIX}${tier.name}:${slot}`;
}
