/**
 * `npm run backup` (scripts/backup.ts → src/chores/backup.ts): a consistent copy of the SQLite store taken
 * while a real bot process (`npm start`'s build) writes to it, run as in the image (dist/, no
 * sources); it opens, passes SQLite's integrity check and holds every user stored before it
 * began. Redis, an existing target and a missing store are refused with one sentence each.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type ProcessWorld, processWorld } from "./support/bot-process.ts";
import { buildForStart, outputOf, spawnStart, stopChild } from "./support/start-command.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** `npm run backup [args]` as package.json spells it, from `dir`, with this STORE_URL. */
function backup(dir: string, storeUrl: string, args: string[] = []) {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [node, script] = (manifest.scripts.backup ?? "").split(" ");
  expect(node).toBe("node");
  return spawn(process.execPath, [script ?? "", ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, STORE_URL: storeUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The session keys in a SQLite store file, read as they are on disk. */
function sessionKeys(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true, timeout: 5_000 });
  try {
    return db
      .prepare("SELECT key FROM keyv WHERE key LIKE 'bot:session:%' ORDER BY key")
      .all()
      .map((row) => String(row.key));
  } finally {
    db.close();
  }
}

describe("npm run backup", () => {
  const world = processWorld();
  let w: ProcessWorld;
  /** As in the image: scripts/ beside a built dist/, and no src/. */
  let image: string;
  beforeAll(() => {
    buildForStart(ROOT);
    w = world();
    image = join(w.folder, "image");
    mkdirSync(join(image, "scripts"), { recursive: true });
    copyFileSync(join(ROOT, "scripts/backup.ts"), join(image, "scripts/backup.ts"));
    copyFileSync(join(ROOT, "package.json"), join(image, "package.json"));
    for (const folder of ["dist", "node_modules"])
      symlinkSync(join(ROOT, folder), join(image, folder), "dir");
  }, 60_000);

  it("copies the store while the bot writes to it; the copy opens and holds the data", async () => {
    const store = join(w.folder, "bot.sqlite");
    const bot = spawnStart(ROOT, w.env);
    const botErr = outputOf(bot, "stderr");
    try {
      const before = Array.from({ length: 100 }, (_, i) => w.telegram.user(10_000 + i));
      await Promise.all(before.map((user) => user.send("/start")));
      await Promise.all(before.map((user) => user.waitForReply(/Welcome/, 20_000)));

      // 300 more users; the backup starts once 20 of them are answered, while the rest are handled.
      const during = Array.from({ length: 300 }, (_, i) => w.telegram.user(20_000 + i));
      let answered = 0;
      const replies = Promise.all(
        during.map(async (user) => {
          await user.send("/start");
          await user.waitForReply(/Welcome/, 30_000);
          answered++;
        }),
      );
      await expect.poll(() => answered, { timeout: 20_000 }).toBeGreaterThanOrEqual(20);
      const stored = sessionKeys(store);
      const copy = backup(image, w.env.STORE_URL ?? "", [join(w.folder, "copy.sqlite")]);
      const out = outputOf(copy, "stdout");
      const err = outputOf(copy, "stderr");
      const [code] = await once(copy, "exit");
      expect(code, err()).toBe(0);
      expect(out()).toMatch(
        new RegExp(`^Backed up ${store} to ${join(w.folder, "copy.sqlite")} \\(\\d+ bytes\\)\\.\\n$`),
      );
      await replies;
      // Each session is written right after its reply: all 400 reach the disk.
      await expect.poll(() => sessionKeys(store).length, { timeout: 10_000 }).toBe(400);

      const db = new DatabaseSync(join(w.folder, "copy.sqlite"), { readOnly: true });
      try {
        expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      } finally {
        db.close();
      }
      const copied = sessionKeys(join(w.folder, "copy.sqlite"));
      expect(stored.filter((key) => !copied.includes(key))).toEqual([]);
      expect(stored.length).toBeGreaterThanOrEqual(100);
      expect(copied.length).toBeLessThanOrEqual(400);
      expect(readdirSync(w.folder).filter((name) => name.endsWith(".partial"))).toEqual([]);
    } finally {
      expect(await stopChild(bot), botErr()).toBe(0);
    }
  }, 90_000);

  it("without a path, writes a timestamped file beside the store", () => {
    const store = join(w.folder, "bot.sqlite");
    const ran = spawnSync(process.execPath, ["scripts/backup.ts"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, STORE_URL: `sqlite://${store}` },
      encoding: "utf8",
    });
    expect(ran.stderr).toBe("");
    const made = /^Backed up \S+ to (\S+\/bot\.backup-\d{8}-\d{6}\.sqlite) \(\d+ bytes\)\.\n$/.exec(
      ran.stdout,
    );
    expect(made?.[1]?.startsWith(`${w.folder}/`)).toBe(true);
    expect(sessionKeys(made?.[1] ?? "")).toHaveLength(400);
  });

  it("refuses Redis, an existing target and a missing store with one sentence each", async () => {
    const refused = async (storeUrl: string, args: string[] = []) => {
      const child = backup(ROOT, storeUrl, args);
      const err = outputOf(child, "stderr");
      const [code] = await once(child, "exit");
      return { code, err: err() };
    };
    expect(await refused("redis://127.0.0.1:6379")).toEqual({
      code: 1,
      err: "STORE_URL names Redis: npm run backup copies a SQLite store only; back Redis up from its own persistence files (appendonly.aof and dump.rdb, deploy/README.md).\n",
    });
    const target = join(w.folder, "copy.sqlite");
    expect(await refused(`sqlite://${join(w.folder, "bot.sqlite")}`, [target])).toEqual({
      code: 1,
      err: `${target} already exists: a backup never overwrites a file.\n`,
    });
    const missing = join(w.folder, "none.sqlite");
    expect(await refused(`sqlite://${missing}`)).toEqual({
      code: 1,
      err: `There is no SQLite store at ${missing}: nothing to back up.\n`,
    });
  });
});
