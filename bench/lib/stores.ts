/**
 * The stores the whole stack is measured on: a SQLite file (the embedded default) and a real
 * redis-server (several instances). BENCH_STORES=sqlite or =redis picks one; both by default.
 * Each whole-bot run gets a fresh one. On Redis the server's own command count is read too, so a
 * report can give the store round trips per update as Redis saw them.
 */
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { startRedis } from "../../test/support/redis.ts";

export type BenchStore = "sqlite" | "redis";

export const BENCH_STORES: readonly BenchStore[] = (process.env.BENCH_STORES ?? "sqlite,redis")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is BenchStore => s === "sqlite" || s === "redis");

export const storeLabel = (kind: BenchStore) => (kind === "sqlite" ? "SQLite" : "Redis");

export interface FreshStore {
  url: string;
  /** Commands the store server has run so far (Redis), or undefined (SQLite has no server). */
  commands(): Promise<number | undefined>;
  /** CPU time the store server has used so far, in ms (Redis: INFO cpu), or undefined. */
  cpuMs(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** A fresh store for one whole-bot run: `folder/bot.sqlite`, or a redis-server of its own. */
export async function freshStore(kind: BenchStore, folder: string): Promise<FreshStore> {
  if (kind === "sqlite") {
    return {
      url: `sqlite://${join(folder, "bot.sqlite")}`,
      commands: async () => undefined,
      cpuMs: async () => undefined,
      stop: async () => {},
    };
  }
  const redis = await startRedis();
  const client = createClient({ url: redis.url });
  await client.connect();
  return {
    url: redis.url,
    async commands() {
      const stats = await client.info("stats");
      // The INFO just sent is not the bot's.
      return Number(/total_commands_processed:(\d+)/.exec(stats)?.[1] ?? 0) - 1;
    },
    async cpuMs() {
      const cpu = await client.info("cpu");
      const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
      return (seconds("used_cpu_user") + seconds("used_cpu_sys")) * 1000;
    },
    async stop() {
      await client.close();
      await redis.stop();
    },
  };
}
