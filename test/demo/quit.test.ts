/**
 * `:quit` ends the demo in a real terminal. Piped input ends by itself; a terminal's stdin stays
 * open after readline closes and kept the process alive ("Bye." and no exit). `script` (util-linux)
 * gives the demo a pseudo-terminal; stdin stays open, so only :quit can end it.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("the demo in a terminal", () => {
  it("exits after :quit while its terminal stays open", async () => {
    const demo = spawn(
      "script",
      ["-qfec", `${JSON.stringify(process.execPath)} src/demo/main.ts`, "/dev/null"],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: "silent", DEMO_FILES_DIR: join(tmpdir(), "demo-quit-files") },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let screen = "";
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (screen.includes(text)) resolve();
        };
        demo.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          screen += chunk;
          check();
        });
        check();
      });
    const exited = once(demo, "exit");
    try {
      await seen("you> ");
      demo.stdin.write(":quit\n");
      const [code] = await exited;
      expect(screen).toContain("Bye.");
      expect(code).toBe(0);
    } finally {
      if (demo.exitCode === null) demo.kill("SIGKILL");
    }
  }, 60_000);
});
