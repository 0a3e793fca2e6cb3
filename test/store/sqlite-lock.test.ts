/**
 * One bot process per SQLite file (src/store/sqlite-lock.ts), with real `npm start` processes: a
 * second one on the same file stops at start-up with one sentence while the first goes on serving,
 * and a first one killed with SIGKILL (no shutdown, no cleanup) leaves no stale lock behind.
 */
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { outputOf, startTreeAndWorld, stopProcess } from "../support/bot-process.ts";
import { spawnStart } from "../support/start-command.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const ready = startTreeAndWorld(ROOT);

it("refuses a second process on one SQLite file with one sentence; a killed first one leaves no stale lock", async () => {
  const { tree, w } = ready();
  const user = w.telegram.user(501);
  const first = spawnStart(tree.dir, w.env);
  const firstErr = outputOf(first);
  try {
    await user.send("/start");
    await user.waitForReply(/Welcome/, 20_000);

    const second = spawnStart(tree.dir, w.env);
    const secondErr = outputOf(second);
    const [code] = await once(second, "exit");
    expect(code).toBe(1);
    expect(secondErr()).toBe(
      `Another bot process is already running on ${join(w.folder, "bot.sqlite")}: stop it first, or give this one its own STORE_URL (one process per SQLite file; several instances need Redis).\n`,
    );
    await user.send("/help");
    expect((await user.waitForReply(/What I can do/)).text).toContain("/balance");
  } finally {
    first.kill("SIGKILL");
    if (first.exitCode === null && first.signalCode === null) await once(first, "exit");
  }
  expect(firstErr()).toBe("");

  const third = spawnStart(tree.dir, w.env);
  const thirdErr = outputOf(third);
  try {
    await user.send("/help");
    expect((await user.waitForReply(/What I can do/, 20_000)).text).toContain("/balance");
  } finally {
    expect(await stopProcess(third), thirdErr()).toBe(0);
  }
}, 90_000);
