/**
 * The bot under test, in a process of its own (forked by `child.ts`): its CPU and memory are then
 * its own, apart from the Bot API double, the sandbox and the driver, which live in the parent.
 * Commands come over IPC; see `BotProcessRequest`.
 *
 * "whole": createServices + createBot exactly as main.ts wires them (SQLite store, i18n, session,
 * conversations, every middleware and feature), only the flood limit raised.
 * "bare": a plain grammY bot with one /help command answering a fixed text.
 * Both are driven by @grammyjs/runner `run(bot, { runner: { silent: true } })`, as in production.
 */
import { Session } from "node:inspector/promises";
import { GCProfiler, getHeapSpaceStatistics } from "node:v8";
import { type RunnerHandle, run } from "@grammyjs/runner";
import { Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Services } from "../../src/process/services.ts";
import { CountingStore, STORE_READS, STORE_WRITES, type StoreOp } from "./counting-store.ts";
import { peerCounts, type StartPeer, startPeer } from "./peer-bot.ts";

export interface StartWhole {
  kind: "whole";
  token: string;
  apiRoot: string;
  botInfo: UserFromGetMe;
  exchange: { url: string; clientId: number; clientSecret: string };
  storeUrl: string;
  secretsKey: string;
  /** MARKET_DATA_*: the operator's market-data account, so prices need no logged-in user. */
  marketData?: { email: string; password: string; totpSecret: string };
  /** The flood limit as production has it (30 per 10 s) instead of one the driver cannot reach. */
  realFloodLimit?: boolean;
  /**
   * Sandbox accounts to log in before the bot starts (user id → account), through Sessions.login
   * as the login conversation does, before security notices are connected (a notice per login
   * would keep the delivery queue busy through the measured runs).
   */
  logins?: { accounts: Array<[userId: number, email: string]>; password: string; totpSecret: string };
}

export interface StartBare {
  kind: "bare";
  token: string;
  apiRoot: string;
  botInfo: UserFromGetMe;
  helpText: string;
}

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory outside the JS heap that JS objects hold (Buffers and the like). */
  external: number;
  /** resourceUsage().maxRSS, in bytes. */
  maxRss: number;
  /** process.cpuUsage(), user + system, in microseconds since the process started. */
  cpuUs: number;
  /** Reserved size of V8's young generation (both semi-spaces) and of its old space. */
  newSpace: number;
  oldSpace: number;
}

/** What the bot process did between countStart and countStop (see `counters`). */
export interface Counters {
  /** Store calls by operation; empty for the bare bot (it has no store). */
  store: Partial<Record<StoreOp, number>>;
  /** V8 garbage collections and their summed pause, in ms. */
  gcCount: number;
  gcMs: number;
  /** Bytes allocated on the V8 heap: what the GCs freed plus what the heap grew. */
  allocatedBytes: number;
  cpuUs: number;
}

export type BotProcessRequest =
  | { cmd: "start"; options: StartWhole | StartBare | StartPeer }
  | { cmd: "memory"; gc: boolean }
  | { cmd: "storeKeys" }
  | { cmd: "countStart" }
  | { cmd: "countStop" }
  | { cmd: "profileStart" }
  | { cmd: "profileStop" }
  | { cmd: "stop" };

let runner: RunnerHandle | undefined;
let bot: Bot | undefined;
let services: Services | undefined;
let drain: ((bot: never) => Promise<void>) | undefined;
let counting: CountingStore | undefined;
let closePeer: (() => Promise<void>) | undefined;

async function start(options: StartWhole | StartBare | StartPeer): Promise<void> {
  if (options.kind === "peer") {
    const peer = await startPeer(options);
    bot = peer.bot as unknown as Bot;
    closePeer = peer.close;
  } else if (options.kind === "bare") {
    const bare = new Bot(options.token, { client: { apiRoot: options.apiRoot }, botInfo: options.botInfo });
    bare.command("help", (ctx) => ctx.reply(options.helpText));
    bot = bare;
  } else {
    // Loaded only here, so the bare bot's process holds grammY and the runner, nothing of ours.
    const { createBot, drainUpdates } = await import("../../src/bot/bot.ts");
    const { systemClock } = await import("../../src/support/clock.ts");
    const { silentLogger } = await import("../../src/support/logger.ts");
    const { createServices } = await import("../../src/process/services.ts");
    drain = drainUpdates;
    services = await createServices(
      {
        exchange: options.exchange,
        storeUrl: options.storeUrl,
        secretsKey: options.secretsKey,
        defaultLocale: "en",
        telegramApiRoot: options.apiRoot,
        ...(options.marketData ? { marketData: options.marketData } : {}),
      },
      {
        clock: systemClock,
        log: silentLogger,
        wrapStore: (store) => {
          counting = new CountingStore(store);
          return counting;
        },
      },
    );
    bot = createBot(services.deps, {
      token: options.token,
      apiRoot: options.apiRoot,
      botInfo: options.botInfo,
      // The closed-loop driver sends far faster than a person; the flood limit would drop updates.
      ...(options.realFloodLimit ? {} : { floodLimit: { max: 1_000_000 } }),
      // As main.ts: a shared store (Redis) means several instances, so one update per chat at a time.
      chatLock: /^rediss?:/.test(options.storeUrl),
    }) as unknown as Bot;
    // As main.ts: security notices (a login's, with Freeze) go out through the delivery queue.
    const { createDelivery } = await import("../../src/notify/delivery.ts");
    const { securityNoticeSender } = await import("../../src/process/jobs.ts");
    if (options.logins) await logIn(services, options.logins);
    const delivery = createDelivery({ deps: services.deps, api: bot.api });
    services.securityNotices.connect(securityNoticeSender(services.deps, delivery.notifier));
  }
  runner = run(bot, { runner: { silent: true } });
}

