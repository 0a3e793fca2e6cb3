/**
 * `npm run backup [PATH]` (src/backup.ts). Runs the sources where they are, and the compiled
 * dist/backup.js where there are none (the Docker image: `docker exec <container> npm run backup`).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
await import(existsSync(join(root, "src/backup.ts")) ? "../src/backup.ts" : "../dist/backup.js");
