/**
 * The price history on a real SQLite file and a real redis-server, time moved on the injected
 * clock: one sample per slot and tier (downsampled), bounded by each tier's window as time goes
 * on, written once when two instances record the same tick, and "since when" for short history.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_RANGES, HISTORY_PREFIX, PriceHistory, TIERS } from "../../src/market/history.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The jobs' tick (ALERT_INTERVAL_SECONDS' default). */
const TICK = 30_000;
const START = Date.parse("2026-11-01T00:00:00.000Z");

/** A price that moves with time, so each sample says when it was taken. */
const priceAt = (at: number) => String(50_000 + (at - START) / MINUTE);

async function tickFor(history: PriceHistory, clock: ManualClock, ms: number, tick = TICK): Promise<void> {
  for (const end = clock.now() + ms; clock.now() < end; clock.advance(tick)) {
    await history.record(
      [
        { currency: "btc", price: priceAt(clock.now()) },
        { currency: "eth", price: "2000" },
      ],
      clock.now(),
    );
  }
}

/** What the store holds of a tier: its keys (blocks) and the times of their samples, oldest first. */
async function heldOf(store: Store, tier: { name: string }): Promise<{ blocks: number; samples: number[] }> {
  const keys = await store.keys(`${HISTORY_PREFIX}${tier.name}:`);
  const blocks = await store.getMany<{ samples: Array<{ at: number }> }>(keys);
  const samples = blocks.flatMap((block) => block?.samples.map((sample) => sample.at) ?? []);
  return { blocks: keys.length, samples: samples.sort((a, b) => a - b) };
}

const backends: Array<{ name: string; open: () => Promise<{ store: Store; close: () => Promise<void> }> }> = [
  {
    name: "SQLite",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "history-"));
      const store = await openStore(`sqlite://${join(dir, "bot.sqlite")}`);
      return {
        store,
        close: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
let redis: RedisServer | undefined;
if (redisAvailable()) {
  backends.push({
    name: "Redis",
    open: async () => {
      redis ??= await startRedis();
      const store = await openStore(redis.url, {
        namespace: `history${Math.random().toString(36).slice(2)}`,
      });
      return { store, close: () => store.close() };
    },
  });
}
afterAll(async () => {
  await redis?.stop();
});

describe.each(backends)("price history on $name", ({ open }) => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(async () => {
    await close();
  });

  it("keeps one sample per slot and tier, bounded by each window as days pass, and draws from them", async () => {
    const clock = new ManualClock(START);
    const history = new PriceHistory(store);
    // Three days of ticks and the one at the three days' mark (its slot is the current one).
    await tickFor(history, clock, 3 * DAY + TICK);

    // Fine: a sample every 5 minutes, in day blocks; the day that left the two days' window is gone.
    const fine = await heldOf(store, TIERS.fine);
    expect(fine.blocks).toBe(3);
    expect(fine.samples.length).toBe(2 * 288 + 1);
    expect(fine.samples[0]).toBe(START + DAY);
    expect(fine.samples.at(-1)).toBe(START + 3 * DAY);
    expect(new Set(fine.samples.map((at) => Math.floor(at / TIERS.fine.stepMs))).size).toBe(
      fine.samples.length,
    );
    // Hourly: 72 hours and the current one, all within its ten days; four-hourly likewise.
    expect((await heldOf(store, TIERS.hourly)).samples.length).toBe(73);
    expect((await heldOf(store, TIERS.coarse)).samples.length).toBe(19);

    // The 24 h chart: 288 samples, each the first price of its 5 minutes.
    const day = await history.series("btc", "24h", clock.now());
    expect(day.points.length).toBe(288);
    expect(day.since).toBeUndefined();
    for (const [at, price] of day.points) {
      expect(at % TIERS.fine.stepMs).toBe(0);
      expect(price).toBe(Number(priceAt(at)));
    }
    expect(day.points[0]?.[0]).toBeGreaterThan(clock.now() - DAY);
    // A week from the hourly tier: the three days there are, one point an hour, and since when.
    const week = await history.series("btc", "7d", clock.now());
    expect(week.points.length).toBe(73);
    expect(week.points.every(([at]) => at % HOUR === 0)).toBe(true);
    expect(week.since).toBe(START);
    // Several currencies read from the same samples.
    const [btc, eth, none] = await history.seriesOf(["btc", "eth", "doge"], "24h", clock.now());
    expect(btc?.points.length).toBe(288);
    expect(eth?.points.every(([, price]) => price === 2000)).toBe(true);
    expect(none).toEqual({ points: [], since: undefined });

    // Forty more days, ticking once an hour (the 5-minute slots in between stay empty): every tier
    // stays within its window and a block, gaps included; the coarse one holds all 43 days so far.
    await tickFor(history, clock, 40 * DAY, HOUR);
    const last = clock.now() - HOUR;
    for (const tier of [TIERS.fine, TIERS.hourly]) {
      const held = await heldOf(store, tier);
      expect(held.blocks).toBe(tier.keepMs / tier.blockMs + 1);
      expect(held.samples[0]).toBeGreaterThanOrEqual(last - tier.keepMs - tier.blockMs);
    }
    expect((await heldOf(store, TIERS.fine)).samples.length).toBe(3 * 24);
    expect((await heldOf(store, TIERS.hourly)).samples.length).toBe(11 * 24);
    expect((await heldOf(store, TIERS.coarse)).samples.length).toBe((43 * DAY) / (4 * HOUR));
    const month = await history.series("btc", "30d", clock.now());
    // 180 slots, the current one not sampled yet (its first tick is due; /price adds the caption's
    // price as the last point).
    expect(month.points.length).toBe(CHART_RANGES["30d"].spanMs / TIERS.coarse.stepMs - 1);
    expect(month.since).toBeUndefined();
  }, 60_000);

  it("a new install's chart says since when; a tick recorded by two instances is written once", async () => {
    const clock = new ManualClock(START + 100 * DAY);
    const leader = new PriceHistory(store);
    const other = new PriceHistory(store);
    expect(await leader.hasRecent(clock.now())).toBe(false);
    expect((await leader.series("btc", "24h", clock.now())).points).toEqual([]);

    expect(leader.due(clock.now())).toBe(true);
    // Both believe they lead for a moment and record the same slot with different prices.
    await leader.record([{ currency: "btc", price: "61000" }], clock.now());
    await other.record([{ currency: "btc", price: "99999" }], clock.now() + 1_000);
    clock.advance(3 * HOUR);
    await tickFor(leader, clock, HOUR);
    // Within the slot just written, nothing is due; the next 5 minutes are.
    expect(leader.due(clock.now() - 30_000)).toBe(false);
    expect(leader.due(clock.now() + 5 * MINUTE)).toBe(true);
    const series = await leader.series("btc", "24h", clock.now());
    expect(series.points[0]).toEqual([START + 100 * DAY, 61000]);
    expect(series.since).toBe(START + 100 * DAY);
    expect(await leader.hasRecent(clock.now())).toBe(true);
    // Nothing written for a while (the bot was stopped): nothing recent to offer.
    expect(await leader.hasRecent(clock.now() + HOUR)).toBe(false);
  });
});
