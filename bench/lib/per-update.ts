/**
 * Per-update cost of one measured run: store reads and writes (counted by the bot process's
 * CountingStore), Bot API requests (seen by the double), exchange requests (seen by the sandbox),
 * bytes allocated and GC time in the bot process. When a figure regresses, this says where from.
 */
import type { Counters } from "./bot-process.ts";
import type { BotProcess } from "./child.ts";
import { STORE_READS, STORE_WRITES } from "./counting-store.ts";
import { type DriveOptions, drive, type Env } from "./env.ts";
import { ms, table } from "./stats.ts";

export interface PerUpdate {
  updates: number;
  counters: Counters;
  botApi: Map<string, number>;
  exchange: number;
  /** Commands the Redis server ran during the run (its INFO counters), when the store is Redis. */
  redisCommands?: number;
  /** CPU time the Redis server used during the run, in ms: it shares the machine's cores. */
  redisCpuMs?: number;
}

/** What a run reads from its store server, if it has one (bench/lib/stores.ts). */
interface StoreCounters {
  commands(): Promise<number | undefined>;
  cpuMs?(): Promise<number | undefined>;
}

/** Runs `run` (which sends `updates` updates) with every counter on. */
export async function counted<T>(
  env: Env,
  bot: BotProcess,
  updates: number,
  run: () => Promise<T>,
  store?: StoreCounters,
): Promise<{ result: T; perUpdate: PerUpdate }> {
  const botApi = new Map<string, number>();
  const unsubscribe = env.telegram.on("call", (call) =>
    botApi.set(call.method, (botApi.get(call.method) ?? 0) + 1),
  );
  const exchangeBefore = env.sandbox.requests.length;
  await bot.countStart();
  const commandsBefore = await store?.commands();
  const cpuBefore = await store?.cpuMs?.();
  try {
    const result = await run();
    const counters = await bot.countStop();
    const commandsAfter = await store?.commands();
    const cpuAfter = await store?.cpuMs?.();
    const perUpdate: PerUpdate = {
      updates,
      counters,
      botApi,
      exchange: env.sandbox.requests.length - exchangeBefore,
    };
    if (commandsBefore !== undefined && commandsAfter !== undefined) {
      perUpdate.redisCommands = commandsAfter - commandsBefore;
    }
    if (cpuBefore !== undefined && cpuAfter !== undefined) perUpdate.redisCpuMs = cpuAfter - cpuBefore;
    return { result, perUpdate };
  } finally {
    unsubscribe();
  }
}

/** `counted` around one closed-loop run (`drive`) of `options.total` updates. */
export function countedDrive(
  env: Env,
  bot: BotProcess,
  options: DriveOptions,
  store?: StoreCounters,
): Promise<{ result: Awaited<ReturnType<typeof drive>>; perUpdate: PerUpdate }> {
  return counted(env, bot, options.total, () => drive(env, options), store);
}

const each = (n: number, updates: number) => (n / updates).toFixed(2);
const sum = (counts: Counters["store"], ops: readonly string[]) =>
  ops.reduce((total, op) => total + (counts[op as keyof Counters["store"]] ?? 0), 0);

/** One row per run: the per-update figures side by side. */
export function perUpdateTable(title: string, rows: Array<[name: string, figures: PerUpdate]>): string {
  return table(
    `${title} — per update`,
    [
      "run",
      "store reads",
      "store writes",
      "store calls by kind",
      "Redis cmds",
      "Redis CPU",
      "Bot API req",
      "exchange req",
      "alloc",
      "GC",
      "CPU",
    ],
    rows.map(([name, f]) => {
      const n = f.updates;
      const byKind = Object.entries(f.counters.store)
        .filter(([, count]) => count > 0)
        .map(([op, count]) => `${op} ${each(count, n)}`)
        .join(", ");
      const api = [...f.botApi.values()].reduce((a, b) => a + b, 0);
      return [
        name,
        each(sum(f.counters.store, STORE_READS), n),
        each(sum(f.counters.store, STORE_WRITES), n),
        byKind || "(no store)",
        f.redisCommands === undefined ? "" : each(f.redisCommands, n),
        f.redisCpuMs === undefined ? "" : `${(f.redisCpuMs / n).toFixed(3)} ms`,
        `${each(api, n)} (${[...f.botApi].map(([m, c]) => `${m} ${each(c, n)}`).join(", ")})`,
        each(f.exchange, n),
        `${(f.counters.allocatedBytes / n / 1024).toFixed(1)} KiB`,
        `${ms(f.counters.gcMs / n)} (${f.counters.gcCount} GCs)`,
        ms(f.counters.cpuUs / 1000 / n),
      ];
    }),
  );
}
