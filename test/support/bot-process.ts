/**
 * What a test needs around real bot processes (`spawnStart`): a sandbox exchange, a Bot API double
 * and a store folder of their own, the environment `npm start` reads to use them, and the child's
 * output and exit.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Vault } from "../../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";
import { buildStartTree } from "./start-command.ts";

export interface ProcessWorld {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  /** A folder for store files, removed by close(). */
  folder: string;
  /** What `npm start` reads: the double, the sandbox, a fresh SECRETS_KEY, a SQLite file in `folder`. */
  env: Record<string, string | undefined>;
  close(): Promise<void>;
}

/**
 * Starts the sandbox and the double; `extra` is added to (or replaces) the environment.
 *
 * @example
 * const w = await startProcessWorld({ LOG_LEVEL: "warn" });
 * const child = spawnStart(ROOT, w.env);
 */
export async function startProcessWorld(extra: Record<string, string> = {}): Promise<ProcessWorld> {
  const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  const telegram = await startBotApiDouble({ token: "123456789:TEST-double-token-for-npm-start" });
  const folder = mkdtempSync(join(tmpdir(), "bot-start-"));
  return {
    sandbox,
    telegram,
    folder,
    env: {
      PATH: process.env.PATH,
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      EXCHANGE_API_URL: sandbox.url,
      EXCHANGE_CLIENT_ID: String(sandbox.clientId),
      EXCHANGE_CLIENT_SECRET: sandbox.clientSecret,
      SECRETS_KEY: Vault.generateKey(),
      STORE_URL: `sqlite://${join(folder, "bot.sqlite")}`,
      LOG_LEVEL: "silent",
      ...extra,
    },
    async close() {
      await telegram.close();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Everything the child wrote on one of its pipes so far (stderr by default). */
export function outputOf(child: ChildProcess, stream: "stderr" | "stdout" = "stderr"): () => string {
  let text = "";
  child[stream]?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** SIGTERM (unless it already exited), then its exit code. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const [code] = await exited;
  return code as number | null;
}

/**
 * For a file or describe block: `npm start`'s tree built in a folder of its own (`buildStartTree`)
 * and a world, ready inside its tests and removed after them.
 *
 * @example
 * const ready = startTreeAndWorld(ROOT);
 * it("…", () => { const { tree, w } = ready(); spawnStart(tree.dir, w.env); });
 */
export function startTreeAndWorld(
  root: string,
  extra: Record<string, string> = {},
): () => { tree: ReturnType<typeof buildStartTree>; w: ProcessWorld } {
  let tree: ReturnType<typeof buildStartTree> | undefined;
  let w: ProcessWorld | undefined;
  beforeAll(async () => {
    tree = buildStartTree(root);
    w = await startProcessWorld(extra);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
    tree?.remove();
  });
  return () => {
    if (tree === undefined || w === undefined)
      throw new Error("startTreeAndWorld() is ready only inside its tests");
    return { tree, w };
  };
}
