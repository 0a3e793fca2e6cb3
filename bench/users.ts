/**
 * (u) Many users at human pace: thousands of distinct users, each at most one message a second
 * (lib/human.ts), against the bare grammY bot (the floor), the peer (lib/peer-bot.ts: grammY's
 * session on @grammyjs/storage-redis, or a session adapter over a SQLite file) and the whole stack,
 * on both stores. /help at each of BENCH_USERS (default 2,000, 12,000, 20,000), /balance at
 * BENCH_BALANCE_USERS (default 3,600) with every user logged in to an exchange account of its own.
 * The whole stack runs with production's flood limit: a "too fast" reply fails the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { LOCALES_DIR } from "../src/bot/i18n.ts";
import { englishHelpText } from "./help.ts";
import { type BotProcess, startBotProcess, startWholeBot } from "./lib/child.ts";
import { STORE_READS, STORE_WRITES } from "./lib/counting-store.ts";
import { summarizeProfile } from "./lib/cpu-profile.ts";
import { type Env, makeUsers, withOwnDouble } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { driveHuman, type HumanResult } from "./lib/human.ts";
import { counted, type PerUpdate } from "./lib/per-update.ts";
import { median, mergePerUpdate, roundOrder, roundsLine } from "./lib/rounds.ts";
import { int, mib, ms, rate, summarize, table } from "./lib/stats.ts";
import { BENCH_STORES, type BenchStore, type FreshStore, freshStore, storeLabel } from "./lib/stores.ts";

const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(",")
    .map((s) => Number.parseInt(s.trim(), 10))
    .filter((n) => Number.isFinite(n) && n > 0);

/** The user counts of /help; the flatness goal compares the smallest with the largest. */
export const USER_COUNTS = list(process.env.BENCH_USERS, "2000,12000,20000");
/**
 * 3,600 by default: each /balance user logs in first through Sessions.login against the sandbox,
 * which on this machine took minutes per thousands of users and store.
 */
const BALANCE_USERS = list(process.env.BENCH_BALANCE_USERS, "3600");
const ROUNDS = Math.max(1, Number.parseInt(process.env.BENCH_HUMAN_ROUNDS ?? "3", 10) || 3);
/** Updates per round: each user sends this many in all, at least one (2,000 users: six each). */
const UPDATES_PER_ROUND = Math.max(
  1,
  Number.parseInt(process.env.BENCH_HUMAN_UPDATES ?? "12000", 10) || 12_000,
);
/** The users of the goals. */
const GOAL_USERS = 12_000;
const ACCOUNT_PASSWORD = "bench-password-1";
const ACCOUNT_TOTP = "BENCHUSERSSECRETKEYFORTHEBOTXYZA";

const began = performance.now();
/** A progress line on stderr (the report itself is printed at the end). */
const progress = (what: string) =>
  process.stderr.write(`  [u ${((performance.now() - began) / 1000).toFixed(0)} s] ${what}\n`);

/** "before": the whole stack built from an earlier commit (BENCH_BEFORE_OUT), beside "ours". */
type Side = "bare" | "peer" | "ours" | "before";

/** A copy of bench/.out built from the commit before a change: its whole stack runs beside ours. */
const BEFORE_OUT = process.env.BENCH_BEFORE_OUT;

interface Contender {
  name: string;
  side: Side;
  store: BenchStore | undefined;
  env: Env;
  bot: BotProcess;
  fresh: FreshStore | undefined;
  runs: Array<{ result: HumanResult; perUpdate: PerUpdate; driverCpuUs: number }>;
}

/** One contender's figures over its rounds. */
export interface Figures {
  name: string;
  side: Side;
  store: BenchStore | undefined;
  throughput: number;
  offered: number;
  saturated: boolean;
  cpuMsPerUpdate: number;
  /** Round trips to the store per update: calls that reached SQLite, or commands Redis ran. */
  roundTrips: number;
  peakRss: number;
  p50: number;
  p99: number;
  cores: number;
  /** CPU use of this process (doubles, sandbox, driver) during the runs, in cores. */
  driverCores: number;
  perUpdate: PerUpdate;
  throughputs: number[];
}

export async function benchUsers(env: Env, options: { profile?: boolean } = {}): Promise<BenchResult> {
  const reports: string[] = [];
  const goals: Goal[] = [];
  const byCount = new Map<number, Figures[]>();
  // Each report as soon as its runs are done: a long run that fails later keeps what it measured.
  for (const users of USER_COUNTS) {
    const result = await runAt(env, users, "help", options);
    byCount.set(users, result.figures);
    console.log(result.report);
    goals.push(...result.goals);
  }
  for (const users of BALANCE_USERS) {
    const result = await runAt(env, users, "balance", options);
    console.log(result.report);
    goals.push(...result.goals);
  }
  reports.push(flatness(byCount, goals));
  return { report: reports.join("\n"), goals };
}

