/**
 * Paired rounds: the throughput ratios of (a) and (b) from several alternating runs, not one.
 *
 * On a shared 2-core machine one run of the bare bot swings by ±25 % from the next (measured: the
 * same bare /help, 50 in flight, 3,852–5,907 upd/s within one hour), so a single pair of runs
 * decided a goal by luck. Here every contender stays up, each round drives each of them once in
 * turn (the order rotating, so none is always first after an idle pause), a round's ratio compares
 * runs a few seconds apart, and the goal is judged on the median of the rounds' ratios.
 * BENCH_ROUNDS sets the number of rounds (default 7).
 */
import type { PerUpdate } from "./per-update.ts";

export const BENCH_ROUNDS = Math.max(1, Number.parseInt(process.env.BENCH_ROUNDS ?? "7", 10) || 7);

/** Round r's order: the contenders rotated by r. */
export function roundOrder<T>(contenders: readonly T[], round: number): T[] {
  const k = round % contenders.length;
  return [...contenders.slice(k), ...contenders.slice(0, k)];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The rounds' ratios as printed: each, then the median the goal is judged on. */
export function roundsLine(ratios: readonly number[]): string {
  return `${ratios.map((r) => r.toFixed(2)).join(" ")} → median ${median(ratios).toFixed(2)}`;
}

/** The per-update figures of several runs of one bot, as one run of all their updates. */
export function mergePerUpdate(runs: readonly PerUpdate[]): PerUpdate {
  const [first, ...rest] = runs;
  if (first === undefined) throw new Error("mergePerUpdate: no runs");
  const merged: PerUpdate = {
    ...first,
    counters: { ...first.counters, store: { ...first.counters.store } },
    botApi: new Map(first.botApi),
  };
  for (const run of rest) {
    merged.updates += run.updates;
    merged.exchange += run.exchange;
    const c = merged.counters;
    c.gcCount += run.counters.gcCount;
    c.gcMs += run.counters.gcMs;
    c.allocatedBytes += run.counters.allocatedBytes;
    c.cpuUs += run.counters.cpuUs;
    for (const [op, n] of Object.entries(run.counters.store) as Array<[keyof typeof c.store, number]>) {
      c.store[op] = (c.store[op] ?? 0) + n;
    }
    for (const [method, n] of run.botApi) merged.botApi.set(method, (merged.botApi.get(method) ?? 0) + n);
    if (merged.redisCommands !== undefined && run.redisCommands !== undefined) {
      merged.redisCommands += run.redisCommands;
    }
    if (merged.redisCpuMs !== undefined && run.redisCpuMs !== undefined) merged.redisCpuMs += run.redisCpuMs;
  }
  return merged;
}
