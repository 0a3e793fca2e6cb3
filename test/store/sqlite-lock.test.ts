/**
 * One bot process per SQLite file (src/store/sqlite-lock.ts), with real `npm start` processes: a
 * second one on the same file stops at start-up with one sentence while the first goes on serving,
 * and a first one killed with SIGKILL (no shutdown, no cleanup) leaves no stale lock behind.
 */
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, it } from "vitest";
import { processWorld } from "../support/bot-process.ts";
import { buildForStart, outputOf, spawnStart, stopChild } from "../support/start-command.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

beforeAll(() => buildForStart(ROOT), 60_000);
const world = processWorld();

it("refuses a second process on one SQLite file with one sentence; a killed first one leaves no stale lock", async () => {
  const w = world();
  const user = w.telegram.user(501);
  const first = spawnStart(ROOT, w.env);
  const firstErr = outputOf(first, "stderr");
  try {
    await user.send("/start");
    await user.waitForReply(/Welcome/, 20_000);

    const second = spawnStart(ROOT, w.env);
    const secondErr = outputOf(second, "stderr");
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

  const third = spawnStart(ROOT, w.env);
  const thirdErr = outputOf(third, "stderr");
  try {
    await user.send("/help");
    expect((await user.waitForReply(/What I can do/, 20_000)).text).toContain("/balance");
  } finally {
    expect(await stopChild(third), thirdErr()).toBe(0);
  }
}, 90_000);
