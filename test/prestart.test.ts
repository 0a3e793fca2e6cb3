/**
 * `npm start`'s first step (scripts/prestart.ts) where the dev dependencies were left out: the
 * dist/ built before runs as it is, and without one the step stops with a sentence. (With the
 * compiler installed it builds dist/: test/npm-start.test.ts starts the bot that way.)
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("npm start's build step without the dev dependencies", () => {
  // The sources and their build settings, but no node_modules: no compiler.
  const app = mkdtempSync(join(tmpdir(), "prestart-"));
  cpSync(join(ROOT, "scripts"), join(app, "scripts"), { recursive: true });
  cpSync(join(ROOT, "tsconfig.build.json"), join(app, "tsconfig.build.json"));
  afterEach(() => rmSync(join(app, "dist"), { recursive: true, force: true }));

  const prestart = () => spawnSync(process.execPath, ["scripts/prestart.ts"], { cwd: app, encoding: "utf8" });

  it("runs the dist/ built before", () => {
    mkdirSync(join(app, "dist"));
    writeFileSync(join(app, "dist/main.js"), "");
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
