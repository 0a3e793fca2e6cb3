/**
 * The Store contract: one suite, run against every backend (memory, SQLite, Redis), so they cannot
 * drift apart. A backend provides `open(namespace)`, which opens a NEW Store instance on the SAME
 * data each call; two instances on one namespace stand for two processes (two bot instances).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../src/store/store.ts";

/** How the contract reaches one backend. */
export interface StoreBackend {
  /** Starts what the backend needs (a temp dir, a redis-server). */
  setup?(): Promise<void>;
  /** A new Store instance over the shared data, keys under `namespace`. */
  open(namespace: string): Promise<Store>;
  /**
   * Lets `ms` pass for what the backend keeps on its own clock (Redis expires keys by the server's
   * time). The stores' own reads of the time follow the contract's fake `Date`.
   */
  passTime?(namespace: string, ms: number): Promise<void>;
  teardown?(): Promise<void>;
}

/**
 * TTLs passed on a fake `Date` (and the backend's own clock), never slept through. Redis keeps
 * counting real time under the test, so they are long enough that a loaded machine's real
 * milliseconds between two steps never decide an outcome.
 */
const shortTtl = 60_000;
const pastShortTtl = 135_000;

let namespaceCounter = 0;

/**
 * Declares the contract suite for one backend.
 *
 * @example
 * describeStoreContract("memory", { open: (namespace) => openStore("memory://contract", { namespace }) });
 */
