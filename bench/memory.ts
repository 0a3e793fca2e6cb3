/**
 * (c) Memory with 10,000 distinct users: /start from each through the whole stack, then the bot
 * process's RSS (now and peak), its heap after a GC, and the store's size on disk and in keys.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Vault } from "../src/store/vault.ts";
import { startBotProcess } from "./lib/child.ts";
import { drive, type Env, makeUsers } from "./lib/env.ts";
import { int, mib, ms, rate, summarize, table } from "./lib/stats.ts";

export const MEMORY_PLAN = { users: 10_000, inFlight: 200 };

export async function benchMemory(env: Env): Promise<string> {
  const { telegram, sandbox } = env;
  const folder = mkdtempSync(join(tmpdir(), "bench-memory-"));
  const file = join(folder, "bot.sqlite");
  try {
    const bot = await startBotProcess({
      kind: "whole",
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: `sqlite://${file}`,
      secretsKey: Vault.generateKey(),
    });
    const idle = await bot.memory({ gc: true });
    const users = makeUsers(env, 100_000, MEMORY_PLAN.users);
    const run = await drive(env, {
      users,
      total: users.length,
      concurrency: MEMORY_PLAN.inFlight,
      text: "/start",
      expect: (reply) => reply.startsWith("Welcome"),
    });
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
    return [
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
    ].join("\n");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
