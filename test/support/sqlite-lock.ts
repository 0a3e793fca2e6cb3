import { spawn } from "node:child_process";
import { once } from "node:events";

/**
 * Another process holding SQLite's write lock on `file` until released. A separate process, because
 * SQLite's POSIX locks do not separate two SQLite libraries loaded into one process.
 */
export async function holdWriteLock(file: string): Promise<{ release: () => Promise<void> }> {
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    process.stdout.write("locked\\n");
    process.stdin.once("data", () => { db.exec("ROLLBACK"); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ["--no-warnings", "-e", script, file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await once(child.stdout, "data");
  return {
    release: async () => {
      if (child.exitCode !== null) return;
      child.stdin.write("go\n");
      await once(child, "exit");
    },
  };
}
