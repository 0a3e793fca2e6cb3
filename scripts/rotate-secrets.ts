/**
 * `npm run rotate-secrets` (src/chores/rotate-secrets.ts): runs the sources where they are (a checkout),
 * else the compiled dist/ (the Docker image carries no sources).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = join(import.meta.dirname, "..");
const source = join(root, "src/chores/rotate-secrets.ts");
const entry = existsSync(source) ? source : join(root, "dist/chores/rotate-secrets.js");
if (!existsSync(entry)) {
  console.error("dist/ is missing and there are no sources: run `npm ci && npm run build` first.");
  process.exit(1);
}
await import(pathToFileURL(entry).href);
