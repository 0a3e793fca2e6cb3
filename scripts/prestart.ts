/**
 * `npm start`'s first step: compile src/ to dist/ so the bot runs what the sources say. Where there
 * is nothing to compile with (the dev dependencies left out: `npm ci && npm run build && npm prune
 * --omit=dev` on a server; or no sources: the Docker image), the dist/ built before runs as it is.
 * Without one either, one sentence says what to do.
 *
 * Several starts from one folder at once (a process manager running two instances) must not see a
 * half-written dist/: builds take turns (a lock directory beside dist/), a build of sources already
 * built is skipped (dist/ keeps a hash of what it was built from), and a build is compiled into a
 * folder of its own and renamed into place only when complete.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const tsc = join(root, "node_modules/typescript/bin/tsc");
const dist = join(root, "dist");
const lock = join(root, "dist.lock");
const STAMP = ".built-from";
/** A build takes seconds; a lock this old, or whose process is gone, was left by a crash. */
const STALE_LOCK_MS = 10 * 60_000;

if (existsSync(tsc) && existsSync(join(root, "tsconfig.build.json"))) {
  takeLock();
  let status = 0;
  try {
    status = buildUnlessCurrent();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  process.exit(status);
}
if (!existsSync(join(dist, "process", "main.js"))) {
  console.error(
    "dist/ is missing and TypeScript is not installed here: run `npm ci && npm run build` first.",
  );
  process.exit(1);
}

function buildUnlessCurrent(): number {
  const sources = sourcesHash();
  const stamp = join(dist, STAMP);
  if (
    existsSync(join(dist, "process", "main.js")) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === sources
  )
    return 0;
  const fresh = join(root, `dist.building-${process.pid}`);
  rmSync(fresh, { recursive: true, force: true });
  const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", fresh], {
    cwd: root,
    stdio: "inherit",
  });
  if (built.status !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    return built.status ?? 1;
  }
  writeFileSync(join(fresh, STAMP), sources);
  // A directory cannot be renamed over a full one: the old build steps aside first, for a moment
  // in which only a start that skipped this script's lock could look.
  const old = join(root, `dist.old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(fresh, dist);
  rmSync(old, { recursive: true, force: true });
  return 0;
}

/** What the build reads: every file under src/, the tsconfigs, package.json and the compiler's version. */
function sourcesHash(): string {
  const hash = createHash("sha256");
  const files = readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .concat(
      ["tsconfig.json", "tsconfig.build.json", "package.json", "node_modules/typescript/package.json"]
        .map((file) => join(root, file))
        .filter((file) => existsSync(file)),
    );
  for (const file of files) hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/** Waits for the build lock (a directory: made or not, atomically), taking over one left by a crash. */
function takeLock(): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockIsStale()) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 100);
    }
  }
}

function lockIsStale(): boolean {
  const made = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  if (made === undefined) return false;
  if (Date.now() - made > STALE_LOCK_MS) return true;
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // Not written yet, or the lock was just given back.
  }
  // The holder writes its pid right after making the lock: give it that moment.
  if (!Number.isInteger(pid)) return Date.now() - made > 5_000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
