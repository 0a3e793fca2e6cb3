/**
 * (a) /help through the whole stack against a bare grammY bot answering the same text through the
 * same Bot API double: one at a time (latency) and 200 in flight (throughput), and the ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { LOCALES_DIR } from "../src/bot/i18n.ts";
import type { FakeUser } from "../src/telegram-double/index.ts";
import { type BotProcess, startBotProcess, startWholeBot } from "./lib/child.ts";
import { summarizeProfile } from "./lib/cpu-profile.ts";
import { drive, type Env, makeUsers, withOwnDouble } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { countedDrive, type PerUpdate, perUpdateTable } from "./lib/per-update.ts";
import { BENCH_ROUNDS, median, mergePerUpdate, roundOrder, roundsLine } from "./lib/rounds.ts";
import { int, type LatencySummary, mib, ms, rate, ratio, summarize, table } from "./lib/stats.ts";
import { BENCH_STORES, type BenchStore, type FreshStore, freshStore, storeLabel } from "./lib/stores.ts";

/** Two loads: the 200 users, and 2,000 (more sessions than updates in flight). */
export const HELP_PLANS = [200, 2_000].map((users) => ({
  users,
  warmup: Math.max(400, users),
  sequential: 500,
  concurrent: Math.max(2_000, 2 * users),
  inFlight: 200,
}));
type HelpPlan = (typeof HELP_PLANS)[number];

interface Figures {
  sequential: LatencySummary & { throughput: number };
  concurrent: LatencySummary & { throughput: number };
  /** CPU time of the bot process per update, during the concurrent run. */
  botCpuMsPerUpdate: number;
  /** CPU use of this process (double + driver) during the concurrent run, in cores. */
  driverCores: number;
  /** CPU use of the bot process during the concurrent run, in cores. */
  botCores: number;
  idleRss: number;
  rss: number;
  perUpdate: PerUpdate;
}

/** The English /help text, rendered as the bot's i18n renders it. */
export function englishHelpText(): string {
  const i18n = new I18n({ defaultLocale: "en", fluentBundleOptions: { useIsolating: false } });
  i18n.loadLocalesDirSync(LOCALES_DIR);
  return i18n.t("en", "help-text");
}

export async function benchHelp(env: Env, options: { profile?: boolean } = {}): Promise<BenchResult> {
  const reports: string[] = [];
  const goals: Goal[] = [];
  let firstUserId = 10_000;
  for (const plan of HELP_PLANS) {
    const result = await helpAt(env, plan, firstUserId, {
      profile: options.profile === true && plan === HELP_PLANS[0],
    });
    firstUserId += 2 * plan.users;
    reports.push(result.report);
    goals.push(...result.goals);
  }
  return { report: reports.join("\n"), goals };
}

/** One bot of (a): its own double and users, kept up for all the rounds. */
interface Contender {
  name: string;
  /** undefined for the bare bot. */
  kind: BenchStore | undefined;
  env: Env;
  bot: BotProcess;
  users: FakeUser[];
  store: FreshStore | undefined;
  idleRss: number;
  sequential?: LatencySummary & { throughput: number };
  runs: ConcurrentRun[];
}

interface ConcurrentRun {
  throughput: number;
  latenciesMs: number[];
  elapsedMs: number;
  botCpuUs: number;
  driverCpuUs: number;
  perUpdate: PerUpdate;
}

