import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { KeyvSqlite } from "@keyv/sqlite";
import { Keyv } from "keyv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { holdWriteLock } from "../support/sqlite-lock.ts";
import { describeStoreContract } from "./contract.ts";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bot-store-sqlite-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeStoreContract("sqlite", {
  // Every open is a separate connection to the same file, as two processes would have.
  open: (namespace) => openStore(`sqlite://${join(dir, "contract.sqlite")}`, { namespace }),
});

describe("sqlite:// specifics", () => {
  it("creates the folder, accepts a path relative to the working directory, and runs in WAL mode", async () => {
    const file = join(dir, "nested", "deeper", "bot.sqlite");
    const store = await openStore(`sqlite://${relative(process.cwd(), file)}`);
    await store.set("k", "v");
    expect(existsSync(file)).toBe(true);
    // The write-ahead log exists while a connection is open in WAL mode.
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
  });

  it("writes what a stock Keyv over @keyv/sqlite reads, and reads what it writes", async () => {
    const file = join(dir, "interop.sqlite");
    const store = await openStore(`sqlite://${file}`, { namespace: "bot" });
    const stock = new Keyv({ store: new KeyvSqlite(`sqlite://${file}`), namespace: "bot" });
    await store.setIfAbsent("guard", { order: 1 }, 60_000);
    await store.increment("count", 60_000);
    expect(await stock.get("guard")).toEqual({ order: 1 });
    expect(await stock.get("count")).toBe(1);
    await stock.set("from-keyv", { ok: true });
    expect(await store.get("from-keyv")).toEqual({ ok: true });
    await stock.disconnect();
    await store.close();
  });

  it("fails loudly (rejects) when the file cannot be a database", async () => {
    const file = join(dir, "not-a-db.sqlite");
    await writeFile(file, "this is not a SQLite file, just some text that is long enough to have a header.");
    await expect(openStore(`sqlite://${file}`)).rejects.toThrow();
  });

  it("waits for another process's write lock (busy timeout), and rejects when it is never released", async () => {
    const file = join(dir, "busy.sqlite");
    const store = await openStore(`sqlite://${file}`);
    await store.set("k", 1);
    try {
      const shortLock = await holdWriteLock(file);
      setTimeout(() => shortLock.release(), 300);
      await store.set("k", 2); // waits for the lock, then succeeds
      expect(await store.get("k")).toBe(2);

      // The same file with a short busy timeout: SQLite waits it out in real time, 5 s by default.
      const impatient = await openSqliteStore(file, {
        namespace: "bot",
        onError: () => {},
        busyTimeoutMs: 300,
      });
      const lock = await holdWriteLock(file);
      const started = performance.now();
      // Through Keyv too (Keyv would swallow it without throwOnErrors): rejected, never silently dropped.
      // One write only: the connection runs statements one after another, each would wait its timeout.
      const result = await impatient.set("k", 3).then(
        () => "resolved",
        (error: unknown) => String(error),
      );
      await lock.release();
      await impatient.close();
      expect(result).toMatch(/SQLITE_BUSY/);
      // It waited for the lock before giving up (a lower bound: a slow machine only waits longer).
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(await store.get("k")).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("refuses an empty path", async () => {
    await expect(openStore("sqlite://")).rejects.toThrow(/sqlite:\/\/data\/bot.sqlite/);
  });

  it("opens without loading the Redis backend or its client (a fresh process lists what it loaded)", () => {
    const storeModule = fileURLToPath(new URL("../../src/store/open-store.ts", import.meta.url));
    const script = `import { registerHooks } from "node:module";
      const loaded = [];
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
      const { openStore } = await import(${JSON.stringify(storeModule)});
      const store = await openStore(${JSON.stringify(`sqlite://${join(dir, "lazy.sqlite")}`)});
      await store.set("k", 1);
      await store.close();
      console.log(JSON.stringify(loaded));`;
    const run = spawnSync(process.execPath, ["--no-warnings", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded.some((url) => url.endsWith("/src/store/sqlite.ts"))).toBe(true);
    expect(loaded.some((url) => url.includes("/node_modules/@keyv/sqlite/"))).toBe(true);
    expect(
      loaded.filter((url) => /\/src\/store\/redis\.ts$|\/node_modules\/(@keyv\/redis|@redis)\//.test(url)),
    ).toEqual([]);
  });
});
