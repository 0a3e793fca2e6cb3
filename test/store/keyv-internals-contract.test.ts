/**
 * What the store reads of Keyv, @keyv/sqlite and @keyv/redis below their documented API, so these
 * three are pinned to exact versions (ARCHITECTURE.md) and an upgrade that changes any of it fails
 * here first:
 * - Keyv's serialized form `{"value":…,"expires":ms}`: keyv-store.ts writes plain scalars without
 *   the serializer, compares stored text by its head `{"value":<JSON>`, parses plain JSON without
 *   the reviver; sqlite.ts reads and edits it in SQL (json_extract, json_set), redis.ts in Lua.
 * - Keyv's expiry rule (expired when now > expires), which the atomic operations repeat.
 * - Keyv with no namespace and `useKeyPrefix: false` stores the key it is given, as it is.
 * - @keyv/sqlite's table `keyv(key PRIMARY KEY, value TEXT)`, its `query(sql, ...params)`, and a
 *   SQLite with RETURNING and the JSON functions; its stock layout `namespace:key`.
 * - @keyv/redis: the value as Keyv serialized it under the key as given, with a native TTL (PX); its
 *   stock layout `namespace::key`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import KeyvRedis, { createClient, createKeyv, defaultReconnectStrategy } from "@keyv/redis";
import { KeyvSqlite } from "@keyv/sqlite";
import { Keyv } from "keyv";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pinOf } from "../support/pinned.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

/** Keyv as the store builds it: no namespace, no prefix of its own, errors thrown. */
function bareKeyv(store: Map<string, string> | KeyvSqlite | KeyvRedis<unknown>): Keyv {
  return new Keyv({ store, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
}

describe("the pins", () => {
  it.each(["keyv", "@keyv/sqlite", "@keyv/redis"])("%s: one exact version, the one installed", (name) => {
    const { asked, installed } = pinOf(name);
    expect(asked).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(asked);
  });
});

describe("Keyv's serialized form and expiry (keyv-store.ts, memory.ts)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('stores the key as given and the value as {"value":…,"expires":ms}, without expires when there is no TTL', async () => {
    vi.spyOn(Date, "now").mockReturnValue(1_767_225_600_000);
    const map = new Map<string, string>();
    const keyv = bareKeyv(map);
    await keyv.set("bot:a", { order: 1 }, 60_000);
    await keyv.set("bot:b", { order: 2 });
    expect([...map]).toEqual([
      ["bot:a", '{"value":{"order":1},"expires":1767225660000}'],
      ["bot:b", '{"value":{"order":2}}'],
    ]);
  });

  it("serializes a plain scalar as JSON.stringify does (plainEntry), and a value's head is the same with or without expires", async () => {
    const keyv = bareKeyv(new Map());
    const serialize = keyv.serialize;
    if (!serialize) throw new Error("Keyv has no serializer");
    for (const value of ["holder-1", "", 42, -7, 1.5, true, false, null])
      for (const expires of [undefined, 1_767_225_660_000])
        expect(await serialize({ value, expires })).toBe(JSON.stringify({ value, expires }));
    for (const value of [{ a: [1, "x"] }, "lock", 3]) {
      const bare = await serialize({ value, expires: undefined });
      const head = bare.slice(0, -1);
      expect(bare).toBe(`${head}}`);
      expect(head.startsWith('{"value":')).toBe(true);
      expect(await serialize({ value, expires: 99 })).toBe(`${head},"expires":99}`);
    }
  });

  it('escapes only strings that begin with ":" and Buffers, which parsePlain leaves to the deserializer', async () => {
    const keyv = bareKeyv(new Map());
    const serialize = keyv.serialize;
    const deserialize = keyv.deserialize;
    if (!serialize || !deserialize) throw new Error("Keyv has no serializer");
    expect(await serialize({ value: ":x", expires: undefined })).toBe('{"value":"::x"}');
    expect(await serialize({ value: Buffer.from("hi"), expires: undefined })).toBe(
      '{"value":":base64:aGk="}',
    );
    expect(await deserialize('{"value":"::x"}')).toEqual({ value: ":x" });
    // Text without those marks reads as plain JSON.parse reads it.
    for (const raw of ['{"value":1}', '{"value":{"a":[1,"b:c"]},"expires":5}', '{"value":"a::b"}'])
      expect(await deserialize(raw)).toEqual(JSON.parse(raw));
  });

  it("reads what the atomic operations write raw: an index row, a counter edited in place", async () => {
    const map = new Map([
      ["bot:#index:alerts|42", '{"value":1}'],
      ["bot:count", `{"value":3,"expires":${Date.now() + 60_000}}`],
    ]);
    const keyv = bareKeyv(map);
    expect(await keyv.get("bot:#index:alerts|42")).toBe(1);
    expect(await keyv.get("bot:count")).toBe(3);
  });

  it("expires a value when now is past expires, not at it (the atomic operations' rule)", async () => {
    const at = 1_767_225_600_000;
    const map = new Map([["bot:lease", `{"value":"holder","expires":${at}}`]]);
    const keyv = bareKeyv(map);
    vi.spyOn(Date, "now").mockReturnValue(at);
    expect(await keyv.get("bot:lease")).toBe("holder");
    vi.spyOn(Date, "now").mockReturnValue(at + 1);
    expect(await keyv.get("bot:lease")).toBeUndefined();
  });
});

