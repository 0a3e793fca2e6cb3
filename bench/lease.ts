/**
 * (l) What an update of a private chat costs on Redis in the chat lock alone, nothing else of the
 * bot: the lease taken with the chat's reads (one script), the session and conversation read in
 * the update's scope (answered from that script's reply), the lease given back (batched). 200
 * updates in flight over 2,000 chats against a real redis-server, in one process, run with the Node
 * flags of `npm start` (a child process of its own). Bot CPU and bytes allocated per update: the
 * figures the whole stack's (a) carries for this part, without the rest of the bot's noise.
 * Also runs alone: `node bench/lease.ts` (then with this process's flags).
 */
import { execFileSync } from "node:child_process";
import { GCProfiler } from "node:v8";
import type { Context } from "grammy";
import { CONVERSATION_PREFIX, SESSION_PREFIX } from "../src/bot/bot.ts";
import type { BotContext } from "../src/bot/context.ts";
import { ChatLock } from "../src/bot/middleware/chat-lock.ts";
import { CHAT_READ_PREFIXES } from "../src/process/services.ts";
import { openStore } from "../src/store/open-store.ts";
import { updateReads } from "../src/store/update-reads.ts";
import { silentLogger } from "../src/support/logger.ts";
import { startRedis } from "../test/support/redis.ts";
import { startSettings } from "./lib/child.ts";
import { table } from "./lib/stats.ts";

const CHATS = 2_000;
const IN_FLIGHT = 200;
const WARMUP = 20_000;
const MEASURED = 40_000;
const ROUNDS = 3;

/** Runs the measurement in a child process with `npm start`'s Node flags and returns its report. */
export function benchLease(): string {
  const { flags, env } = startSettings();
  return execFileSync(process.execPath, [...flags, import.meta.filename], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

async function measure(): Promise<string> {
  const redis = await startRedis();
  const inner = await openStore(redis.url, { namespace: "bench", onError: () => {} });
  try {
    // The chat's keys as services.ts reads them on Redis (two of them read by this update).
    const reads = updateReads(inner, { prefixes: CHAT_READ_PREFIXES });
    const { store } = reads;
    const lock = new ChatLock(store, silentLogger, { reads });
    for (let id = 0; id < CHATS; id++) {
      await store.set(`${SESSION_PREFIX}${id}`, { __language_code: "en", step: id % 7, seen: [1, 2, 3] });
    }
    const contexts = Array.from({ length: CHATS }, (_, id) => ({ chat: { id } }) as Partial<Context>);
    const run = async (total: number) => {
      let sent = 0;
      const slot = async () => {
        while (sent < total) {
          const id = sent++ % CHATS;
          await lock.middleware(contexts[id] as BotContext, async () => {
            await store.get(`${SESSION_PREFIX}${id}`);
            await store.get(`${CONVERSATION_PREFIX}${id}`);
          });
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, slot));
    };
    await run(WARMUP);
    const rows: string[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const gc = new GCProfiler();
      gc.start();
      const heapBefore = process.memoryUsage().heapUsed;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await run(MEASURED);
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const stats = gc.stop()?.statistics ?? [];
      // As bot-process.ts counts it: each GC's before-figure minus the previous after-figure.
      let allocated = 0;
      let usedAfter = heapBefore;
      for (const entry of stats) {
        allocated += entry.beforeGC.heapStatistics.usedHeapSize - usedAfter;
        usedAfter = entry.afterGC.heapStatistics.usedHeapSize;
      }
      allocated += process.memoryUsage().heapUsed - usedAfter;
      rows.push([
        String(round),
        `${((cpu.user + cpu.system) / MEASURED).toFixed(1)} µs`,
        `${(allocated / MEASURED / 1024).toFixed(1)} KiB`,
        String(stats.length),
        `${Math.round((MEASURED / wallMs) * 1000).toLocaleString("en-US")}/s`,
      ]);
    }
    return table(
      `(l) Chat lock alone on Redis: lease + reads + release, ${IN_FLIGHT} in flight over ${CHATS.toLocaleString("en-US")} chats, ` +
        `${MEASURED.toLocaleString("en-US")} updates per round (Node flags: ${process.execArgv.join(" ") || "defaults"})`,
      ["round", "CPU/upd", "alloc/upd", "GCs", "upd/s"],
      rows,
    );
  } finally {
    await inner.close();
    await redis.stop();
  }
}

if (import.meta.main) console.log(await measure());