async function helpAt(
  env: Env,
  plan: HelpPlan,
  firstUserId: number,
  options: { profile: boolean },
): Promise<BenchResult> {
  const helpText = englishHelpText();
  const expect = (text: string) => text === helpText;
  const text = "/help";
  const folder = mkdtempSync(join(tmpdir(), "bench-help-"));
  const contenders: Contender[] = [];
  const profiles: string[] = [];
  /** Starts one contender on a double of its own (closed again if the bot does not start). */
  const enter = async (name: string, kind: BenchStore | undefined, i: number) => {
    const own = await withOwnDouble(env);
    let store: FreshStore | undefined;
    try {
      store = kind === undefined ? undefined : await freshStore(kind, folder);
      const { telegram } = own;
      const bot =
        store === undefined
          ? await startBotProcess({
              kind: "bare",
              token: telegram.token,
              apiRoot: telegram.apiRoot,
              botInfo: telegram.botInfo,
              helpText,
            })
          : await startWholeBot(own, store.url);
      const users = makeUsers(own, firstUserId + i * plan.users, plan.users);
      contenders.push({
        name,
        kind,
        env: own,
        bot,
        users,
        store,
        idleRss: (await bot.memory()).rss,
        runs: [],
      });
    } catch (error) {
      await store?.stop();
      await own.close();
      throw error;
    }
  };
  try {
    await enter("bare grammY", undefined, 0);
    for (const [i, kind] of BENCH_STORES.entries()) await enter(title(kind), kind, i + 1);

    for (const c of contenders) {
      const load = { users: c.users, text, expect };
      await drive(c.env, { ...load, total: plan.warmup, concurrency: plan.inFlight });
      const seq = await drive(c.env, { ...load, total: plan.sequential, concurrency: 1 });
      c.sequential = { ...summarize(seq.latenciesMs), throughput: seq.throughput };
    }
    for (let round = 0; round < BENCH_ROUNDS; round++) {
      for (const c of roundOrder(contenders, round)) {
        const botBefore = (await c.bot.memory()).cpuUs;
        const driverBefore = process.cpuUsage();
        const { result, perUpdate } = await countedDrive(
          c.env,
          c.bot,
          { users: c.users, text, expect, total: plan.concurrent, concurrency: plan.inFlight },
          c.store,
        );
        const driverCpu = process.cpuUsage(driverBefore);
        c.runs.push({
          throughput: result.throughput,
          latenciesMs: result.latenciesMs,
          elapsedMs: result.elapsedMs,
          botCpuUs: (await c.bot.memory()).cpuUs - botBefore,
          driverCpuUs: driverCpu.user + driverCpu.system,
          perUpdate,
        });
      }
    }
    if (options.profile) {
      for (const c of contenders) {
        // An extra run, profiled, so that the profiler's cost is not in the figures above.
        await c.bot.profileStart();
        await drive(c.env, {
          users: c.users,
          text,
          expect,
          total: plan.concurrent,
          concurrency: plan.inFlight,
        });
        const name = c.kind === undefined ? "bare" : `whole-stack (${storeLabel(c.kind)})`;
        profiles.push(
          summarizeProfile(
            await c.bot.profileStop(),
            `CPU profile of the ${name} bot process (${int(plan.concurrent)} /help, ${plan.inFlight} in flight)`,
          ),
        );
      }
    }
    const figures = await Promise.all(contenders.map((c) => figuresOf(c, plan)));
    return report(plan, contenders, figures, profiles);
  } finally {
    for (const c of contenders) {
      await c.bot.stop();
      await c.store?.stop();
      await c.env.close();
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

const title = (kind: BenchStore) => `whole stack, ${storeLabel(kind)}`;

async function figuresOf(c: Contender, plan: HelpPlan): Promise<Figures> {
  const sum = (pick: (run: ConcurrentRun) => number) => c.runs.reduce((total, run) => total + pick(run), 0);
  const elapsedMs = sum((run) => run.elapsedMs);
  const botCpuUs = sum((run) => run.botCpuUs);
  if (c.sequential === undefined) throw new Error(`${c.name}: no sequential run`);
  return {
    sequential: c.sequential,
    concurrent: {
      ...summarize(c.runs.flatMap((run) => run.latenciesMs)),
      throughput: median(c.runs.map((run) => run.throughput)),
    },
    botCpuMsPerUpdate: botCpuUs / 1000 / (plan.concurrent * c.runs.length),
    botCores: botCpuUs / 1000 / elapsedMs,
    driverCores: sum((run) => run.driverCpuUs) / 1000 / elapsedMs,
    idleRss: c.idleRss,
    rss: (await c.bot.memory()).rss,
    perUpdate: mergePerUpdate(c.runs.map((run) => run.perUpdate)),
  };
}

function report(
  plan: HelpPlan,
  contenders: Contender[],
  figures: Figures[],
  profiles: string[],
): BenchResult {
  const [bare, ...wholeFigures] = figures as [Figures, ...Figures[]];
  const [bareContender, ...wholeContenders] = contenders as [Contender, ...Contender[]];
  const wholes = wholeContenders.map((c, i) => [c, wholeFigures[i] as Figures] as const);
  /** Round by round: the whole stack's throughput as a share of the bare bot's in the same round. */
  const shares = (c: Contender) =>
    c.runs.map((run, r) => run.throughput / (bareContender.runs[r]?.throughput ?? Number.NaN));

  const row = (name: string, f: Figures) => [
    name,
    ms(f.sequential.p50),
    ms(f.sequential.p99),
    rate(f.sequential.throughput),
    rate(f.concurrent.throughput),
    ms(f.concurrent.p50),
    ms(f.concurrent.p99),
    ms(f.botCpuMsPerUpdate),
    `${f.botCores.toFixed(2)} / ${f.driverCores.toFixed(2)}`,
    `${mib(f.idleRss)} → ${mib(f.rss)}`,
  ];
  const r = (a: number, b: number) => ratio(a / b);
  const ratioRow = (c: Contender, whole: Figures) => [
    `${storeLabel(c.kind as BenchStore)} / bare`,
    r(whole.sequential.p50, bare.sequential.p50),
    r(whole.sequential.p99, bare.sequential.p99),
    r(bare.sequential.throughput, whole.sequential.throughput),
    ratio(1 / median(shares(c))),
    r(whole.concurrent.p50, bare.concurrent.p50),
    r(whole.concurrent.p99, bare.concurrent.p99),
    r(whole.botCpuMsPerUpdate, bare.botCpuMsPerUpdate),
    "",
    r(whole.rss, bare.rss),
  ];
  const out = [
    table(
      `(a) /help: whole stack vs bare grammY bot — ${int(plan.users)} users, warm-up ${int(plan.warmup)}, ` +
        `${plan.sequential} one at a time, then ${BENCH_ROUNDS} rounds of ${int(plan.concurrent)} with ${plan.inFlight} in flight`,
      [
        "bot",
        "seq p50",
        "seq p99",
        "seq upd/s",
        "conc upd/s",
        "conc p50",
        "conc p99",
        "bot CPU/upd",
        "cores bot/double",
        "bot RSS start → end",
      ],
      [
        row(bareContender.name, bare),
        ...wholes.map(([c, whole]) => row(c.name, whole)),
        ...wholes.map(([c, whole]) => ratioRow(c, whole)),
      ],
    ),
    "  Ratios are cost ratios: time whole/bare, and for upd/s bare/whole (above 1 = the whole stack is slower).",
    "  conc upd/s: the median of the rounds; its ratio, 1 / the median of the rounds' shares below. bot CPU/upd:",
    "  the bot process's CPU time per update over all concurrent runs. cores bot/double: CPU use during those",
    "  runs of the bot process and of this one (double + driver); 1.00 = one core saturated.",
    ...wholes.map(
      ([c]) =>
        `  ${storeLabel(c.kind as BenchStore)}: throughput as a share of the bare bot's, round by round: ${roundsLine(shares(c))}`,
    ),
    perUpdateTable(`(a) /help, ${int(plan.users)} users, the concurrent runs`, [
      [bareContender.name, bare.perUpdate],
      ...wholes.map(([c, whole]): [string, PerUpdate] => [c.name, whole.perUpdate]),
    ]),
  ];
  const goals: Goal[] = wholes.flatMap(([c, whole]) => {
    const kind = c.kind as BenchStore;
    const throughputShare = median(shares(c));
    const cpuCost = whole.botCpuMsPerUpdate / bare.botCpuMsPerUpdate;
    // Both stores alike: the scale promise's 0.9× on Redis is retired, (u) judges against the peer.
    const wanted = 0.5;
    return [
      {
        goal: `/help, ${int(plan.users)} users, ${storeLabel(kind)}: throughput ≥ ${wanted}× bare`,
        figure: `${throughputShare.toFixed(2)}× (median of ${BENCH_ROUNDS}; ${rate(whole.concurrent.throughput)} vs ${rate(bare.concurrent.throughput)})`,
        met: throughputShare >= wanted,
      },
      {
        goal: `/help, ${int(plan.users)} users, ${storeLabel(kind)}: CPU per update ≤ 2× bare`,
        figure: `${cpuCost.toFixed(2)}× (${ms(whole.botCpuMsPerUpdate)} vs ${ms(bare.botCpuMsPerUpdate)})`,
        met: cpuCost <= 2,
      },
    ];
  });
  return { report: [...out, ...profiles].join("\n"), goals };
}
