/**
 * Leaving the demo: `:quit` in a real terminal (a terminal's stdin stays open after readline
 * closes and kept the process alive: "Bye." and no exit), and Ctrl-C, which behaves like `:quit`
 * ("Bye.", exit status 0, the temporary store removed) where it once exited with 130 and left the
 * store behind. `script` (util-linux) gives the demo a pseudo-terminal.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const hasScript = spawnSync("script", ["--version"]).status === 0;
const scratch = mkdtempSync(join(tmpdir(), "demo-quit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The demo as a child process, with a temp folder of its own (TMPDIR) to see its store go. */
function startDemo(inTerminal: boolean): {
  demo: ChildProcess;
  temp: string;
  seen(text: string): Promise<void>;
  screen(): string;
} {
  const temp = mkdtempSync(join(scratch, "tmp-"));
  const env = { ...process.env, LOG_LEVEL: "silent", TMPDIR: temp, DEMO_FILES_DIR: join(temp, "files") };
  const main = `${JSON.stringify(process.execPath)} src/demo/main.ts`;
  const demo = inTerminal
    ? spawn("script", ["-qfec", main, "/dev/null"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(process.execPath, ["src/demo/main.ts"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  const waiting: Array<() => void> = [];
  demo.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
    for (const check of waiting) check();
  });
  const seen = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (screen.includes(text)) resolve();
      };
      waiting.push(check);
      check();
    });
  return { demo, temp, seen, screen: () => screen };
}

/** The demo's own temporary store folders left in its TMPDIR. */
const storesLeft = (temp: string) =>
  readdirSync(temp).filter((name) => name.startsWith("exchange-bot-demo-"));

describe.skipIf(!hasScript)("the demo in a terminal", () => {
  it("exits after :quit while its terminal stays open", async () => {
    const { demo, seen, screen } = startDemo(true);
    const exited = once(demo, "exit");
    try {
      await seen("you> ");
      demo.stdin?.write(":quit\n");
      const [code] = await exited;
      expect(screen()).toContain("Bye.");
      expect(code).toBe(0);
    } finally {
      if (demo.exitCode === null) demo.kill("SIGKILL");
    }
  }, 60_000);

  it("leaves on Ctrl-C as on :quit: Bye., exit status 0, its temporary store removed", async () => {
    const { demo, temp, seen, screen } = startDemo(true);
    const exited = once(demo, "exit");
    try {
      await seen("you> ");
      expect(storesLeft(temp)).toHaveLength(1);
      demo.stdin?.write("\x03");
      const [code] = await exited;
      expect(screen()).toContain("Bye.");
      expect(code).toBe(0);
      expect(storesLeft(temp)).toEqual([]);
    } finally {
      if (demo.exitCode === null) demo.kill("SIGKILL");
    }
  }, 60_000);
});

describe("the demo with piped input", () => {
  it("leaves on SIGINT as on :quit", async () => {
    const { demo, temp, seen, screen } = startDemo(false);
    const exited = once(demo, "exit");
    try {
      await seen("└─");
      demo.kill("SIGINT");
      const [code] = await exited;
      expect(screen()).toContain("Bye.");
      expect(code).toBe(0);
      expect(storesLeft(temp)).toEqual([]);
    } finally {
      if (demo.exitCode === null) demo.kill("SIGKILL");
    }
  }, 60_000);
});