describe("@keyv/sqlite's table and connection (sqlite.ts)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "keyv-sqlite-contract-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps keyv(key PRIMARY KEY, value TEXT), the key as given, and answers query(sql, ...params) with rows", async () => {
    const adapter = new KeyvSqlite({
      uri: `sqlite://${join(dir, "a.sqlite")}`,
      table: "keyv",
      busyTimeout: 1_000,
    });
    const keyv = bareKeyv(adapter);
    try {
      expect(typeof adapter.query).toBe("function");
      const query = adapter.query as (
        sql: string,
        ...params: unknown[]
      ) => Promise<Array<Record<string, unknown>>>;
      await keyv.set("bot:k", { ok: true });
      const columns = await query("PRAGMA table_info(keyv)");
      expect(columns.map(({ name, type, pk }) => ({ name, type, pk }))).toEqual([
        { name: "key", type: "VARCHAR(255)", pk: 1 },
        { name: "value", type: "TEXT", pk: 0 },
      ]);
      expect(await query("SELECT key, value FROM keyv WHERE key = ?1", "bot:k")).toEqual([
        { key: "bot:k", value: '{"value":{"ok":true}}' },
      ]);
      // What the atomic statements stand on: an upsert that says whether it wrote, the JSON functions.
      const written = await query(
        `INSERT INTO keyv (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = json_set(keyv.value, '$.value', json_extract(keyv.value, '$.value') + 1)
         RETURNING json_extract(value, '$.value') AS count`,
        "bot:n",
        '{"value":1,"expires":9}',
      );
      expect(written).toEqual([{ count: 1 }]);
      expect(
        await query(
          `INSERT INTO keyv (key, value) VALUES (?1, ?2)
           ON CONFLICT(key) DO UPDATE SET value = json_set(keyv.value, '$.value', json_extract(keyv.value, '$.value') + 1)
           RETURNING value`,
          "bot:n",
          '{"value":1,"expires":9}',
        ),
      ).toEqual([{ value: '{"value":2,"expires":9}' }]);
    } finally {
      await keyv.disconnect();
    }
  });

  it("lays a stock Keyv's keys out as namespace:key, the store's own layout", async () => {
    const file = join(dir, "stock.sqlite");
    const stock = new Keyv({ store: new KeyvSqlite(`sqlite://${file}`), namespace: "bot" });
    const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, table: "keyv" });
    try {
      await stock.set("k", 2);
      const query = adapter.query as (sql: string) => Promise<Array<Record<string, unknown>>>;
      expect(await query("SELECT key, value FROM keyv")).toEqual([{ key: "bot:k", value: '{"value":2}' }]);
    } finally {
      await stock.disconnect();
      await adapter.disconnect();
    }
  });
});

const available = redisAvailable();
if (!available) console.warn(redisUnavailableReason);

describe.skipIf(!available)("@keyv/redis's keys and values (redis.ts)", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("exports the client factory and the reconnect strategy redis.ts builds on", () => {
    expect(typeof createClient).toBe("function");
    expect(typeof defaultReconnectStrategy).toBe("function");
  });

  it("stores Keyv's text under the key as given, with a native TTL (PX)", async () => {
    vi.spyOn(Date, "now").mockReturnValue(1_767_225_600_000);
    const client = createClient({ url: server.url });
    const keyv = bareKeyv(new KeyvRedis(client, { namespace: undefined, throwOnErrors: true }));
    const reader = createClient({ url: server.url });
    await reader.connect();
    try {
      await keyv.set("bot::guard", { order: 1 }, 60_000);
      vi.restoreAllMocks();
      expect(await reader.get("bot::guard")).toBe('{"value":{"order":1},"expires":1767225660000}');
      const ttl = await reader.pTTL("bot::guard");
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await reader.keys("*")).toEqual(["bot::guard"]);
    } finally {
      vi.restoreAllMocks();
      await keyv.disconnect();
      await reader.close();
    }
  });

  it("lays a stock Keyv's keys out as namespace::key, the store's own layout", async () => {
    const stock = createKeyv(server.url, { namespace: "stock" });
    const reader = createClient({ url: server.url });
    await reader.connect();
    try {
      await stock.set("k", 2);
      expect(await reader.get("stock::k")).toBe('{"value":2}');
    } finally {
      await stock.disconnect();
      await reader.close();
    }
  });
});
