import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHAT_READ_PREFIXES } from "../../src/process/services.ts";
import { cachedStore, entryBytes } from "../../src/store/cached.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/store.ts";
import { updateReads } from "../../src/store/update-reads.ts";

/** A SQLite file as services.ts stacks it: update reads over the cache over the store, statements counted. */
async function stack(file: string, maxBytes?: number) {
  const statements: Array<["prepare" | "run", string]> = [];
  const store: Store = await openSqliteStore(file, {
    namespace: "bot",
    onError: () => {},
    onStatement: (event, sql) => statements.push([event, sql]),
  });
  const cached = cachedStore(store, {
    prefixes: Object.fromEntries(CHAT_READ_PREFIXES.map((prefix) => [prefix, "untimed"])),
    ...(maxBytes === undefined ? {} : { maxBytes }),
  });
  const reads = updateReads(cached, { prefixes: CHAT_READ_PREFIXES });
  /** What one update of chat `id` reads: each of its keys, one after the other, as the middleware does. */
  const update = (id: number) =>
    reads.scope(async () => {
      const values: unknown[] = [];
      for (const prefix of CHAT_READ_PREFIXES) values.push(await reads.store.get(`${prefix}${id}`));
      return values;
    });
  const runs = () => statements.filter(([event]) => event === "run").map(([, sql]) => sql);
  const prepares = () => statements.filter(([event]) => event === "prepare").map(([, sql]) => sql);
  return { store, update, statements, runs, prepares };
}

describe("a chat's per-update reads on SQLite", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "chat-reads-"));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("reads all of a chat's keys in one statement, prepared once for every chat", async () => {
    const s = await stack(join(folder, "bot.sqlite"));
    try {
      await s.store.set("session:1", { step: "a" });
      await s.store.set("session:2", { step: "b" });
      s.statements.length = 0;
      expect((await s.update(1))[0]).toEqual({ step: "a" });
      expect((await s.update(2))[0]).toEqual({ step: "b" });
      const runs = s.runs();
      expect(runs).toHaveLength(2);
      for (const sql of runs) expect(sql).toMatch(/WHERE key IN \(\?(, \?){5}\)/);
      expect(s.prepares()).toHaveLength(1);
      // Cached now: the chat's next update reads nothing from SQLite.
      s.statements.length = 0;
      await s.update(1);
      expect(s.runs()).toEqual([]);
    } finally {
      await s.store.close();
    }
  });

  it("a chat the cache let go costs one statement again, not one per key", async () => {
    // Room for about one chat's keys: each new chat pushes the one before out.
    const bytes = CHAT_READ_PREFIXES.reduce(
      (total, prefix) => total + entryBytes(`${prefix}1`, undefined),
      0,
    );
    const s = await stack(join(folder, "bot.sqlite"), bytes + 50);
    try {
      for (let id = 1; id <= 3; id++) await s.update(id);
      s.statements.length = 0;
      for (let id = 1; id <= 3; id++) await s.update(id);
      expect(s.runs()).toHaveLength(3);
      expect(s.prepares()).toEqual([]);
    } finally {
      await s.store.close();
    }
  });

  it("sees every write that returned, from the reading connection", async () => {
    const s = await stack(join(folder, "bot.sqlite"));
    try {
      await s.store.set("session:9", { n: 1 });
      expect(await s.store.getMany(["session:9", "paused:9"])).toEqual([{ n: 1 }, undefined]);
      await s.store.set("session:9", { n: 2 });
      expect(await s.store.get("session:9")).toEqual({ n: 2 });
      await s.store.delete("session:9");
      expect(await s.store.getMany(["session:9", "session:9"])).toEqual([undefined, undefined]);
    } finally {
      await s.store.close();
    }
  });
});
