/**
 * (h) Price charts: what drawing one costs the bot process, and its memory after drawing. The
 * whole stack on a SQLite file with the market-data account; first /price btc with no history
 * (the text card, as before charts), then 30 days of price history written into the store the
 * way the jobs' tick writes it, then /price for each currency (each a 24 h chart drawn and sent as
 * a photo), one at a time and then 10 in flight. CPU per chart = the bot's CPU per /price with a
 * chart minus its CPU per /price answered with text; the first chart (loading d3, resvg's
 * WebAssembly and the font) is timed on its own. RSS before, after the text answers, after the
 * charts, and the peak. Also alone: `node bench/charts.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PriceHistory } from "../src/market/history.ts";
import { openStore } from "../src/store/open-store.ts";
import { type BotProcess, startWholeBot } from "./lib/child.ts";
import { drive, type Env, makeUsers, startEnv } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { counted, type PerUpdate, perUpdateTable } from "./lib/per-update.ts";
import { mib, ms, summarize, table } from "./lib/stats.ts";

export const CHART_PLAN = { text: 100, charts: 60, inFlight: 10 };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export async function benchCharts(env: Env): Promise<BenchResult> {
  const folder = mkdtempSync(join(tmpdir(), "bench-charts-"));
  const storeUrl = `sqlite://${join(folder, "bot.sqlite")}`;
  try {
    const bot = await startWholeBot(env, storeUrl, { marketData: true });
    try {
      return await measure(env, bot, storeUrl);
    } finally {
      await bot.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function measure(env: Env, bot: BotProcess, storeUrl: string): Promise<BenchResult> {
  const idle = await bot.memory({ gc: true });
  const users = makeUsers(env, 500_000, 20);
  const codes = env.sandbox.market.currencies().map((c) => c.code);

  // Without history: the text card, as before charts (the baseline of a /price).
  const text = await counted(env, bot, CHART_PLAN.text, () =>
    drive(env, {
      users,
      total: CHART_PLAN.text,
      concurrency: 1,
      text: "/price btc",
      expect: (reply) => reply.startsWith("<b>Bitcoin (BTC): "),
    }),
  );
  const afterText = await bot.memory({ gc: true });

  // 30 days of history, written as the jobs' tick writes it (beside the running bot, WAL mode).
  const seeded = await seedHistory(env, storeUrl, codes);

  // The first chart loads the engine.
  const first = await counted(env, bot, 1, () =>
    drive(env, { users, total: 1, concurrency: 1, text: "/price btc", expect: isChart }),
  );
  const afterFirst = await bot.memory({ gc: true });
  const oneByOne = await counted(env, bot, CHART_PLAN.charts, () =>
    drive(env, {
      users,
      total: CHART_PLAN.charts,
      concurrency: 1,
      text: "/price btc",
      expect: isChart,
    }),
  );
  const inFlight = await counted(env, bot, CHART_PLAN.charts, () =>
    drive(env, {
      users,
      total: CHART_PLAN.charts,
      concurrency: CHART_PLAN.inFlight,
      text: "/price eth",
      expect: isChart,
    }),
  );
  const loaded = await bot.memory();
  const afterGc = await bot.memory({ gc: true });
  for (const run of [first, oneByOne, inFlight]) allPhotos(run);

  const cpuMs = (run: typeof text) => run.perUpdate.counters.cpuUs / 1000 / run.perUpdate.updates;
  const textCpu = cpuMs(text);
  const chartCpu = cpuMs(oneByOne) - textCpu;
  const burstCpu = cpuMs(inFlight) - textCpu;
  const lat = (run: typeof oneByOne) => summarize(run.result.latenciesMs);
  const report = [
    table(
      `(h) Price charts: /price answered with its 24 h chart (960 × 540 PNG; history seeded in ${ms(seeded.ms)}: ${seeded.samples} samples of ${codes.length} currencies)`,
      ["run", "bot CPU per /price", "chart's share", "p50", "p99"],
      [
        [
          `text card, no history (${CHART_PLAN.text}, one at a time)`,
          ms(textCpu),
          "—",
          ms(lat(text).p50),
          ms(lat(text).p99),
        ],
        [
          "first chart (loads d3, resvg, the font)",
          ms(cpuMs(first)),
          ms(cpuMs(first) - textCpu),
          ms(lat(first).p50),
          "—",
        ],
        [
          `chart (${CHART_PLAN.charts}, one at a time)`,
          ms(cpuMs(oneByOne)),
          ms(chartCpu),
          ms(lat(oneByOne).p50),
          ms(lat(oneByOne).p99),
        ],
        [
          `chart (${CHART_PLAN.charts}, ${CHART_PLAN.inFlight} in flight)`,
          ms(cpuMs(inFlight)),
          ms(burstCpu),
          ms(lat(inFlight).p50),
          ms(lat(inFlight).p99),
        ],
      ],
    ),
    table(
      "(h) Memory of the bot process",
      ["when", "RSS", "RSS after a GC", "peak RSS", "V8 heap used after a GC", "external"],
      [
        [
          "before the first update",
          mib(idle.rss),
          mib(idle.rss),
          mib(idle.maxRss),
          mib(idle.heapUsed),
          mib(idle.external),
        ],
        [
          `after ${CHART_PLAN.text} text cards`,
          "—",
          mib(afterText.rss),
          mib(afterText.maxRss),
          mib(afterText.heapUsed),
          mib(afterText.external),
        ],
        [
          "after the first chart",
          "—",
          mib(afterFirst.rss),
          mib(afterFirst.maxRss),
          mib(afterFirst.heapUsed),
          mib(afterFirst.external),
        ],
        [
          `after ${2 * CHART_PLAN.charts + 1} charts`,
          mib(loaded.rss),
          mib(afterGc.rss),
          mib(afterGc.maxRss),
          mib(afterGc.heapUsed),
          mib(afterGc.external),
        ],
      ],
    ),
    perUpdateTable("(h) /price with a chart, one at a time", [
      ["text card", text.perUpdate],
      ["chart", oneByOne.perUpdate],
    ]),
  ].join("\n");
  const goals: Goal[] = [
    { goal: "CPU per chart drawn < 100 ms", figure: ms(chartCpu), met: chartCpu < 100 },
    {
      goal: `peak RSS ≤ 200 MiB after drawing ${2 * CHART_PLAN.charts + 1} charts`,
      figure: mib(afterGc.maxRss),
      met: afterGc.maxRss <= 200 * 2 ** 20,
    },
  ];
  return { report, goals };
}

/** The caption of a chart (whether it came as a photo is counted after each run). */
function isChart(reply: string): boolean {
  return /^<b>(Bitcoin \(BTC\)|Ethereum \(ETH\)): /.test(reply);
}

