/**
 * `npm run backup [PATH]` (src/chores/backup.ts). Runs the sources where they are, and the compiled
 * dist/chores/backup.js where there are none (the Docker image: `docker exec <container> npm run backup`).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
await import(
  existsSync(join(root, "src/chores/backup.ts")) ? "../src/chores/backup.ts" : "../dist/chores/backup.js"
);
