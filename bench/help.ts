/**
 * (a) /help through the whole stack against a bare grammY bot answering the same text through the
 * same Bot API double: one at a time (latency) and 200 in flight (throughput), and the ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { LOCALES_DIR } from "../src/bot/i18n.ts";
import { type BotProcess, startBotProcess, startWholeBot } from "./lib/child.ts";
import { summarizeProfile } from "./lib/cpu-profile.ts";
import { drive, type Env, makeUsers } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { countedDrive, type PerUpdate, perUpdateTable } from "./lib/per-update.ts";
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

async function helpAt(
  env: Env,
  plan: HelpPlan,
  firstUserId: number,
  options: { profile: boolean },
): Promise<BenchResult> {
  const helpText = englishHelpText();
  const expect = (text: string) => text === helpText;
  const folder = mkdtempSync(join(tmpdir(), "bench-help-"));
  const { telegram } = env;
  const common = { token: telegram.token, apiRoot: telegram.apiRoot, botInfo: telegram.botInfo };

  const profiles: string[] = [];
  const measure = async (
    bot: BotProcess,
    firstUserId: number,
    name: string,
    store?: FreshStore,
  ): Promise<Figures> => {
    const idle = await bot.memory();
    const users = makeUsers(env, firstUserId, plan.users);
    const text = "/help";
    await drive(env, { users, total: plan.warmup, concurrency: plan.inFlight, text, expect });
    const seq = await drive(env, { users, total: plan.sequential, concurrency: 1, text, expect });
    const botBefore = await bot.memory();
    const driverBefore = process.cpuUsage();
    const { result: conc, perUpdate } = await countedDrive(
      env,
      bot,
      { users, total: plan.concurrent, concurrency: plan.inFlight, text, expect },
      store,
    );
    const driverCpu = process.cpuUsage(driverBefore);
    const after = await bot.memory();
    const botCpuUs = after.cpuUs - botBefore.cpuUs;
    if (options.profile) {
      // An extra run, profiled, so that the profiler's cost is not in the figures above.
      await bot.profileStart();
      await drive(env, { users, total: plan.concurrent, concurrency: plan.inFlight, text, expect });
      profiles.push(
        summarizeProfile(
          await bot.profileStop(),
          `CPU profile of the ${name} bot process (${int(plan.concurrent)} /help, ${plan.inFlight} in flight)`,
        ),
      );
    }
    return {
      sequential: { ...summarize(seq.latenciesMs), throughput: seq.throughput },
      concurrent: { ...summarize(conc.latenciesMs), throughput: conc.throughput },
      botCpuMsPerUpdate: botCpuUs / 1000 / plan.concurrent,
      botCores: botCpuUs / 1000 / conc.elapsedMs,
      driverCores: (driverCpu.user + driverCpu.system) / 1000 / conc.elapsedMs,
      idleRss: idle.rss,
      rss: after.rss,
      perUpdate,
    };
  };

  let bare: Figures;
  // The whole stack on each store, after the bare bot, with users of its own.
  const wholes: Array<[BenchStore, Figures]> = [];
  try {
    const bareBot = await startBotProcess({ kind: "bare", ...common, helpText });
    bare = await measure(bareBot, firstUserId, "bare");
    await bareBot.stop();

    for (const [i, kind] of BENCH_STORES.entries()) {
      const store = await freshStore(kind, folder);
      try {
        const wholeBot = await startWholeBot(env, store.url);
        const users = firstUserId + (i + 1) * plan.users;
        wholes.push([kind, await measure(wholeBot, users, `whole-stack (${storeLabel(kind)})`, store)]);
        await wholeBot.stop();
      } finally {
        await store.stop();
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const title = (kind: BenchStore) => `whole stack, ${storeLabel(kind)}`;

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
  const ratioRow = (kind: BenchStore, whole: Figures) => [
    `${storeLabel(kind)} / bare`,
    r(whole.sequential.p50, bare.sequential.p50),
    r(whole.sequential.p99, bare.sequential.p99),
    r(bare.sequential.throughput, whole.sequential.throughput),
    r(bare.concurrent.throughput, whole.concurrent.throughput),
    r(whole.concurrent.p50, bare.concurrent.p50),
    r(whole.concurrent.p99, bare.concurrent.p99),
    r(whole.botCpuMsPerUpdate, bare.botCpuMsPerUpdate),
    "",
    r(whole.rss, bare.rss),
  ];
  const out = [
    table(
      `(a) /help: whole stack vs bare grammY bot — ${int(plan.users)} users, warm-up ${int(plan.warmup)}, ` +
        `${plan.sequential} one at a time, ${int(plan.concurrent)} with ${plan.inFlight} in flight`,
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
        row("bare grammY", bare),
        ...wholes.map(([kind, whole]) => row(title(kind), whole)),
        ...wholes.map(([kind, whole]) => ratioRow(kind, whole)),
      ],
    ),
    "  Ratios are cost ratios: time whole/bare, and for upd/s bare/whole (above 1 = the whole stack is slower).",
    "  bot CPU/upd: the bot process's CPU time per update in the concurrent run. cores bot/double: CPU use",
    "  during that run of the bot process and of this one (double + driver); 1.00 = one core saturated.",
    perUpdateTable(`(a) /help, ${int(plan.users)} users, the concurrent run`, [
      ["bare grammY", bare.perUpdate],
      ...wholes.map(([kind, whole]): [string, PerUpdate] => [title(kind), whole.perUpdate]),
    ]),
  ];
  const goals: Goal[] = wholes.flatMap(([kind, whole]) => {
    const throughputShare = whole.concurrent.throughput / bare.concurrent.throughput;
    const cpuCost = whole.botCpuMsPerUpdate / bare.botCpuMsPerUpdate;
    // Redis mode's goal is the scale promise's: several instances must not cost the single-file speed.
    const wanted = kind === "redis" ? 0.9 : 0.5;
    return [
      {
        goal: `/help, ${int(plan.users)} users, ${storeLabel(kind)}: throughput ≥ ${wanted}× bare`,
        figure: `${throughputShare.toFixed(2)}× (${rate(whole.concurrent.throughput)} vs ${rate(bare.concurrent.throughput)})`,
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