/** Logs the accounts in, 50 at a time, each with the code of the moment (the sandbox's clock is real time). */
async function logIn(services: Services, logins: NonNullable<StartWhole["logins"]>): Promise<void> {
  const { generateSync } = await import("otplib");
  const { accounts, password, totpSecret } = logins;
  for (let i = 0; i < accounts.length; i += 50) {
    const securityCode = generateSync({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) });
    await Promise.all(
      accounts.slice(i, i + 50).map(async ([userId, email]) => {
        const outcome = await services.deps.sessions.login(userId, { email, password, securityCode });
        if (!outcome.ok) throw new Error(`login of ${userId} failed: ${JSON.stringify(outcome)}`);
      }),
    );
  }
}

/** The store calls counted so far: the whole stack's CountingStore, or the peer's session adapter. */
function storeCounts(): Record<StoreOp, number> | undefined {
  if (counting) return { ...counting.counts };
  if (closePeer === undefined) return undefined;
  const counts = {} as Record<StoreOp, number>;
  for (const op of [...STORE_READS, ...STORE_WRITES]) counts[op] = 0;
  return { ...counts, ...peerCounts };
}

function memory(gc: boolean): MemoryFigures {
  if (gc) (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    maxRss: process.resourceUsage().maxRSS * 1024,
    cpuUs: cpu.user + cpu.system,
    newSpace: space("new_space"),
    oldSpace: space("old_space"),
  };
}

function space(name: string): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size ?? 0;
}

/** Live keys in the store, counted by their first segment (`session`, `profile`, …). */
async function storeKeys(): Promise<Record<string, number>> {
  if (services === undefined) return {};
  // A reply goes out before the session is written back: let those writes finish first.
  if (bot !== undefined && drain !== undefined) await drain(bot as never);
  const counts: Record<string, number> = {};
  for (const key of await services.deps.store.keys("")) {
    const prefix = key.split(":")[0] ?? key;
    counts[prefix] = (counts[prefix] ?? 0) + 1;
  }
  return counts;
}

let gcProfiler: GCProfiler | undefined;
let countBase: { store: Record<StoreOp, number> | undefined; heapUsed: number; cpuUs: number } | undefined;

function countStart(): void {
  gcProfiler?.stop();
  gcProfiler = new GCProfiler();
  gcProfiler.start();
  const cpu = process.cpuUsage();
  countBase = {
    store: storeCounts(),
    heapUsed: process.memoryUsage().heapUsed,
    cpuUs: cpu.user + cpu.system,
  };
}

function countStop(): Counters {
  const data = gcProfiler?.stop();
  gcProfiler = undefined;
  if (countBase === undefined || data === undefined) throw new Error("countStart was not called");
  const cpu = process.cpuUsage();
  // Allocated = the heap's growth between the GCs plus after the last one; each GC's
  // before-figure minus the previous after-figure is what was allocated in between.
  let allocated = 0;
  let usedAfter = countBase.heapUsed;
  let gcUs = 0;
  for (const gc of data.statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - usedAfter;
    usedAfter = gc.afterGC.heapStatistics.usedHeapSize;
    gcUs += gc.cost;
  }
  allocated += process.memoryUsage().heapUsed - usedAfter;
  const store: Partial<Record<StoreOp, number>> = {};
  const now = storeCounts();
  if (now && countBase.store) {
    for (const op of Object.keys(now) as StoreOp[]) store[op] = now[op] - countBase.store[op];
  }
  return {
    store,
    gcCount: data.statistics.length,
    gcMs: gcUs / 1000,
    allocatedBytes: allocated,
    cpuUs: cpu.user + cpu.system - countBase.cpuUs,
  };
}

let inspector: Session | undefined;

/**
 * CPU profiling of a chosen stretch only (not start-up), through the inspector, and sampling of
 * where the JS heap allocations of that stretch were made (one sample per 16 KiB on average).
 */
async function profileStart(): Promise<void> {
  inspector = new Session();
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.setSamplingInterval", { interval: 200 });
  await inspector.post("HeapProfiler.enable");
  await inspector.post("HeapProfiler.startSampling", {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await inspector.post("Profiler.start");
}

async function profileStop(): Promise<{ cpu: unknown; heap: unknown }> {
  if (inspector === undefined) throw new Error("profileStart was not called");
  const { profile } = await inspector.post("Profiler.stop");
  const { profile: heap } = await inspector.post("HeapProfiler.stopSampling");
  inspector.disconnect();
  inspector = undefined;
  return { cpu: profile, heap };
}

async function stop(): Promise<void> {
  if (runner?.isRunning()) await runner.stop();
  if (bot !== undefined && drain !== undefined) await drain(bot as never);
  await services?.close();
  await closePeer?.();
}

async function handle(request: BotProcessRequest): Promise<unknown> {
  switch (request.cmd) {
    case "start":
      return start(request.options);
    case "memory":
      return memory(request.gc);
    case "storeKeys":
      return storeKeys();
    case "countStart":
      return countStart();
    case "countStop":
      return countStop();
    case "profileStart":
      return profileStart();
    case "profileStop":
      return profileStop();
    case "stop":
      return stop();
  }
}

process.on("message", (message: { id: number; request: BotProcessRequest }) => {
  handle(message.request).then(
    (result) => {
      process.send?.({ id: message.id, ok: true, result });
      if (message.request.cmd === "stop") process.disconnect();
    },
    (error: unknown) =>
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.stack : String(error),
      }),
  );
});