export function describeStoreContract(
  name: string,
  backend: StoreBackend,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip ?? false)(`Store contract: ${name}`, () => {
    const opened: Store[] = [];
    let namespace = "";

    /** A Store on this test's own namespace; call twice for two instances on the same data. */
    async function open(): Promise<Store> {
      const store = await backend.open(namespace);
      opened.push(store);
      return store;
    }

    beforeAll(async () => {
      await backend.setup?.();
    });
    afterAll(async () => {
      await backend.teardown?.();
    });
    // Each test gets a fresh namespace, so tests never see each other's keys.
    afterEach(async () => {
      vi.useRealTimers();
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    /** Stops the store's clock (`Date`, nothing else: I/O still runs on real timers). */
    function stopTime(): void {
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    }

    /** Moves the stopped clock forward by `ms`, and the backend's own clock with it. */
    async function pass(ms: number): Promise<void> {
      vi.setSystemTime(Date.now() + ms);
      await backend.passTime?.(namespace, ms);
    }
    const test = (title: string, body: () => Promise<void>) =>
      it(title, async () => {
        namespace = `t${process.pid}x${++namespaceCounter}x${Date.now().toString(36)}`;
        await body();
      });

    test("get, set, overwrite and delete", async () => {
      const store = await open();
      expect(await store.get("missing")).toBeUndefined();
      await store.set("user:1", { name: "Ada" });
      expect(await store.get("user:1")).toEqual({ name: "Ada" });
      await store.set("user:1", { name: "Grace" });
      expect(await store.get("user:1")).toEqual({ name: "Grace" });
      expect(await store.delete("user:1")).toBe(true);
      expect(await store.get("user:1")).toBeUndefined();
      expect(await store.delete("user:1")).toBe(false);
    });

    test("values with nested objects survive, in their JSON form", async () => {
      const store = await open();
      const value = {
        nested: { deeper: { list: [1, "two", { three: 3 }], empty: {}, none: null } },
        decimal: "100.50",
        colon: ":starts-with-colon",
        base64ish: ":base64:aGVsbG8=",
        unicode: "Grüße 🚀",
        flag: false,
        zero: 0,
      };
      await store.set("v", value);
      expect(await store.get("v")).toEqual(value);
      await store.set("s", ":lonely colon");
      expect(await store.get("s")).toBe(":lonely colon");
      await store.set("n", null);
      expect(await store.get("n")).toBeNull();
      await store.set("d", { at: new Date("2026-01-01T00:00:00Z") });
      expect(await store.get("d")).toEqual({ at: "2026-01-01T00:00:00.000Z" });
      // A second instance reads exactly what the first wrote.
      const other = await open();
      expect(await other.get("v")).toEqual(value);
    });

    test("refuses values and TTLs it cannot keep", async () => {
      const store = await open();
      await expect(store.set("k", undefined)).rejects.toThrow(TypeError);
      await expect(store.set("k", () => 1)).rejects.toThrow(TypeError);
      await expect(store.set("k", 1, 0)).rejects.toThrow(RangeError);
      await expect(store.set("k", 1, -5)).rejects.toThrow(RangeError);
      await expect(store.setIfAbsent("k", 1, Number.NaN)).rejects.toThrow(RangeError);
      await expect(store.increment("k", 0)).rejects.toThrow(RangeError);
      await expect(store.get("")).rejects.toThrow(TypeError);
    });

    test("TTL: entries expire for get, delete, keys, setIfAbsent and increment", async () => {
      const store = await open();
      stopTime();
      await store.set("short", "gone soon", shortTtl);
      await store.set("long", "stays", 10 * pastShortTtl);
      await store.set("forever", "stays");
      expect(await store.setIfAbsent("guard", "first", shortTtl)).toBe(true);
      expect(await store.increment("count", shortTtl)).toBe(1);
      expect(await store.increment("count", shortTtl)).toBe(2);
      expect(await store.get("short")).toBe("gone soon");

      await pass(pastShortTtl);

      expect(await store.get("short")).toBeUndefined();
      expect(await store.get("long")).toBe("stays");
      expect(await store.get("forever")).toBe("stays");
      expect(await store.keys("")).toEqual(["forever", "long"]);
      // An expired key counts as absent: the guard can be taken again, the counter restarts.
      expect(await store.setIfAbsent("guard", "second")).toBe(true);
      expect(await store.get("guard")).toBe("second");
      expect(await store.increment("count", 60_000)).toBe(1);
      expect(await store.delete("short")).toBe(false);
    });

    test("setIfAbsent: only the first writer wins, and a live key is kept", async () => {
      const store = await open();
      expect(await store.setIfAbsent("confirm:n1", { order: "a" }, 60_000)).toBe(true);
      expect(await store.setIfAbsent("confirm:n1", { order: "b" }, 60_000)).toBe(false);
      expect(await store.get("confirm:n1")).toEqual({ order: "a" });
      await store.set("plain", 1);
      expect(await store.setIfAbsent("plain", 2)).toBe(false);
      expect(await store.get("plain")).toBe(1);
    });

    test("setIfAbsent: 100 concurrent calls from two instances on one key, exactly one true", async () => {
      const a = await open();
      const b = await open();
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 === 0 ? a : b).setIfAbsent("confirm:race", { by: i }, 60_000),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(await a.get("confirm:race")).toEqual({ by: winner });
      expect(await b.get("confirm:race")).toEqual({ by: winner });
    });

    test("increment: 50 concurrent from two instances count to 50, each number once", async () => {
      const a = await open();
      const b = await open();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).increment("login-fails:42", 60_000)),
      );
      expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await a.get("login-fails:42")).toBe(50);
    });

    test("increment: the TTL is set when the counter is created, not extended", async () => {
      const store = await open();
      stopTime();
      expect(await store.increment("c", shortTtl)).toBe(1);
      await pass(shortTtl / 2);
      expect(await store.increment("c", 10 * pastShortTtl)).toBe(2);
      await pass(pastShortTtl - shortTtl / 2);
      expect(await store.get("c")).toBeUndefined();
      expect(await store.increment("c", 10 * pastShortTtl)).toBe(1);
    });

    test("increment: a value that is not an integer counter is refused, and left alone", async () => {
      const store = await open();
      await store.set("text", "hello");
      await expect(store.increment("text", 60_000)).rejects.toThrow(/not a counter/);
      expect(await store.get("text")).toBe("hello");
      await store.set("half", 1.5);
      await expect(store.increment("half", 60_000)).rejects.toThrow(/not a counter/);
      await store.set("counter", 41);
      expect(await store.increment("counter", 60_000)).toBe(42);
    });

    test("deleteIfEquals: deletes only the expected value", async () => {
      const store = await open();
      expect(await store.deleteIfEquals("lock", "me")).toBe(false);
      await store.set("lock", "someone-else", 60_000);
      expect(await store.deleteIfEquals("lock", "me")).toBe(false);
      expect(await store.get("lock")).toBe("someone-else");
      expect(await store.deleteIfEquals("lock", "someone-else")).toBe(true);
      expect(await store.get("lock")).toBeUndefined();
      // Deep equality of the JSON forms: key order does not matter, types do.
      await store.set("obj", { a: 1, b: [1, 2] });
      expect(await store.deleteIfEquals("obj", { a: "1", b: [1, 2] })).toBe(false);
      expect(await store.deleteIfEquals("obj", { b: [1, 2], a: 1 })).toBe(true);
    });

    test("deleteIfEquals: the value as it was written, with or without a TTL, strings that need escaping", async () => {
      const store = await open();
      stopTime();
      for (const value of [
        "holder-1",
        ":colon first",
        'quote " and \\ slash',
        { b: 2, a: [1, "x"] },
        7,
        null,
      ]) {
        await store.set("k", value, shortTtl);
        expect(await store.deleteIfEquals("k", value)).toBe(true);
        expect(await store.get("k")).toBeUndefined();
        await store.set("k", value);
        expect(await store.deleteIfEquals("k", value)).toBe(true);
        expect(await store.get("k")).toBeUndefined();
      }
      // A value that starts like the expected one is not it.
      await store.set("k", "holder-10", shortTtl);
      expect(await store.deleteIfEquals("k", "holder-1")).toBe(false);
      await store.set("k", { a: 1, b: 2 });
      expect(await store.deleteIfEquals("k", { a: 1 })).toBe(false);
      // An expired value is not there to delete.
      await store.set("k", "holder-2", shortTtl);
      await pass(pastShortTtl);
      expect(await store.deleteIfEquals("k", "holder-2")).toBe(false);
    });

    test("getMany: several keys at once, each as get reads it", async () => {
      const store = await open();
      stopTime();
      await store.set("a", { n: 1 });
      await store.set("b", ":colon", shortTtl);
      await store.set("c", "gone soon", shortTtl);
      await store.set("d", "stays", 10 * pastShortTtl);
      expect(await store.getMany([])).toEqual([]);
      expect(await store.getMany(["a", "missing", "b", "a"])).toEqual([
        { n: 1 },
        undefined,
        ":colon",
        { n: 1 },
      ]);
      await pass(pastShortTtl);
      expect(await store.getMany(["c", "d", "a"])).toEqual([undefined, "stays", { n: 1 }]);
      const other = await open();
      expect(await other.getMany(["a"])).toEqual([{ n: 1 }]);
    });

    test("setIfAbsentThenGetMany: the keys read only when it set, as getMany reads them", async () => {
      const store = await open();
      stopTime();
      const value = { nested: [1, ":colon", { b: ":base64:aGk=" }], flag: true };
      await store.set("session:1", value);
      await store.set("flag:1", ":lonely colon", shortTtl);
      await store.set("gone:1", "soon", shortTtl);
      await pass(pastShortTtl);
      const keys = ["session:1", "missing:1", "flag:1", "gone:1"];
      expect(await store.setIfAbsentThenGetMany("lock:1", "holder-a", 10 * pastShortTtl, keys)).toEqual([
        value,
        undefined,
        undefined,
        undefined,
      ]);
      await store.set("flag:1", ":lonely colon");
      // Taken: nothing read, nothing changed.
      expect(await store.setIfAbsentThenGetMany("lock:1", "holder-b", shortTtl, keys)).toBeUndefined();
      expect(await store.get("lock:1")).toBe("holder-a");
      expect(await store.deleteIfEquals("lock:1", "holder-a")).toBe(true);
      const other = await open();
      expect(await other.setIfAbsentThenGetMany("lock:1", ":holder-b", shortTtl, ["flag:1"])).toEqual([
        ":lonely colon",
      ]);
      expect(await other.setIfAbsentThenGetMany("lock:2", 7, shortTtl, [])).toEqual([]);
      // The lease runs out like any TTL; a value with a colon is released as written.
      await pass(pastShortTtl);
      expect(await store.setIfAbsentThenGetMany("lock:1", "holder-c", shortTtl, [])).toEqual([]);
      expect(await store.deleteIfEquals("lock:1", "holder-c")).toBe(true);
      await expect(store.setIfAbsentThenGetMany("lock:3", "h", 0, [])).rejects.toThrow(RangeError);
    });

    test("setIfAbsentThenGetMany: 50 concurrent calls from two instances on one key, exactly one reads", async () => {
      const a = await open();
      const b = await open();
      await a.set("session:9", { n: 9 });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? a : b).setIfAbsentThenGetMany("lock:9", `h${i}`, 60_000, ["session:9"]),
        ),
      );
      const winners = results.flatMap((r, i) => (r ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(results[winners[0] as number]).toEqual([{ n: 9 }]);
      expect(await b.get("lock:9")).toBe(`h${winners[0]}`);
    });

    test("deleteIfEquals: concurrent releases from two instances, exactly one true", async () => {
      const a = await open();
      const b = await open();
      expect(await a.setIfAbsent("lock", "token-1", 60_000)).toBe(true);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).deleteIfEquals("lock", "token-1")),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await b.setIfAbsent("lock", "token-2", 60_000)).toBe(true);
    });

    test("extendIfEquals: only the holder's live value gets a fresh TTL", async () => {
      const a = await open();
      const b = await open();
      stopTime();
      expect(await a.extendIfEquals("lease", "me", shortTtl)).toBe(false);
      expect(await a.get("lease")).toBeUndefined();
      await a.set("lease", "someone-else", shortTtl);
      expect(await a.extendIfEquals("lease", "me", 10 * pastShortTtl)).toBe(false);
      expect(await b.setIfAbsent("mine", { holder: "me" }, shortTtl)).toBe(true);
      await pass(shortTtl / 2);
      // Renewed by the other instance, from now: it outlives its first TTL.
      expect(await a.extendIfEquals("mine", { holder: "me" }, shortTtl)).toBe(true);
      await pass(shortTtl * 0.75);
      expect(await b.get("mine")).toEqual({ holder: "me" });
      expect(await a.get("lease")).toBeUndefined();
      // One that ran out is not brought back.
      await pass(pastShortTtl);
      expect(await a.extendIfEquals("mine", { holder: "me" }, shortTtl)).toBe(false);
      expect(await b.setIfAbsent("mine", { holder: "next" }, shortTtl)).toBe(true);
      await expect(a.extendIfEquals("mine", { holder: "next" }, 0)).rejects.toThrow(RangeError);
    });

    test("extendIfEquals: concurrent with a release and a new holder, never revives the old lease", async () => {
      const a = await open();
      const b = await open();
      for (let round = 0; round < 10; round++) {
        expect(await a.setIfAbsent("chat", `old-${round}`, 60_000)).toBe(true);
        const [, , taken] = await Promise.all([
          a.extendIfEquals("chat", `old-${round}`, 60_000),
          a.deleteIfEquals("chat", `old-${round}`),
          (async () => {
            while (!(await b.setIfAbsent("chat", `new-${round}`, 60_000))) {}
            return true;
          })(),
        ]);
        expect(taken).toBe(true);
        expect(await a.get("chat")).toBe(`new-${round}`);
        expect(await a.extendIfEquals("chat", `old-${round}`, 60_000)).toBe(false);
        expect(await b.deleteIfEquals("chat", `new-${round}`)).toBe(true);
      }
    });

    test("replaceIfEquals: replaces only the expected value and keeps the expiry", async () => {
      stopTime();
      const store = await open();
      const other = await open();
      expect(await store.replaceIfEquals("absent", "a", "b")).toBe(false);
      expect(await store.get("absent")).toBeUndefined();
      await store.set("sealed", { token: "old", at: 1 }, shortTtl);
      expect(await store.replaceIfEquals("sealed", { token: "other", at: 1 }, { token: "new", at: 1 })).toBe(
        false,
      );
      expect(await store.get("sealed")).toEqual({ token: "old", at: 1 });
      // Deep equality of the JSON forms, as deleteIfEquals; another instance sees the new value.
      expect(await store.replaceIfEquals("sealed", { at: 1, token: "old" }, { token: "new", at: 1 })).toBe(
        true,
      );
      expect(await other.get("sealed")).toEqual({ token: "new", at: 1 });
      // The TTL is the old one: the replaced value still expires when the first one would have.
      await pass(pastShortTtl);
      expect(await store.get("sealed")).toBeUndefined();
      expect(await other.replaceIfEquals("sealed", { token: "new", at: 1 }, "late")).toBe(false);
      // Without a TTL, none is added.
      await store.set("forever", "a");
      expect(await store.replaceIfEquals("forever", "a", "b")).toBe(true);
      await pass(pastShortTtl * 10);
      expect(await other.get("forever")).toBe("b");
    });

    test("replaceIfEquals: two instances racing on one value, exactly one wins", async () => {
      const a = await open();
      const b = await open();
      await a.set("v", "v0");
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).replaceIfEquals("v", "v0", `v${i + 1}`)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true) + 1;
      expect(await b.get("v")).toBe(`v${winner}`);
    });

    test("keys(prefix): live keys with that literal prefix, sorted, in this namespace only", async () => {
      const store = await open();
      await store.set("alert:42:b", 1);
      await store.set("alert:42:a", 1);
      await store.set("alert:420:a", 1);
      await store.set("alert:7:a", 1);
      await store.set("pending:42:x", 1);
      await store.set("ALERT:42:c", 1);
      await store.set("a_b:1", 1);
      await store.set("axb:1", 1);
      await store.set("a*:1", 1);
      expect(await store.keys("alert:42:")).toEqual(["alert:42:a", "alert:42:b"]);
      // Sorted by code unit, as Array#sort does: "0" comes before ":".
      expect(await store.keys("alert:")).toEqual(["alert:420:a", "alert:42:a", "alert:42:b", "alert:7:a"]);
      // Wildcard characters of LIKE and glob are taken literally.
      expect(await store.keys("a_b")).toEqual(["a_b:1"]);
      expect(await store.keys("a*")).toEqual(["a*:1"]);
      expect(await store.keys("nothing:")).toEqual([]);
      const otherNamespace = await backend.open(`${namespace}other`);
      opened.push(otherNamespace);
      expect(await otherNamespace.keys("")).toEqual([]);
      expect(await otherNamespace.get("alert:42:a")).toBeUndefined();
    });

    test("indexes: a record and its members are written together, listed sorted, not as keys", async () => {
      const store = await open();
      await store.setIndexed("alert:42:b", { level: 1 }, undefined, [
        { index: "alerts", member: "42:b" },
        { index: "alerts:42", member: "b" },
      ]);
      await store.setIndexed("alert:42:a", { level: 2 }, 10 * shortTtl, [
        { index: "alerts", member: "42:a" },
        { index: "alerts:42", member: "a" },
      ]);
      await store.setIndexed("alert:7:a", { level: 3 }, undefined, [{ index: "alerts", member: "7:a" }]);
      expect(await store.get("alert:42:a")).toEqual({ level: 2 });
      expect(await store.indexMembers("alerts")).toEqual(["42:a", "42:b", "7:a"]);
      expect(await store.indexMembers("alerts:42")).toEqual(["a", "b"]);
      expect(await store.indexMembers("alerts:4")).toEqual([]);
      // Writing again adds nothing twice; indexes are not keys.
      await store.setIndexed("alert:7:a", { level: 4 }, undefined, [{ index: "alerts", member: "7:a" }]);
      expect(await store.indexMembers("alerts")).toEqual(["42:a", "42:b", "7:a"]);
      expect(await store.keys("")).toEqual(["alert:42:a", "alert:42:b", "alert:7:a"]);
      // Another instance sees them; another namespace does not.
      const other = await open();
      expect(await other.indexMembers("alerts:42")).toEqual(["a", "b"]);
      const otherNamespace = await backend.open(`${namespace}other`);
      opened.push(otherNamespace);
      expect(await otherNamespace.indexMembers("alerts")).toEqual([]);
      await expect(store.indexMembers("no spaces")).rejects.toThrow(TypeError);
      await expect(store.addToIndex("alerts", "")).rejects.toThrow(TypeError);
    });

    test("indexes: unindex removes a member only when its record is gone (deleted or expired)", async () => {
      const store = await open();
      stopTime();
      await store.setIndexed("auth:1", { a: 1 }, undefined, [{ index: "auth", member: "1" }]);
      await store.setIndexed("auth:2", { a: 2 }, shortTtl, [{ index: "auth", member: "2" }]);
      await store.set("auth:3", { a: 3 });
      // A record written before its index existed is added by hand.
      await store.addToIndex("auth", "3");
      await store.addToIndex("auth", "3");
      expect(await store.indexMembers("auth")).toEqual(["1", "2", "3"]);
      expect(await store.unindex("auth", "1", "auth:1")).toBe(false);
      expect(await store.delete("auth:1")).toBe(true);
      expect(await store.indexMembers("auth")).toEqual(["1", "2", "3"]);
      expect(await store.unindex("auth", "1", "auth:1")).toBe(true);
      expect(await store.unindex("auth", "1", "auth:1")).toBe(false);
      expect(await store.unindex("auth", "2", "auth:2")).toBe(false);
      await pass(pastShortTtl);
      expect(await store.unindex("auth", "2", "auth:2")).toBe(true);
      expect(await store.indexMembers("auth")).toEqual(["3"]);
    });

    test("indexes: a record rewritten while a reader unindexes it keeps its member", async () => {
      const [a, b] = [await open(), await open()];
      await a.set("order-open:5:x", 1);
      await a.delete("order-open:5:x");
      await a.addToIndex("order-open", "5:x");
      // b saw the record gone and prunes, while a writes it again: never a live record unlisted.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? a.setIndexed("order-open:5:x", i, undefined, [{ index: "order-open", member: "5:x" }])
            : b.unindex("order-open", "5:x", "order-open:5:x"),
        ),
      );
      expect(results.filter((r) => r === true).length).toBeLessThanOrEqual(1);
      expect(await a.get("order-open:5:x")).toBeDefined();
      expect(await b.indexMembers("order-open")).toEqual(["5:x"]);
    });

    test("a closed store rejects every operation", async () => {
      const store = await open();
      await store.set("k", 1);
      await store.close();
      await store.close();
      await expect(store.get("k")).rejects.toThrow(/closed/);
      await expect(store.set("k", 2)).rejects.toThrow(/closed/);
      await expect(store.setIfAbsent("k", 2)).rejects.toThrow(/closed/);
      await expect(store.extendIfEquals("k", 1, 1000)).rejects.toThrow(/closed/);
      await expect(store.keys("")).rejects.toThrow(/closed/);
      await expect(store.indexMembers("auth")).rejects.toThrow(/closed/);
      await expect(store.getMany(["k"])).rejects.toThrow(/closed/);
      await expect(store.setIfAbsentThenGetMany("l", 1, 1000, ["k"])).rejects.toThrow(/closed/);
    });
  });
}
