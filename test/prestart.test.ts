/**
 * `npm start`'s first step (scripts/prestart.ts) where the dev dependencies were left out: the
 * dist/ built before runs as it is, and without one the step stops with a sentence. (With the
 * compiler installed it builds dist/: test/npm-start.test.ts starts the bot that way.)
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("npm start's build step without the dev dependencies", () => {
  // The sources and their build settings, but no node_modules: no compiler.
  const app = mkdtempSync(join(tmpdir(), "prestart-"));
  cpSync(join(ROOT, "scripts"), join(app, "scripts"), { recursive: true });
  cpSync(join(ROOT, "tsconfig.build.json"), join(app, "tsconfig.build.json"));
  afterEach(() => rmSync(join(app, "dist"), { recursive: true, force: true }));

  const prestart = () => spawnSync(process.execPath, ["scripts/prestart.ts"], { cwd: app, encoding: "utf8" });

  it("runs the dist/ built before", () => {
    mkdirSync(join(app, "dist/process"), { recursive: true });
    writeFileSync(join(app, "dist/process/main.js"), "");
    const run = prestart();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("stops with a sentence when there is no dist/ either", () => {
    const run = prestart();
    expect(run.stderr).toBe(
      "dist/ is missing and TypeScript is not installed here: run `npm ci && npm run build` first.\n",
    );
    expect(run.status).toBe(1);
  });
});

/**
 * A compiler in the place of TypeScript's that writes its output as any compiler may, only with a
 * wide window: every file half, a pause of 400 ms, then the rest, so that a start reading dist/
 * during a build meets half-written modules. (It compiles only what these tests write:
 * `export const value: number = N` and imports of `./x.ts`.)
 */
const SLOW_TSC = `
const fs = require("node:fs");
const args = process.argv.slice(2);
const out = args.includes("--outDir") ? args[args.indexOf("--outDir") + 1] : "dist";
fs.mkdirSync(out + "/process", { recursive: true });
const files = fs.readdirSync("src/process").sort().map((name) => ({
  js: fs.readFileSync("src/process/" + name, "utf8").replace(/: number/g, "").replace(/\\.ts"/g, '.js"'),
  fd: fs.openSync(out + "/process/" + name.replace(/\\.ts$/, ".js"), "w"),
}));
for (const { js, fd } of files) fs.writeSync(fd, js.slice(0, js.length / 2));
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
for (const { js, fd } of files) {
  fs.writeSync(fd, js.slice(js.length / 2));
  fs.closeSync(fd);
}
`;

/**
 * Two `npm start`s at once from one folder (a process manager running two instances): each runs
 * prestart, then its dist/process/main.js. One build wrote dist/ in place while the other already ran
 * from it, and crashed on a half-written module.
 */
describe("two npm starts at once from one folder", () => {
  const MODULES = 100;
  const app = mkdtempSync(join(tmpdir(), "prestart-twice-"));
  cpSync(join(ROOT, "scripts"), join(app, "scripts"), { recursive: true });
  for (const file of ["tsconfig.json", "tsconfig.build.json"]) cpSync(join(ROOT, file), join(app, file));
  mkdirSync(join(app, "node_modules/typescript/bin"), { recursive: true });
  writeFileSync(join(app, "node_modules/typescript/package.json"), JSON.stringify({ name: "typescript" }));
  writeFileSync(join(app, "node_modules/typescript/bin/tsc"), SLOW_TSC);
  writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module", private: true }));
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  /** Sources whose main prints the sum of every module's value (each is `version`). */
  function writeSources(version: number): void {
    mkdirSync(join(app, "src/process"), { recursive: true });
    const names = Array.from({ length: MODULES }, (_, i) => `m${i}`);
    for (const name of names) {
      writeFileSync(join(app, `src/process/${name}.ts`), `export const value: number = ${version};\n`);
    }
    const imports = names.map((name) => `import { value as ${name} } from "./${name}.ts";`).join("\n");
    writeFileSync(join(app, "src/process/main.ts"), `${imports}\nconsole.log(${names.join(" + ")});\n`);
  }

  const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** prestart, then the built bot, as `npm start` runs them; resolves with the exit code and output. */
  function start(): Promise<{ code: number | null; output: string }> {
    const child = spawn("sh", ["-c", `"$NODE" scripts/prestart.ts && "$NODE" dist/process/main.js`], {
      cwd: app,
      env: { ...process.env, NODE: process.execPath },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
  }

  it("both build or wait for the other's build, and both run the whole of it", async () => {
    writeSources(1);
    const first = await Promise.all([start(), start()]);
    expect(first).toEqual([
      { code: 0, output: `${MODULES}\n` },
      { code: 0, output: `${MODULES}\n` },
    ]);
    // Changed sources: dist/ is rebuilt while it exists, the case that crashed.
    writeSources(2);
    // The starts a moment apart, as a process manager starts them: one reads dist/ while another builds.
    const second = await Promise.all([0, 300, 600].map((delay) => later(delay).then(start)));
    for (const run of second) expect(run).toEqual({ code: 0, output: `${2 * MODULES}\n` });
    expect(readdirSync(app).filter((name) => name.startsWith("dist"))).toEqual(["dist"]);
  }, 120_000);

  it("skips a build of the sources dist/ was built from", () => {
    writeSources(3);
    expect(spawnSync(process.execPath, ["scripts/prestart.ts"], { cwd: app }).status).toBe(0);
    const built = statSync(join(app, "dist/process/main.js")).mtimeMs;
    expect(spawnSync(process.execPath, ["scripts/prestart.ts"], { cwd: app }).status).toBe(0);
    expect(statSync(join(app, "dist/process/main.js")).mtimeMs).toBe(built);
  }, 60_000);
});
