/** Parent side of `bot-process.ts`: fork it, send it commands, stop it. */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { once } from "node:events";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Vault } from "../../src/store/vault.ts";
import { startCommand } from "../../test/support/start-command.ts";
import type { BotProcessRequest, Counters, MemoryFigures, StartBare, StartWhole } from "./bot-process.ts";
import type { Env } from "./env.ts";
import type { StartPeer } from "./peer-bot.ts";

export interface BotProcess {
  pid: number;
  memory(options?: { gc?: boolean }): Promise<MemoryFigures>;
  storeKeys(): Promise<Record<string, number>>;
  /** Counts store calls, GCs and allocation between these two calls; the second returns them. */
  countStart(): Promise<void>;
  countStop(): Promise<Counters>;
  /** CPU profiling of the bot process between these two calls; the second returns the profile. */
  profileStart(): Promise<void>;
  profileStop(): Promise<unknown>;
  /** Stops the runner, lets in-flight updates finish, closes the store; waits for the exit. */
  stop(): Promise<void>;
}

/**
 * The Node flags and the environment `npm start` runs with (package.json's start script), so the
 * whole stack runs as in production; BENCH_NODE_FLAGS replaces the flags, to try others, and a
 * variable already set in this process's environment wins over the script's. The bare bot runs
 * with Node's defaults: what the flags cost (GC time) shows in the whole stack's figures.
 */
export function startSettings(): { flags: string[]; env: Record<string, string> } {
  const start = startCommand(ROOT);
  const given = process.env.BENCH_NODE_FLAGS;
  return {
    flags: given !== undefined ? given.split(/\s+/).filter(Boolean) : start.nodeFlags,
    env: start.env,
  };
}

/**
 * The bare bot's Node flags: none (Node's defaults, as a bare bot is run), or BENCH_BARE_FLAGS, to
 * see what a set of flags costs grammY alone (e.g. `npm start`'s, which the whole stack runs with).
 */
function bareFlags(): string[] {
  return (process.env.BENCH_BARE_FLAGS ?? "").split(/\s+/).filter(Boolean);
}

const ROOT = join(import.meta.dirname, "../..");
const OUT = join(ROOT, "bench/.out");
let compiled = false;

/**
 * Compiles `bot-process.ts` and the sources it loads to JavaScript in bench/.out (once per run),
 * as `npm start` runs dist/: forked as a .ts file, the bot process would carry Node's type
 * stripping (~30 MiB RSS, bench/README.md) that production does not. Both bots run this build,
 * so the bare one pays what the whole stack pays for being JavaScript compiled the same way.
 */
export function compileBotProcess(): void {
  if (compiled) return;
  rmSync(OUT, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "bench/tsconfig.child.json"],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  // src/bot/i18n.ts finds the locales as ../../locales from itself, as it does from dist/.
  cpSync(join(ROOT, "locales"), join(OUT, "locales"), { recursive: true });
  compiled = true;
}

/**
 * The whole stack (createServices + createBot) over a store (`sqlite://FILE` or `redis://…`), against
 * this run's double and sandbox.
 */
export function startWholeBot(
  env: Env,
  storeUrl: string,
  options: { marketData?: boolean; out?: string } & Pick<StartWhole, "realFloodLimit" | "logins"> = {},
): Promise<BotProcess> {
  const { telegram, sandbox } = env;
  return startBotProcess(
    {
      kind: "whole",
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl,
      secretsKey: Vault.generateKey(),
      ...(options.marketData ? { marketData: { ...sandbox.demo } } : {}),
      ...(options.realFloodLimit ? { realFloodLimit: true } : {}),
      ...(options.logins ? { logins: options.logins } : {}),
    },
    options.out,
  );
}

/**
 * Forks the compiled bot process (see `compileBotProcess`) with --expose-gc, for heap figures after
 * a GC, and the whole stack also with the flags of `npm start`; then starts the bot in it.
 */
/**
 * `out`: another build of the bot process (a copy of bench/.out made from an earlier commit), so
 * one run can put the code before a change beside the code after it (bench/users.ts,
 * BENCH_BEFORE_OUT).
 */
export async function startBotProcess(
  options: StartWhole | StartBare | StartPeer,
  out = OUT,
): Promise<BotProcess> {
  compileBotProcess();
  const whole = options.kind === "whole";
  const settings = startSettings();
  const child = fork(join(out, "bench/lib/bot-process.js"), [], {
    execArgv: ["--expose-gc", ...(whole ? settings.flags : bareFlags())],
    env: whole ? { ...settings.env, ...process.env } : process.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const call = rpc(child);
  await call({ cmd: "start", options });
  return {
    pid: child.pid ?? 0,
    countStart: () => call({ cmd: "countStart" }) as Promise<void>,
    countStop: () => call({ cmd: "countStop" }) as Promise<Counters>,
    profileStart: () => call({ cmd: "profileStart" }) as Promise<void>,
    profileStop: () => call({ cmd: "profileStop" }),
    memory: (o = {}) => call({ cmd: "memory", gc: o.gc ?? false }) as Promise<MemoryFigures>,
    storeKeys: () => call({ cmd: "storeKeys" }) as Promise<Record<string, number>>,
    async stop() {
      const exited = child.exitCode !== null ? Promise.resolve() : once(child, "exit");
      await call({ cmd: "stop" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function rpc(child: ChildProcess): (request: BotProcessRequest) => Promise<unknown> {
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on("message", (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(`bot process: ${message.error}`));
  });
  child.on("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`bot process exited (${code})`));
    pending.clear();
  });
  return (request) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, request });
    });
}
