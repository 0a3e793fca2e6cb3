/**
 * (c) Memory with 10,000 distinct users: /start from each through the whole stack, then the bot
 * process's RSS (now and peak), its heap after a GC, and the store's size on disk and in keys.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWholeBot } from "./lib/child.ts";
import { drive, type Env, makeUsers } from "./lib/env.ts";
import type { BenchResult, Goal } from "./lib/goals.ts";
import { counted, type PerUpdate, perUpdateTable } from "./lib/per-update.ts";
import { seedSessions } from "./lib/seed-store.ts";
import { int, mib, ms, rate, summarize, table } from "./lib/stats.ts";

export const MEMORY_PLAN = { users: 10_000, inFlight: 200 };
/** (c2): sessions already in the store, and how many of those users then write, in slices. */
export const SEEDED_PLAN = { seeded: 100_000, through: 30_000, slice: 10_000, inFlight: 200 };

export async function benchMemory(env: Env): Promise<BenchResult> {
  const fresh = await freshUsers(env);
  const seeded = await seededStore(env);
  return { report: `${fresh.report}\n${seeded.report}`, goals: [...fresh.goals, ...seeded.goals] };
}

async function freshUsers(env: Env): Promise<BenchResult> {
  const folder = mkdtempSync(join(tmpdir(), "bench-memory-"));
  const file = join(folder, "bot.sqlite");
  try {
    const bot = await startWholeBot(env, `sqlite://${file}`);
    const idle = await bot.memory({ gc: true });
    const users = makeUsers(env, 100_000, MEMORY_PLAN.users);
    const { result: run, perUpdate } = await counted(env, bot, users.length, () =>
      drive(env, {
        users,
        total: users.length,
        concurrency: MEMORY_PLAN.inFlight,
        text: "/start",
        expect: (reply) => reply.startsWith("Welcome"),
      }),
    );
    const loaded = await bot.memory();
    const afterGc = await bot.memory({ gc: true });
    const keys = await bot.storeKeys();
    await bot.stop();

    const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
    const db = size(file);
    const wal = size(`${file}-wal`);
    const totalKeys = Object.values(keys).reduce((a, b) => a + b, 0);
    const lat = summarize(run.latenciesMs);
    // The store grows during the run: compare the pace of the first and the last 2,000 users.
    const slice = 2_000;
    const at = (i: number) => run.repliedAt[i] ?? Number.NaN;
    const firstRate = (slice / (at(slice - 1) - run.startedAt)) * 1000;
    const lastRate = (slice / (at(run.repliedAt.length - 1) - at(run.repliedAt.length - 1 - slice))) * 1000;
    const perUser = (bytes: number) => `${int(bytes / MEMORY_PLAN.users)} B/user`;
    const report = [
      table(
        `(c) Memory of the bot process with ${int(MEMORY_PLAN.users)} distinct users (/start each, ${MEMORY_PLAN.inFlight} in flight: ` +
          `${rate(run.throughput)}; first ${int(slice)} users ${rate(firstRate)}, last ${int(slice)} ${rate(lastRate)}; ` +
          `p50 ${ms(lat.p50)}, p99 ${ms(lat.p99)})`,
        ["figure", "before", "after", "difference"],
        [
          ["RSS", mib(idle.rss), mib(loaded.rss), `+${mib(loaded.rss - idle.rss)}`],
          ["RSS after a GC", mib(idle.rss), mib(afterGc.rss), `+${mib(afterGc.rss - idle.rss)}`],
          [
            "peak RSS (maxRSS)",
            mib(idle.maxRss),
            mib(afterGc.maxRss),
            `+${mib(afterGc.maxRss - idle.maxRss)}`,
          ],
          [
            "V8 heap reserved",
            mib(idle.heapTotal),
            mib(loaded.heapTotal),
            `+${mib(loaded.heapTotal - idle.heapTotal)}`,
          ],
          [
            "  of it young generation",
            mib(idle.newSpace),
            mib(loaded.newSpace),
            `+${mib(loaded.newSpace - idle.newSpace)}`,
          ],
          [
            "  of it old space",
            mib(idle.oldSpace),
            mib(loaded.oldSpace),
            `+${mib(loaded.oldSpace - idle.oldSpace)}`,
          ],
          [
            "V8 heap used after a GC",
            mib(idle.heapUsed),
            mib(afterGc.heapUsed),
            `+${mib(afterGc.heapUsed - idle.heapUsed)} (${perUser(afterGc.heapUsed - idle.heapUsed)})`,
          ],
          [
            "external (Buffers…)",
            mib(idle.external),
            mib(afterGc.external),
            `+${mib(afterGc.external - idle.external)}`,
          ],
        ],
      ),
      table(
        "Store after the run (SQLite)",
        ["figure", "value"],
        [
          ["file size (bot.sqlite)", `${mib(db)} (${perUser(db)})`],
          ["WAL file (bot.sqlite-wal)", mib(wal)],
          ["live keys", int(totalKeys)],
          ...Object.entries(keys).map(([prefix, n]) => [`  ${prefix}:*`, int(n)]),
        ],
      ),
      perUpdateTable(`(c) /start from ${int(MEMORY_PLAN.users)} new users`, [["whole stack", perUpdate]]),
    ].join("\n");
    const goals: Goal[] = [
      {
        goal: `peak RSS ≤ 200 MiB after ${int(MEMORY_PLAN.users)} distinct users`,
        figure: mib(afterGc.maxRss),
        met: afterGc.maxRss <= 200 * 2 ** 20,
      },
    ];
    return { report, goals };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * (c2) A store that already holds 100,000 users' sessions (seeded straight into the file), then
 * 30,000 of those users send /start, 10,000 at a time: peak RSS after each slice. Flat means the
 * last slice's peak is within 10 % of the first's: memory follows the work, not the users seen.
 */
async function seededStore(env: Env): Promise<BenchResult> {
  const folder = mkdtempSync(join(tmpdir(), "bench-seeded-"));
  const file = join(folder, "bot.sqlite");
  const plan = SEEDED_PLAN;
  const firstUserId = 1_000_000;
  try {
    const seedStarted = performance.now();
    await seedSessions(file, firstUserId, plan.seeded);
    const seedMs = performance.now() - seedStarted;
    const bot = await startWholeBot(env, `sqlite://${file}`);
    const idle = await bot.memory({ gc: true });
    const users = makeUsers(env, firstUserId, plan.through);
    const rows: string[][] = [];
    const peaks: number[] = [];
    let lastPer: PerUpdate | undefined;
    for (let from = 0; from < plan.through; from += plan.slice) {
      const slice = users.slice(from, from + plan.slice);
      const { result: run, perUpdate } = await counted(env, bot, slice.length, () =>
        drive(env, {
          users: slice,
          total: slice.length,
          concurrency: plan.inFlight,
          text: "/start",
          expect: (reply) => reply.startsWith("Welcome"),
        }),
      );
      lastPer = perUpdate;
      const m = await bot.memory();
      peaks.push(m.maxRss);
      rows.push([
        `users ${int(from + 1)}–${int(from + slice.length)}`,
        rate(run.throughput),
        mib(m.rss),
        mib(m.maxRss),
        mib(m.heapTotal),
      ]);
    }
    const afterGc = await bot.memory({ gc: true });
    await bot.stop();
    const first = peaks[0] ?? Number.NaN;
    const last = peaks.at(-1) ?? Number.NaN;
    const growth = last / first - 1;
    const report = [
      table(
        `(c2) ${int(plan.seeded)} users' sessions in the store (seeded in ${(seedMs / 1000).toFixed(1)} s), then ` +
          `/start from ${int(plan.through)} of them, ${int(plan.slice)} at a time, ${plan.inFlight} in flight ` +
          `(bot RSS at start ${mib(idle.rss)}, heap used after a final GC ${mib(afterGc.heapUsed)})`,
        ["slice", "upd/s", "RSS after", "peak RSS", "V8 heap reserved"],
        rows,
      ),
      ...(lastPer ? [perUpdateTable("(c2) the last slice", [["whole stack", lastPer]])] : []),
    ].join("\n");
    const goals: Goal[] = [
      {
        goal: `peak RSS ≤ 250 MiB with ${int(plan.seeded)} users' sessions in the store`,
        figure: mib(afterGc.maxRss),
        met: afterGc.maxRss <= 250 * 2 ** 20,
      },
      {
        goal: `peak RSS flat (within 10 %) from the first to the last ${int(plan.slice)} users`,
        figure: `${mib(first)} → ${mib(last)} (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)} %)`,
        met: growth <= 0.1,
      },
    ];
    return { report, goals };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