/** Every /price of a run answered with a photo (with no history it would be text). */
function allPhotos(run: { perUpdate: PerUpdate }): void {
  const photos = run.perUpdate.botApi.get("sendPhoto") ?? 0;
  if (photos !== run.perUpdate.updates) {
    throw new Error(`${run.perUpdate.updates} /price, but ${photos} charts sent as photos`);
  }
}

/**
 * Samples of the sandbox's drifting prices, oldest first: every 4 hours from 30 days ago, every
 * hour for the last ten days, every 5 minutes for the last two, recorded through PriceHistory.
 */
async function seedHistory(env: Env, storeUrl: string, codes: readonly string[]) {
  const started = performance.now();
  const store = await openStore(storeUrl);
  const history = new PriceHistory(store);
  const now = Date.now();
  let samples = 0;
  for (let at = now - 30 * DAY; at <= now; ) {
    const prices = codes.map((code) => ({
      currency: code,
      price: env.sandbox.market.price(code, at).toFixed(),
    }));
    await history.record(prices, at);
    samples++;
    const age = now - at;
    at += age > 10 * DAY ? 4 * HOUR : age > 2 * DAY ? HOUR : 5 * MINUTE;
  }
  await store.close();
  return { ms: performance.now() - started, samples };
}

if (import.meta.main) {
  const { compileBotProcess } = await import("./lib/child.ts");
  compileBotProcess();
  const env = await startEnv();
  try {
    const result = await benchCharts(env);
    console.log(result.report);
    const { goalsTable } = await import("./lib/goals.ts");
    console.log(goalsTable(result.goals));
  } finally {
    await env.close();
  }
}
