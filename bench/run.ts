/**
 * `npm run bench`: every benchmark in one run, figures printed (nothing asserted on time).
 * BENCH_PROFILE=1 also CPU-profiles the two bots of (a) and prints where their time went.
 * BENCH_ONLY=a,b,c,d picks benchmarks: (a) /help whole stack vs bare grammY (200 and 2,000 users),
 * (b) /balance against the bare bot's /help, (c) memory with 10,000 new users and with 100,000
 * users' sessions in the store, (d) inline queries (bench/inline.ts, its own stack), (e) alert
 * evaluation per price tick (bench/alerts.ts), (f) notification fan-out under Telegram's limits
 * (bench/fanout.ts), (g) 10,000 recurring plans due at once against the sandbox (bench/plans.ts),
 * (h) price charts: CPU per chart drawn and the bot's RSS after drawing (bench/charts.ts), (l) the
 * chat lock alone on Redis: lease, reads and release per update (bench/lease.ts); (a) and (b) run
 * the whole stack on SQLite and on a real redis-server; (u) many users at human pace against the bare bot
 * and a peer built the ecosystem's standard way (bench/users.ts, BENCH_USERS=2000,12000,20000)
 * (BENCH_STORES=sqlite or =redis for one). Heavy, so only when asked: (t) one background tick's
 * store work with 1,000,000 users on Redis (bench/tick.ts; BENCH_ONLY=t).
 */
import { availableParallelism, cpus, totalmem } from "node:os";
import { benchAlerts } from "./alerts.ts";
import { benchBalance } from "./balance.ts";
import { benchCharts } from "./charts.ts";
import { benchFanout } from "./fanout.ts";
import { benchHelp } from "./help.ts";
import { benchInline } from "./inline.ts";
import { benchLease } from "./lease.ts";
import { compileBotProcess } from "./lib/child.ts";
import { startEnv } from "./lib/env.ts";
import { type BenchResult, type Goal, goalsTable } from "./lib/goals.ts";
import { benchMemory } from "./memory.ts";
import { benchPlans } from "./plans.ts";
import { benchTick } from "./tick.ts";
import { benchUsers } from "./users.ts";

const only = new Set((process.env.BENCH_ONLY ?? "a,b,c,d,e,f,g,h,l,u").split(",").map((s) => s.trim()));
const profile = Boolean(process.env.BENCH_PROFILE);

const started = performance.now();
console.log(
  `Machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`,
);
console.log(
  "Setup: the bot runs in a child process; the Bot API double (updates by getUpdates long polling), the " +
    "sandbox exchange and the driver run in this one, over loopback. Latency = update pushed to the " +
    "double → the bot's sendMessage for it recorded there.",
);

// Before any figure is taken: the bot process runs compiled JavaScript, as npm start does.
compileBotProcess();
const env = await startEnv();
const goals: Goal[] = [];
const report = (result: BenchResult) => {
  console.log(result.report);
  goals.push(...result.goals);
};
try {
  if (only.has("a")) report(await benchHelp(env, { profile }));
  if (only.has("b")) report(await benchBalance(env, { profile }));
  if (only.has("c")) report(await benchMemory(env));
  if (only.has("d")) console.log(`\n(d) ${await benchInline()}`);
  if (only.has("e")) console.log(`\n${await benchAlerts()}`);
  if (only.has("f")) console.log(`\n${await benchFanout()}`);
  if (only.has("g")) console.log(`\n${await benchPlans()}`);
  if (only.has("h")) report(await benchCharts(env));
  if (only.has("l")) console.log(benchLease());
  if (only.has("u")) report(await benchUsers(env, { profile }));
  if (only.has("t")) console.log(await benchTick());
} finally {
  await env.close();
}
if (goals.length > 0) console.log(goalsTable(goals));
console.log(`\nTotal: ${((performance.now() - started) / 1000).toFixed(1)} s`);
