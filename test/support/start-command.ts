/**
 * `npm start` as package.json's start script spells it: `NAME=value` words before `node` (the
 * environment it sets), then Node's flags, then the script. The Docker image must run the same
 * (test/production-graph.test.ts) and the benchmarks run the bot process with it (bench/lib/child.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";

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

/** Builds dist/ as `npm start` does first (its prestart script). */
export function buildForStart(root: string): void {
  execFileSync(process.execPath, ["scripts/prestart.ts"], { cwd: root, stdio: "inherit" });
}

/**
 * What `npm start` runs once dist/ is built: Node with the start script's flags, environment and
 * script, as a child process whose stderr the caller reads (npm itself left out: it would stand
 * between the test and the bot's exit status and signals).
 */
export function spawnStart(root: string, env: Record<string, string | undefined>): ChildProcess {
  const start = startCommand(root);
  return spawn(process.execPath, [...start.nodeFlags, start.script], {
    cwd: root,
    env: { ...env, ...start.env },
    stdio: ["ignore", "ignore", "pipe"],
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
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return () => stderr;
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
