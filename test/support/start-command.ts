/**
 * `npm start` as package.json's start script spells it: `NAME=value` words before `node` (the
 * environment it sets), then Node's flags, then the script. The Docker image must run the same
 * (test/production-graph.test.ts) and the benchmarks run the bot process with it (bench/lib/child.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
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

/**
 * The environment a bot process needs against a sandbox and a Bot API double (no store, no log
 * level: each test says its own).
 */
export function botEnvironment(
  sandbox: { url: string; clientId: number; clientSecret: string },
  telegram: { token: string; apiRoot: string },
  secretsKey: string,
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    EXCHANGE_API_URL: sandbox.url,
    EXCHANGE_CLIENT_ID: String(sandbox.clientId),
    EXCHANGE_CLIENT_SECRET: sandbox.clientSecret,
    SECRETS_KEY: secretsKey,
  };
}
