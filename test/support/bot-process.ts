/**
 * What a test needs around real bot processes (`spawnStart`): a sandbox exchange, a Bot API double
 * and a store folder of their own, and the environment `npm start` reads to use them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Vault } from "../../src/store/vault.ts";
import { type BotApiDouble, startBotApiDouble } from "../../src/telegram-double/index.ts";
import { startEnv } from "./start-command.ts";

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
  const storeUrl = `sqlite://${join(folder, "bot.sqlite")}`;
  return {
    sandbox,
    telegram,
    folder,
    env: { ...startEnv({ sandbox, telegram, secretsKey: Vault.generateKey(), storeUrl }), ...extra },
    async close() {
      await telegram.close();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * For a file or a describe block: a world ready inside its tests and closed after them.
 *
 * @example
 * const w = processWorld();
 * it("…", () => { spawnStart(ROOT, w().env); });
 */
export function processWorld(extra: Record<string, string> = {}): () => ProcessWorld {
  let current: ProcessWorld | undefined;
  beforeAll(async () => {
    current = await startProcessWorld(extra);
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (current === undefined) throw new Error("processWorld() is ready only inside its tests");
    return current;
  };
}
