/**
 * `npm start` as package.json's start script spells it: `NAME=value` words before `node` (the
 * environment it sets), then Node's flags, then the script. The Docker image must run the same
 * (test/production-graph.test.ts) and the benchmarks run the bot process with it (bench/lib/child.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
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
 * The tree `npm start` runs, in a folder of its own: dist/ compiled as its prestart compiles it,
 * with the package.json, locales and node_modules it runs with. For test files that start bot
 * processes while another file may be rebuilding the worktree's dist/ (they would read a
 * half-written build). `spawnStart(tree.dir, env)` runs it.
 */
export function buildStartTree(root: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "bot-start-tree-"));
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", join(dir, "dist")], {
    cwd: root,
    stdio: "inherit",
  });
  copyFileSync(join(root, "package.json"), join(dir, "package.json"));
  symlinkSync(join(root, "locales"), join(dir, "locales"), "dir");
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What `npm start` runs once dist/ is built: Node with the start script's flags, environment and
 * script, as a child process whose stderr the caller reads (npm itself left out: it would stand
 * between the test and the bot's exit status and signals). With `stdout: "pipe"` the caller
 * reads the log lines too (and must keep reading them, or the bot blocks on a full pipe).
 */
export function spawnStart(
  root: string,
  env: Record<string, string | undefined>,
  options: { stdout?: "pipe" | "ignore" } = {},
): ChildProcess {
  const start = startCommand(root);
  return spawn(process.execPath, [...start.nodeFlags, start.script], {
    cwd: root,
    env: { ...env, ...start.env },
    stdio: ["ignore", options.stdout ?? "ignore", "pipe"],
  });
}
