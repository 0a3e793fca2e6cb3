/**
 * The market's past, for charts: the prices the feed fetched, kept in the store as a time series
 * in three tiers, each a sample per slot of its step — every 5 minutes for two days, every hour for
 * ten days, every four hours for a hundred days. A 24 h chart draws 288 points, a week 168, a
 * month 180, whatever the age of the install.
 *
 * A tier's samples are kept in blocks, one key each (`price-history:<tier>:<block>`: a day of
 * 5-minute or hourly samples, ten days of 4-hour ones), so a chart reads 2 to 8 keys, not a key
 * per point. A block past its tier's window is deleted when a new block starts, so the store holds
 * at most 3 + 11 + 11 blocks on the clock the bot runs on (1,920 samples, each one snapshot of
 * every currency); the keys' TTL (the window and a block) removes what a stopped bot left behind.
 *
 * Written by the jobs' tick (only the instance holding the jobs lease ticks). A sample goes into
 * its block by compare-and-set (`setIfAbsent` for a new block, `replaceIfEquals` after), and a
 * slot that already has a sample is left as it is: two instances that both believed they led, or
 * a tick repeated, write a slot once. A slot's value is the first price of its period, not an
 * average: a sample is enough for a picture and costs one write per slot.
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
  /** How far back the tier keeps samples (a whole number of blocks). */
  readonly keepMs: number;
  /** The samples of this long share one key (a whole number of steps). */
  readonly blockMs: number;
}

export const TIERS = {
  fine: { name: "5m", stepMs: 5 * MINUTE, keepMs: 2 * DAY, blockMs: DAY },
  hourly: { name: "1h", stepMs: HOUR, keepMs: 10 * DAY, blockMs: DAY },
  coarse: { name: "4h", stepMs: 4 * HOUR, keepMs: 100 * DAY, blockMs: 10 * DAY },
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

/** One key's worth of a tier: its samples, oldest first. */
interface Block {
  samples: Sample[];
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
   * Whether a snapshot taken at `at` would be kept: false while every tier's slot of `at` was
   * written by this process (the partner API is then not asked for rates only to be dropped).
   */
  due(at: number): boolean {
    return Object.values(TIERS).some((tier) => {
      const last = this.#written.get(tier.name);
      return last === undefined || Math.floor(at / tier.stepMs) > last;
    });
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
    for (const tier of Object.values(TIERS)) {
      const slot = Math.floor(at / tier.stepMs);
      const last = this.#written.get(tier.name);
      if (last !== undefined && slot <= last) continue;
      if (await this.#add(tier, { at, p }, last)) this.#written.set(tier.name, slot);
    }
  }

  /** Adds the sample to its block unless its slot has one; false when another writer came between. */
  async #add(tier: HistoryTier, sample: Sample, last: number | undefined): Promise<boolean> {
    const block = Math.floor(sample.at / tier.blockMs);
    const key = keyOf(tier, block);
    const slot = Math.floor(sample.at / tier.stepMs);
    const old = await this.#store.get<Block>(key);
    if (old === undefined) {
      const wrote = await this.#store.setIfAbsent(key, { samples: [sample] }, tier.keepMs + 2 * tier.blockMs);
      if (wrote) await this.#dropExpired(tier, block, last);
      return wrote;
    }
    if (old.samples.some((s) => Math.floor(s.at / tier.stepMs) === slot)) return true;
    const samples = [...old.samples, sample].sort((a, b) => a.at - b.at);
    return this.#store.replaceIfEquals(key, old, { samples });
  }

  /**
   * A new block started: the block that fell out of the window goes, and after a gap (a restart,
   * a stop) the ones it skipped, at most a window's worth.
   */
  async #dropExpired(tier: HistoryTier, block: number, lastSlot: number | undefined): Promise<void> {
    const kept = tier.keepMs / tier.blockMs;
    const newest = block - kept - 1;
    const lastBlock =
      lastSlot === undefined ? block - 1 : Math.floor((lastSlot * tier.stepMs) / tier.blockMs);
    const oldest = Math.max(newest - (block - lastBlock - 1), newest - kept);
    const drops: Promise<boolean>[] = [];
    for (let b = oldest; b <= newest; b++) drops.push(this.#store.delete(keyOf(tier, b)));
    await Promise.all(drops);
  }

  /**
   * Whether the finest tier has a sample from its current or previous slot: a cheap "is there
   * anything to draw" (one or two keys read) before a chart is offered or drawn.
   */
  async hasRecent(now: number): Promise<boolean> {
    const tier = TIERS.fine;
    const from = (Math.floor(now / tier.stepMs) - 1) * tier.stepMs;
    const samples = await this.#samples(tier, from, now);
    return samples.some((sample) => sample.at >= from);
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
    const samples = (await this.#samples(tier, from, now)).filter((s) => s.at > from && s.at <= now);
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

  /** The samples of the blocks that cover `from`…`now`, oldest first (one read). */
  async #samples(tier: HistoryTier, from: number, now: number): Promise<Sample[]> {
    const keys: string[] = [];
    for (let block = Math.floor(from / tier.blockMs); block <= Math.floor(now / tier.blockMs); block++) {
      keys.push(keyOf(tier, block));
    }
    const blocks = await this.#store.getMany<Block>(keys);
    return blocks.flatMap((block) => block?.samples ?? []);
  }
}

function keyOf(tier: HistoryTier, block: number): string {
  return `${HISTORY_PREFIX}${tier.name}:${block}`;
}