async function runAt(
  env: Env,
  users: number,
  command: "help" | "balance",
  options: { profile?: boolean },
): Promise<{ report: string; goals: Goal[]; figures: Figures[] }> {
  const helpText = englishHelpText();
  const tooFastText = slowDownText();
  const folder = mkdtempSync(join(tmpdir(), "bench-users-"));
  const contenders: Contender[] = [];
  const passes = Math.max(1, Math.round(UPDATES_PER_ROUND / users));
  const accounts = command === "balance" ? makeAccounts(env, users) : [];
  const profiles: string[] = [];
  try {
    contenders.push(
      await enter(env, "bare grammY /help", "bare", undefined, folder, { helpText, users, accounts }),
    );
    for (const store of BENCH_STORES) {
      const sides: Side[] = BEFORE_OUT ? ["peer", "before", "ours"] : ["peer", "ours"];
      for (const side of sides) {
        const who = side === "peer" ? "peer" : side === "before" ? "whole stack before" : "whole stack";
        const name = `${who}, ${storeLabel(store)}`;
        contenders.push(await enter(env, name, side, store, folder, { helpText, users, accounts }));
        progress(`/${command} ${users}: ${name} up`);
      }
    }
    const load = (c: Contender, p: number) => ({
      users: usersOf(c, users),
      passes: p,
      text: c.side === "bare" ? "/help" : `/${command}`,
      expect:
        c.side === "bare" || command === "help"
          ? (reply: string) => reply === helpText
          : (reply: string) => reply.startsWith("💼") && reply.includes("Euro"),
      tooFast: (reply: string) => reply === tooFastText,
    });
    // Warm-up: every user once (sessions written, V8's hot paths optimised).
    for (const c of contenders) await driveHuman(c.env, load(c, 1));
    progress(`/${command} ${users}: warmed`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of roundOrder(contenders, round)) {
        const driverBefore = process.cpuUsage();
        const run = await counted(
          c.env,
          c.bot,
          users * passes,
          () => driveHuman(c.env, load(c, passes)),
          c.fresh,
        );
        const driver = process.cpuUsage(driverBefore);
        c.runs.push({ ...run, driverCpuUs: driver.user + driver.system });
        progress(`/${command} ${users}: round ${round + 1}, ${c.name}: ${int(run.result.throughput)} upd/s`);
      }
    }
    // At the goals' user count only, and the whole stack only: the profiler slows a bot severalfold.
    if (options.profile && users === GOAL_USERS) {
      for (const c of contenders.filter((x) => x.side === "ours" || x.side === "before")) {
        await c.bot.profileStart();
        await driveHuman(c.env, load(c, passes));
        profiles.push(
          summarizeProfile(
            await c.bot.profileStop(),
            `CPU profile of ${c.name} (/${command}, ${int(users)} users at human pace)`,
          ),
        );
      }
    }
    const figures = await Promise.all(contenders.map(figuresOf));
    const { report, goals } = reportOf(users, command, passes, contenders, figures);
    return { report: [report, ...profiles].join("\n"), goals, figures };
  } finally {
    for (const c of contenders) {
      await c.bot.stop();
      await c.fresh?.stop();
      await c.env.close();
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

const usersCache = new WeakMap<Contender, ReturnType<typeof makeUsers>>();
/** The contender's users, ids from 100,000 (the same ids on every double: each double is its own bot). */
function usersOf(c: Contender, users: number): ReturnType<typeof makeUsers> {
  let made = usersCache.get(c);
  if (made === undefined) {
    made = makeUsers(c.env, 100_000, users);
    usersCache.set(c, made);
  }
  return made;
}

/** Sandbox accounts of their own for `users` users (user i ↔ bench-i@…), with some money on each. */
function makeAccounts(env: Env, users: number): Array<[number, string]> {
  const { state } = env.sandbox;
  return Array.from({ length: users }, (_, i) => {
    const email = `bench-${i}@users.bench.test`;
    if (state.accountByEmail(email) === undefined) {
      state.createAccount({
        email,
        password: ACCOUNT_PASSWORD,
        totpSecret: ACCOUNT_TOTP,
        balances: { eur: "1000", btc: "0.01", eth: "0.5" },
      });
    }
    return [100_000 + i, email] as [number, string];
  });
}

async function enter(
  env: Env,
  name: string,
  side: Side,
  store: BenchStore | undefined,
  folder: string,
  o: { helpText: string; users: number; accounts: Array<[number, string]> },
): Promise<Contender> {
  const own = await withOwnDouble(env);
  let fresh: FreshStore | undefined;
  try {
    const { telegram } = own;
    const base = { token: telegram.token, apiRoot: telegram.apiRoot, botInfo: telegram.botInfo };
    let bot: BotProcess;
    if (side === "bare") {
      bot = await startBotProcess({ kind: "bare", ...base, helpText: o.helpText });
    } else {
      const dir = join(folder, `${side}-${store}`);
      mkdirSync(dir);
      fresh = await freshStore(store as BenchStore, dir);
      if (side === "ours" || side === "before") {
        bot = await startWholeBot(own, fresh.url, {
          ...(side === "before" && BEFORE_OUT ? { out: BEFORE_OUT } : {}),
          realFloodLimit: true,
          ...(o.accounts.length > 0
            ? { logins: { accounts: o.accounts, password: ACCOUNT_PASSWORD, totpSecret: ACCOUNT_TOTP } }
            : {}),
        });
      } else {
        const { state } = env.sandbox;
        bot = await startBotProcess({
          kind: "peer",
          ...base,
          helpText: o.helpText,
          storeUrl: store === "sqlite" ? `sqlite://${join(dir, "peer.sqlite")}` : fresh.url,
          exchangeUrl: env.sandbox.url,
          logins: o.accounts.map(([userId, email]) => {
            const account = state.accountByEmail(email);
            if (account === undefined) throw new Error(`no account ${email}`);
            return [userId, state.issueToken(account).token];
          }),
        });
      }
    }
    return { name, side, store, env: own, bot, fresh, runs: [] };
  } catch (error) {
    await fresh?.stop();
    await own.close();
    throw error;
  }
}

async function figuresOf(c: Contender): Promise<Figures> {
  const perUpdate = mergePerUpdate(c.runs.map((run) => run.perUpdate));
  const updates = perUpdate.updates;
  const elapsedMs = c.runs.reduce((t, run) => t + run.result.elapsedMs, 0);
  const latency = summarize(c.runs.flatMap((run) => run.result.latenciesMs));
  const storeCalls = [...new Set([...STORE_READS, ...STORE_WRITES])].reduce(
    (t, op) => t + (perUpdate.counters.store[op] ?? 0),
    0,
  );
  const throughputs = c.runs.map((run) => run.result.throughput);
  const offered = c.runs[0]?.result.offered ?? Number.NaN;
  const throughput = median(throughputs);
  return {
    name: c.name,
    side: c.side,
    store: c.store,
    throughput,
    offered,
    // Short of the users' pace by more than a tenth: the bot, not the users, set the rate.
    saturated: throughput < 0.9 * offered,
    cpuMsPerUpdate: perUpdate.counters.cpuUs / 1000 / updates,
    roundTrips: (perUpdate.redisCommands ?? storeCalls) / updates,
    peakRss: (await c.bot.memory()).maxRss,
    p50: latency.p50,
    p99: latency.p99,
    cores: perUpdate.counters.cpuUs / 1000 / elapsedMs,
    driverCores: c.runs.reduce((t, run) => t + run.driverCpuUs, 0) / 1000 / elapsedMs,
    perUpdate,
    throughputs,
  };
}

function reportOf(
  users: number,
  command: "help" | "balance",
  passes: number,
  contenders: Contender[],
  figures: Figures[],
): { report: string; goals: Goal[] } {
  const bare = figures[0] as Figures;
  const peerOf = (store: BenchStore | undefined) =>
    figures.find((f) => f.side === "peer" && f.store === store);
  /** Round by round: a's throughput over b's in the same round, and its median. */
  const share = (a: Figures, b: Figures) =>
    median(a.throughputs.map((t, r) => t / (b.throughputs[r] ?? Number.NaN)));
  const rows = figures.map((f) => {
    const peer = peerOf(f.store);
    return [
      f.name,
      rate(f.throughput),
      f.saturated ? `yes (${rate(f.offered)} offered)` : "no",
      ms(f.p50),
      ms(f.p99),
      ms(f.cpuMsPerUpdate),
      `${f.cores.toFixed(2)} / ${f.driverCores.toFixed(2)}`,
      f.roundTrips.toFixed(2),
      mib(f.peakRss),
      f === bare ? "" : `${share(f, bare).toFixed(2)}×`,
      (f.side === "ours" || f.side === "before") && peer
        ? `${share(f, peer).toFixed(2)}× / ${(f.cpuMsPerUpdate / peer.cpuMsPerUpdate).toFixed(2)}×`
        : "",
    ];
  });
  const title =
    `(u) /${command}, ${int(users)} users at human pace (each at most one message a second, ${passes} per round; ` +
    `${ROUNDS} rounds after a warm-up of one each${command === "balance" ? "; the bare bot answers /help" : ""})`;
  const report = [
    table(
      title,
      [
        "bot",
        "upd/s (median)",
        "saturated",
        "p50",
        "p99",
        "CPU/upd",
        "cores bot/driver",
        "store trips/upd",
        "peak RSS",
        "× bare upd/s",
        "× peer upd/s / CPU",
      ],
      rows,
    ),
    ...figures
      .filter((f) => f !== bare)
      .map(
        (f) =>
          `  ${f.name}: upd/s round by round ${f.throughputs.map((t) => int(t)).join(" ")}; vs bare ${roundsLine(f.throughputs.map((t, r) => t / (bare.throughputs[r] ?? Number.NaN)))}`,
      ),
    "  store trips/upd: calls that reached SQLite (beneath the cache; a statement each) or commands the Redis",
    "  server ran. Saturated: the median throughput is below 0.9× what the users offered (users per second).",
  ].join("\n");
  const goals: Goal[] = [];
  if (users === GOAL_USERS) {
    for (const f of figures.filter((x) => x.side === "ours")) {
      const peer = peerOf(f.store);
      const label = `/${command}, ${int(users)} users, ${storeLabel(f.store as BenchStore)}`;
      if (peer) {
        const s = share(f, peer);
        const cpu = f.cpuMsPerUpdate / peer.cpuMsPerUpdate;
        const memory = f.peakRss / peer.peakRss;
        goals.push(
          {
            goal: `${label}: throughput ≥ 1.0× the peer`,
            figure: `${s.toFixed(2)}× (${rate(f.throughput)} vs ${rate(peer.throughput)})`,
            met: s >= 1,
          },
          {
            goal: `${label}: CPU per update ≤ 1.2× the peer's`,
            figure: `${cpu.toFixed(2)}× (${ms(f.cpuMsPerUpdate)} vs ${ms(peer.cpuMsPerUpdate)})`,
            met: cpu <= 1.2,
          },
          {
            goal: `${label}: peak RSS ≤ 1.2× the peer's`,
            figure: `${memory.toFixed(2)}× (${mib(f.peakRss)} vs ${mib(peer.peakRss)})`,
            met: memory <= 1.2,
          },
        );
      }
      if (command === "help") {
        const s = share(f, bare);
        goals.push({
          goal: `${label}: throughput ≥ 0.8× bare`,
          figure: `${s.toFixed(2)}× (${rate(f.throughput)} vs ${rate(bare.throughput)})`,
          met: s >= 0.8,
        });
      }
    }
  }
  void contenders;
  return { report, goals };
}

/** CPU per /help of each bot at each user count, and the goal: the largest count within 20 % of the smallest. */
function flatness(byCount: Map<number, Figures[]>, goals: Goal[]): string {
  const counts = [...byCount.keys()].sort((a, b) => a - b);
  if (counts.length === 0) return "";
  const names = (byCount.get(counts[0] as number) ?? []).map((f) => f.name);
  const rows = names.map((name) => [
    name,
    ...counts.map((n) => {
      const f = byCount.get(n)?.find((x) => x.name === name);
      return f ? `${ms(f.cpuMsPerUpdate)} · ${f.roundTrips.toFixed(2)} trips` : "";
    }),
  ]);
  const low = counts[0] as number;
  const high = counts.at(-1) as number;
  if (high > low) {
    for (const f of byCount.get(high) ?? []) {
      if (f.side !== "ours") continue;
      const base = byCount.get(low)?.find((x) => x.name === f.name);
      if (base === undefined) continue;
      const growth = f.cpuMsPerUpdate / base.cpuMsPerUpdate - 1;
      goals.push({
        goal: `/help, ${storeLabel(f.store as BenchStore)}: CPU per update at ${int(high)} users within 20 % of ${int(low)}`,
        figure: `${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(0)} % (${ms(base.cpuMsPerUpdate)} → ${ms(f.cpuMsPerUpdate)})`,
        // Cheaper with more users (a warmer process) is not a failure of flatness.
        met: growth <= 0.2,
      });
    }
  }
  return table(
    "(u) /help: CPU and store round trips per update by the number of users",
    ["bot", ...counts.map((n) => `${int(n)} users`)],
    rows,
  );
}

function slowDownText(): string {
  const i18n = new I18n({ defaultLocale: "en", fluentBundleOptions: { useIsolating: false } });
  i18n.loadLocalesDirSync(LOCALES_DIR);
  return i18n.t("en", "flood-slow-down");
}
