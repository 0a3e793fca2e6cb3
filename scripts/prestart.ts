/**
 * `npm start`'s first step: compile src/ to dist/ so the bot runs what the sources say. Where there
 * is nothing to compile with (the dev dependencies left out: `npm ci && npm run build && npm prune
 * --omit=dev` on a server; or no sources: the Docker image), the dist/ built before runs as it is.
 * Without one either, one sentence says what to do.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const tsc = join(root, "node_modules/typescript/bin/tsc");

if (existsSync(tsc) && existsSync(join(root, "tsconfig.build.json"))) {
  const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  process.exit(built.status ?? 1);
}
if (!existsSync(join(root, "dist/main.js"))) {
  console.error(
    "dist/ is missing and TypeScript is not installed here: run `npm ci && npm run build` first.",
  );
  process.exit(1);
}
