/**
 * (b) /balance through the whole stack against the sandbox exchange (no added latency, no rate
 * limit): one at a time and many in flight, and how many exchange calls one /balance makes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { logIn } from "../test/support/harness.ts";
import { englishHelpText } from "./help.ts";
import { startBotProcess, startWholeBot } from "./lib/child.ts";
import { summarizeProfile } from "./lib/cpu-profile.ts";
import { drive, type Env, makeUsers } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { counted, countedDrive, type PerUpdate, perUpdateTable } from "./lib/per-update.ts";
import { int, ms, rate, summarize, table } from "./lib/stats.ts";
import { BENCH_STORES, type BenchStore, type FreshStore, freshStore, storeLabel } from "./lib/stores.ts";

export const BALANCE_PLAN = { users: 50, warmup: 100, sequential: 300, concurrent: 1_000, inFlight: 50 };

export async function benchBalance(env: Env, options: { profile?: boolean } = {}): Promise<BenchResult> {
  const { telegram } = env;
  const folder = mkdtempSync(join(tmpdir(), "bench-balance-"));
  try {
    // The yardstick: the bare bot's /help under the same load (users, in flight, updates).
    const helpText = englishHelpText();
    const bare = await startBotProcess({
      kind: "bare",
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
      helpText,
    });
    const bareUsers = makeUsers(env, 40_000, BALANCE_PLAN.users);
    const help = { users: bareUsers, text: "/help", expect: (reply: string) => reply === helpText };
    await drive(env, { ...help, total: BALANCE_PLAN.warmup, concurrency: BALANCE_PLAN.inFlight });
    const { result: bareRun, perUpdate: barePer } = await counted(env, bare, BALANCE_PLAN.concurrent, () =>
      drive(env, { ...help, total: BALANCE_PLAN.concurrent, concurrency: BALANCE_PLAN.inFlight }),
    );
    await bare.stop();

    const reports: string[] = [];
    const goals: Goal[] = [];
    for (const [i, kind] of BENCH_STORES.entries()) {
      const store = await freshStore(kind, folder);
      try {
        const result = await balanceOn(
          env,
          kind,
          store,
          30_000 + i * 1_000,
          bareRun.throughput,
          barePer,
          options,
        );
        reports.push(result.report);
        goals.push(...result.goals);
      } finally {
        await store.stop();
      }
    }
    return { report: reports.join("\n"), goals };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** /balance through the whole stack on one store: 50 users log in, then the measured runs. */
async function balanceOn(
  env: Env,
  kind: BenchStore,
  store: FreshStore,
  firstUserId: number,
  bareThroughput: number,
  barePer: PerUpdate,
  options: { profile?: boolean },
): Promise<BenchResult> {
  const { sandbox } = env;
  const bot = await startWholeBot(env, store.url);
  const users = makeUsers(env, firstUserId, BALANCE_PLAN.users);
  // Through the login conversation, ten at a time, as people would.
  for (let i = 0; i < users.length; i += 10) {
    await Promise.all(users.slice(i, i + 10).map((user) => logIn(user, sandbox)));
  }
  const text = "/balance";
  const expect = (reply: string) => reply.startsWith("💼") && reply.includes("Euro");
  const plan = BALANCE_PLAN;
  await drive(env, { users, total: plan.warmup, concurrency: plan.inFlight, text, expect });

  const before = sandbox.requests.length;
  const seq = await drive(env, { users, total: plan.sequential, concurrency: 1, text, expect });
  const during = sandbox.requests.slice(before);
  const { result: conc, perUpdate } = await countedDrive(
    env,
    bot,
    { users, total: plan.concurrent, concurrency: plan.inFlight, text, expect },
    store,
  );
  let profile = "";
  if (options.profile) {
    // An extra run, profiled, so that the profiler's cost is not in the figures above.
    await bot.profileStart();
    await drive(env, { users, total: plan.concurrent, concurrency: plan.inFlight, text, expect });
    profile = summarizeProfile(
      await bot.profileStop(),
      `CPU profile of the whole-stack bot process (${int(plan.concurrent)} /balance, ${plan.inFlight} in flight)`,
    );
  }
  await bot.stop();

  const byRoute = new Map<string, number>();
  for (const request of during) {
    const route = `${request.method} ${request.path.replace(/\/\d+(?=\/|$)/g, "/:id")}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  const s = summarize(seq.latenciesMs);
  const c = summarize(conc.latenciesMs);
  const share = conc.throughput / bareThroughput;
  const label = storeLabel(kind);
  // Redis mode's goal is the scale promise's: several instances must not cost the single-file speed.
  const wanted = kind === "redis" ? 0.5 : 0.25;
  const cpuMs = perUpdate.counters.cpuUs / 1000 / plan.concurrent;
  const goals: Goal[] = [
    {
      goal: `/balance, ${label}: throughput ≥ ${wanted}× the bare bot's /help`,
      figure: `${share.toFixed(2)}× (${rate(conc.throughput)} vs ${rate(bareThroughput)})`,
      met: share >= wanted,
    },
    { goal: `/balance, ${label}: bot CPU per update ≤ 1 ms`, figure: ms(cpuMs), met: cpuMs <= 1 },
  ];
  const report = [
    table(
      `(b) /balance: whole stack on ${label} + sandbox exchange — ${plan.users} logged-in users, warm-up ${plan.warmup}, ` +
        `${plan.sequential} one at a time, ${int(plan.concurrent)} with ${plan.inFlight} in flight`,
      ["mode", "upd/s", "p50", "p99", "max"],
      [
        ["one at a time", rate(seq.throughput), ms(s.p50), ms(s.p99), ms(s.max)],
        [`${plan.inFlight} in flight`, rate(conc.throughput), ms(c.p50), ms(c.p99), ms(c.max)],
        [`bare bot /help, ${plan.inFlight} in flight`, rate(bareThroughput), "", "", ""],
      ],
    ),
    perUpdateTable(`(b) ${label}: ${int(plan.concurrent)} updates, ${plan.inFlight} in flight`, [
      ["bare grammY /help", barePer],
      [`whole stack /balance, ${label}`, perUpdate],
    ]),
    table(
      `Exchange calls per /balance (sandbox.requests during the one-at-a-time run): ${(during.length / plan.sequential).toFixed(2)}`,
      ["request", "per /balance"],
      [...byRoute].map(([route, n]) => [route, (n / plan.sequential).toFixed(2)]),
    ),
    profile,
  ].join("\n");
  return { report, goals };
}
