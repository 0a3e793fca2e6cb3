/**
 * `npm start` as package.json's start script spells it: `NAME=value` words before `node` (the
 * environment it sets), then Node's flags, then the script. The Docker image must run the same
 * (test/production-graph.test.ts) and the benchmarks run the bot process with it (bench/lib/child.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "../../src/sandbox/server.ts";
import type { BotApiDouble } from "../../src/telegram-double/index.ts";

export interface StartCommand {
  env: Record<string, string>;
  nodeFlags: string[];
  script: string;
}

export function startCommand(root: string): StartCommand {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts?: { start?: string };
  };
  const words = (manifest.scripts?.start ?? "").split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  let word = words.shift();
  for (; word !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(word); word = words.shift()) {
    const at = word.indexOf("=");
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  const script = words.pop();
  if (word !== "node" || script === undefined || words.some((w) => !w.startsWith("--"))) {
    throw new Error(
      `package.json's start script is not "[NAME=value …] node [--flag …] script": ${manifest.scripts?.start}`,
    );
  }
  return { env, nodeFlags: words, script };
}

/**
 * Builds dist/ as `npm start` does first (its prestart script), once per state of the sources:
 * test files that start bot processes run in parallel, and a second build rewriting dist/ while
 * another file's bot process loads from it (its lazily imported modules too) could hand that
 * process a half-written file. So builds take turns (a lock directory), and a build of sources
 * already built is skipped. The lock and the note of what was built live in the temp folder.
 */
export function buildForStart(root: string): void {
  const name = createHash("sha256").update(root).digest("hex").slice(0, 16);
  const lock = join(tmpdir(), `bot-build-${name}.lock`);
  const stamp = join(tmpdir(), `bot-build-${name}.built`);
  takeLock(lock);
  try {
    const sources = sourcesHash(root);
    const built = existsSync(stamp) ? readFileSync(stamp, "utf8") : "";
    if (built === sources && existsSync(join(root, "dist/main.js"))) return;
    execFileSync(process.execPath, ["scripts/prestart.ts"], { cwd: root, stdio: "inherit" });
    writeFileSync(stamp, sources);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** What the build reads: every file under src/, the tsconfigs and package.json. */
function sourcesHash(root: string): string {
  const hash = createHash("sha256");
  const files = readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .concat(["tsconfig.json", "tsconfig.build.json", "package.json"].map((file) => join(root, file)));
  for (const file of files) hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/** Waits (synchronously: beforeAll hooks call this) for the lock; a lock older than 2 min is stale. */
function takeLock(lock: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 100);
    }
  }
}

/**
 * What `npm start` runs once dist/ is built: Node with the start script's flags, environment and
 * script, as a child process whose stderr the caller reads (npm itself left out: it would stand
 * between the test and the bot's exit status and signals).
 */
export function spawnStart(
  root: string,
  env: Record<string, string | undefined>,
  options: { stdout?: boolean } = {},
): ChildProcess {
  const start = startCommand(root);
  return spawn(process.execPath, [...start.nodeFlags, start.script], {
    cwd: root,
    env: { ...env, ...start.env },
    // Read stdout (the log) only when the test reads it: an unread pipe fills and stalls the bot.
    stdio: ["ignore", options.stdout ? "pipe" : "ignore", "pipe"],
  });
}

/** Sends SIGTERM and resolves with the exit code. */
export async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const [code] = await exited;
  return code as number | null;
}

/** Collects the child's stderr; the returned function gives what came so far. */
export function stderrOf(child: ChildProcess): () => string {
  return outputOf(child, "stderr");
}

/** Collects what the child writes on one of its pipes (stdout: its log, when spawned to pipe it). */
export function outputOf(child: ChildProcess, stream: "stdout" | "stderr"): () => string {
  let text = "";
  child[stream]?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/**
 * Resolves once `url` answers 200 (the child's HTTP server is up); rejects when the child exits
 * first or nothing answers within `timeoutMs`.
 */
export async function waitUntilServing(child: ChildProcess, url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the bot process exited (${child.exitCode ?? child.signalCode}) before serving ${url}`);
    }
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing answered 200 at ${url} within ${timeoutMs} ms`);
}

/** The environment `npm start` needs to run against the sandbox and the Bot API double, quietly. */
export function startEnv(parts: {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  secretsKey: string;
  storeUrl: string;
}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    BOT_TOKEN: parts.telegram.token,
    TELEGRAM_API_ROOT: parts.telegram.apiRoot,
    EXCHANGE_API_URL: parts.sandbox.url,
    EXCHANGE_CLIENT_ID: String(parts.sandbox.clientId),
    EXCHANGE_CLIENT_SECRET: parts.sandbox.clientSecret,
    SECRETS_KEY: parts.secretsKey,
    STORE_URL: parts.storeUrl,
    LOG_LEVEL: "silent",
    // The HTTP server (/healthz, /readyz) runs in polling mode too: any free port, unless a test
    // needs to know it and sets PORT itself.
    PORT: "0",
  };
}
