/**
 * Evaluating 100,000 price alerts of 1,000 users against price ticks, through the alert index
 * (src/alerts/alert-index.ts), against a plain loop that checks every alert (exact decimals, as
 * the index decides; and, for reference, with floats).
 *
 * Alerts: 5 currencies, 40 % above, 40 % below, 20 % 24 h-change; price levels spread ±20 %
 * around each price, change levels 1-15 %. Ticks: every price takes a random step of up to
 * ±0.5 % (and the 24 h change up to ±0.5 points), the way a 30 s tick moves a market; the first
 * tick, which fires everything already true at the start, is not counted. A burst tick (+8 % at
 * once) shows the cost growing with the alerts that fire. Figures only.
 *
 * Run alone: `node bench/alerts.ts`.
 */
import Big from "big.js";
import { AlertIndex } from "../src/alerts/alert-index.ts";
import { type Alert, type AlertKind, fires, rearms } from "../src/alerts/rules.ts";

export const ALERTS_PLAN = { alerts: 100_000, users: 1_000, ticks: 300, plainTicks: 10 };

const PRICES: Record<string, number> = { btc: 60_000, eth: 3_000, ltc: 80, xrp: 0.5, usdc: 0.92 };

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function decimals(value: number, places: number): string {
  return value.toFixed(places);
}

interface Tick {
  prices: Array<{ currency: string; price: Big; change: Big; priceNum: number; changeNum: number }>;
}

function makeTicks(count: number, rnd: () => number, burstAt?: number): Tick[] {
  const state = Object.entries(PRICES).map(([currency, price]) => ({ currency, price, change: 0 }));
  const ticks: Tick[] = [];
  for (let i = 0; i < count; i++) {
    for (const s of state) {
      const step = i === burstAt ? 0.08 : (rnd() - 0.5) * 0.01;
      s.price *= 1 + step;
      s.change = Math.max(-30, Math.min(30, s.change + (i === burstAt ? 8 : rnd() - 0.5)));
    }
    ticks.push({
      prices: state.map((s) => {
        const places = s.price < 1 ? 4 : 2;
        const price = new Big(decimals(s.price, places));
        const change = new Big(decimals(s.change, 2));
        return { currency: s.currency, price, change, priceNum: Number(price), changeNum: Number(change) };
      }),
    });
  }
  return ticks;
}

function makeAlerts(plan: typeof ALERTS_PLAN, rnd: () => number): Alert[] {
  const currencies = Object.keys(PRICES);
  return Array.from({ length: plan.alerts }, (_, i) => {
    const currency = currencies[i % currencies.length] as string;
    const r = rnd();
    const kind: AlertKind = r < 0.4 ? "above" : r < 0.8 ? "below" : "change";
    const base = PRICES[currency] as number;
    const level =
      kind === "change"
        ? decimals(1 + rnd() * 14, 2)
        : decimals(base * (0.8 + rnd() * 0.4), base < 1 ? 4 : 2);
    return { id: `a${i}`, userId: i % plan.users, currency, kind, level, createdAt: i };
  });
}

function stats(ms: number[]): { mean: number; p50: number; p99: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { mean: ms.reduce((a, b) => a + b, 0) / ms.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

export async function benchAlerts(plan = ALERTS_PLAN): Promise<string> {
  const rnd = random(42);
  const alerts = makeAlerts(plan, rnd);
  const ticks = makeTicks(plan.ticks + 1, rnd);

  // The index.
  const loadStart = performance.now();
  const index = new AlertIndex();
  index.load(alerts);
  const loadMs = performance.now() - loadStart;
  const indexMs: number[] = [];
  const indexEvents: number[] = [];
  ticks.forEach((tick, i) => {
    const start = performance.now();
    let events = 0;
    for (const p of tick.prices) events += index.evaluate(p.currency, p.price, p.change).length;
    if (i > 0) {
      indexMs.push(performance.now() - start);
      indexEvents.push(events);
    }
  });

  // The plain loop over every alert, exact decimals (what the index decides with).
  const levels = alerts.map((a) => ({ alert: a, armed: true }));
  const plainMs: number[] = [];
  for (let i = 0; i <= plan.plainTicks; i++) {
    const tick = ticks[i] as Tick;
    const byCurrency = new Map(tick.prices.map((p) => [p.currency, p]));
    const start = performance.now();
    for (const entry of levels) {
      const p = byCurrency.get(entry.alert.currency);
      if (!p) continue;
      if (entry.armed ? fires(entry.alert, p.price, p.change) : rearms(entry.alert, p.price, p.change)) {
        entry.armed = !entry.armed;
      }
    }
    if (i > 0) plainMs.push(performance.now() - start);
  }

  // The plain loop with floats: the cheapest possible check of every alert (no exact decimals).
  const floats = alerts.map((a) => ({
    kind: a.kind,
    currency: a.currency,
    level: Number(a.level),
    armed: true,
  }));
  const floatMs: number[] = [];
  for (let i = 0; i <= plan.ticks; i++) {
    const tick = ticks[i] as Tick;
    const byCurrency = new Map(tick.prices.map((p) => [p.currency, p]));
    const start = performance.now();
    for (const f of floats) {
      const p = byCurrency.get(f.currency);
      if (!p) continue;
      const value = f.kind === "change" ? Math.abs(p.changeNum) : p.priceNum;
      if (f.armed) {
        if (f.kind === "below" ? value <= f.level : value >= f.level) f.armed = false;
      } else {
        const back =
          f.kind === "above" ? f.level * 0.99 : f.kind === "below" ? f.level * 1.01 : f.level * 0.8;
        if (f.kind === "below" ? value > back : value < back) f.armed = true;
      }
    }
    if (i > 0) floatMs.push(performance.now() - start);
  }

  // A burst: every price +8 % in one tick.
  const burst = makeTicks(1, rnd, 0)[0] as Tick;
  const burstStart = performance.now();
  let burstEvents = 0;
  for (const p of burst.prices) {
    const last = (ticks.at(-1) as Tick).prices.find((q) => q.currency === p.currency);
    const price = new Big(last?.price ?? p.price).times("1.08").round(4);
    burstEvents += index.evaluate(p.currency, price, p.change).length;
  }
  const burstMs = performance.now() - burstStart;

  const idx = stats(indexMs);
  const plain = stats(plainMs);
  const flt = stats(floatMs);
  const ev = stats(indexEvents);
  const f = (n: number) => n.toFixed(3);
  return [
    `(e) Alerts: ${plan.alerts.toLocaleString("en")} alerts of ${plan.users.toLocaleString("en")} users, 5 currencies, ` +
      `${plan.ticks} ticks of up to ±0.5 % (first tick not counted)`,
    `    index load (sort)             ${loadMs.toFixed(1)} ms`,
    `    index, per tick               mean ${f(idx.mean)} ms, p50 ${f(idx.p50)}, p99 ${f(idx.p99)}, max ${f(idx.max)}; ` +
      `alerts fired or re-armed per tick: mean ${ev.mean.toFixed(1)}, max ${ev.max}`,
    `    plain loop, exact decimals    mean ${f(plain.mean)} ms per tick (${plan.plainTicks} ticks) → index is ${(plain.mean / idx.mean).toFixed(0)}× faster`,
    `    plain loop, floats            mean ${f(flt.mean)} ms per tick → index is ${(flt.mean / idx.mean).toFixed(1)}× faster`,
    `    burst tick (+8 % at once)     ${f(burstMs)} ms for ${burstEvents.toLocaleString("en")} alerts fired or re-armed`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchAlerts());
