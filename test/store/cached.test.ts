import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedStore, entryBytes } from "../../src/store/cached.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";

/** The memory store, with every call that reaches it recorded. */
async function recordedStore(): Promise<{ store: Store; calls: string[] }> {
  const inner = await openStore("memory://");
  const calls: string[] = [];
  const store: Store = {
    get: (key) => {
      calls.push(`get ${key}`);
      return inner.get(key);
    },
    getMany: (keys) => {
      calls.push(`getMany ${keys.join(",")}`);
      return inner.getMany(keys);
    },
    set: (key, value, ttl) => {
      calls.push(`set ${key}`);
      return inner.set(key, value, ttl);
    },
    delete: (key) => {
      calls.push(`delete ${key}`);
      return inner.delete(key);
    },
    setIfAbsent: (key, value, ttl) => {
      calls.push(`setIfAbsent ${key}`);
      return inner.setIfAbsent(key, value, ttl);
    },
    setIfAbsentThenGetMany: (key, value, ttl, keys) => {
      calls.push(`setIfAbsentThenGetMany ${key} ${keys.join(",")}`);
      return inner.setIfAbsentThenGetMany(key, value, ttl, keys);
    },
    increment: (key, ttl) => {
      calls.push(`increment ${key}`);
      return inner.increment(key, ttl);
    },
    deleteIfEquals: (key, expected) => {
      calls.push(`deleteIfEquals ${key}`);
      return inner.deleteIfEquals(key, expected);
    },
    extendIfEquals: (key, expected, ttl) => {
      calls.push(`extendIfEquals ${key}`);
      return inner.extendIfEquals(key, expected, ttl);
    },
    replaceIfEquals: (key, expected, next) => {
      calls.push(`replaceIfEquals ${key}`);
      return inner.replaceIfEquals(key, expected, next);
    },
    keys: (prefix) => {
      calls.push(`keys ${prefix}`);
      return inner.keys(prefix);
    },
    setIndexed: (key, value, ttl, entries) => {
      calls.push(`setIndexed ${key}`);
      return inner.setIndexed(key, value, ttl, entries);
    },
    addToIndex: (index, member) => {
      calls.push(`addToIndex ${index}`);
      return inner.addToIndex(index, member);
    },
    indexMembers: (index) => {
      calls.push(`indexMembers ${index}`);
      return inner.indexMembers(index);
    },
    unindex: (index, member, key) => {
      calls.push(`unindex ${index}`);
      return inner.unindex(index, member, key);
    },
    purgeDeleted: () => inner.purgeDeleted(),
    close: () => inner.close(),
  };
  return { store, calls };
}

const prefixes = { "session:": "untimed", "conversation:": "timed" } as const;

describe("cachedStore", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads a cached key from the store once, and hands out copies the caller may change", async () => {
    const { store, calls } = await recordedStore();
    await store.set("session:1", { filter: "btc" });
    calls.length = 0;
    const cached = cachedStore(store, { prefixes });
    const first = await cached.get<{ filter: string }>("session:1");
    if (first) first.filter = "changed, never written";
    expect(await cached.get("session:1")).toEqual({ filter: "btc" });
    expect(await cached.get("session:2")).toBeUndefined();
    expect(await cached.get("session:2")).toBeUndefined();
    expect(calls).toEqual(["get session:1", "get session:2"]);
  });

  it("does not write a value that is already there, and writes one that changed", async () => {
    const { store, calls } = await recordedStore();
    const cached = cachedStore(store, { prefixes });
    await cached.set("session:1", {});
    await cached.set("session:1", {});
    await cached.set("session:1", { filter: "eth" });
    expect(calls).toEqual(["set session:1", "set session:1"]);
    expect(await store.get("session:1")).toEqual({ filter: "eth" });
  });

  it("passes other keys and the atomic operations through, and forgets a key they touch", async () => {
    const { store, calls } = await recordedStore();
    const cached = cachedStore(store, { prefixes });
    await cached.get("confirm:1");
    await cached.get("confirm:1");
    expect(await cached.get("session:1")).toBeUndefined();
    expect(await cached.setIfAbsent("session:1", { a: 1 })).toBe(true);
    expect(await cached.get("session:1")).toEqual({ a: 1 });
    expect(calls).toEqual([
      "get confirm:1",
      "get confirm:1",
      "get session:1",
      "setIfAbsent session:1",
      "get session:1",
    ]);
  });

  it("after a failed write asks the store again", async () => {
    const { store, calls } = await recordedStore();
    const failing: Store = { ...store, set: () => Promise.reject(new Error("disk full")) };
    const cached = cachedStore(failing, { prefixes });
    expect(await cached.get("session:1")).toBeUndefined();
    await expect(cached.set("session:1", { a: 1 })).rejects.toThrow("disk full");
    calls.length = 0;
    expect(await cached.get("session:1")).toBeUndefined();
    expect(calls).toEqual(["get session:1"]);
  });

  it("a read that overlapped a write does not put the old value back", async () => {
    const { store } = await recordedStore();
    await store.set("session:1", { v: "old" });
    let release = () => {};
    const slowGet: Store = {
      ...store,
      get: async (key) => {
        const value = await store.get(key);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return value as never;
      },
    };
    const cached = cachedStore(slowGet, { prefixes });
    const reading = cached.get("session:1");
    await cached.set("session:1", { v: "new" });
    release();
    expect(await reading).toEqual({ v: "old" });
    // Not from a stale cache entry: the store (still slow) is asked, and has the new value.
    const again = cached.get("session:1");
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await again).toEqual({ v: "new" });
  });

  it("keeps a value written with a TTL only until it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") });
    const { store, calls } = await recordedStore();
    const cached = cachedStore(store, { prefixes });
    await cached.set("conversation:1", "sealed", 60_000);
    expect(await cached.get("conversation:1")).toBe("sealed");
    expect(calls).toEqual(["set conversation:1"]);
    vi.setSystemTime(Date.now() + 60_001);
    expect(await cached.get("conversation:1")).toBeUndefined();
    expect(calls).toEqual(["set conversation:1", "get conversation:1"]);
  });

  it("under a timed prefix keeps absence but reads a present value from the store each time", async () => {
    const { store, calls } = await recordedStore();
    await store.set("conversation:1", "sealed", 60_000);
    calls.length = 0;
    const cached = cachedStore(store, { prefixes });
    await cached.get("conversation:1");
    await cached.get("conversation:1");
    await cached.get("conversation:2");
    await cached.get("conversation:2");
    expect(calls).toEqual(["get conversation:1", "get conversation:1", "get conversation:2"]);
  });

  it("keeps entries up to maxBytes, dropping the least recently used", async () => {
    const { store, calls } = await recordedStore();
    const big = { text: "x".repeat(400) };
    await store.set("session:1", big);
    await store.set("session:2", big);
    await store.set("session:3", big);
    // Room for two sessions of this size, not three.
    const bytes = entryBytes("session:1", JSON.stringify(big));
    const cached = cachedStore(store, { prefixes, maxBytes: 2 * bytes + bytes / 2 });
    await cached.get("session:1");
    await cached.get("session:2");
    await cached.get("session:1");
    await cached.get("session:3");
    calls.length = 0;
    await cached.get("session:1");
    await cached.get("session:2");
    expect(calls).toEqual(["get session:2"]);
  });

  it("after many evictions still keeps the most recently used, a hit moving a key to the back", async () => {
    const { store, calls } = await recordedStore();
    const cached = cachedStore(store, { prefixes, maxBytes: 10 * entryBytes("session:1000", undefined) });
    for (let i = 1000; i < 2000; i++) {
      await cached.get(`session:${i}`);
      // An older key used again stays while newer ones are let go.
      await cached.get("session:1000");
    }
    calls.length = 0;
    await cached.get("session:1000");
    for (let i = 1991; i < 2000; i++) await cached.get(`session:${i}`);
    expect(calls).toEqual([]);
    await cached.get("session:1990");
    expect(calls).toEqual(["get session:1990"]);
  });

  it("counts an absent key by its own small size, not as a whole entry of the budget", async () => {
    const { store, calls } = await recordedStore();
    const big = { text: "x".repeat(2_000) };
    await store.set("session:big", big);
    const bytes = entryBytes("session:big", JSON.stringify(big));
    // The session and ten absent keys fit in the budget of the session and a little more.
    const cached = cachedStore(store, {
      prefixes,
      maxBytes: bytes + 10 * entryBytes("session:10", undefined),
    });
    await cached.get("session:big");
    for (let i = 0; i < 10; i++) await cached.get(`session:${i}`);
    calls.length = 0;
    await cached.get("session:big");
    for (let i = 0; i < 10; i++) await cached.get(`session:${i}`);
    expect(calls).toEqual([]);
  });

  it("reads the keys it does not hold in one getMany, and answers the rest from memory", async () => {
    const { store, calls } = await recordedStore();
    await store.set("session:1", { a: 1 });
    await store.set("conversation:1", { step: 2 }, 60_000);
    const cached = cachedStore(store, { prefixes });
    await cached.get("session:1");
    calls.length = 0;
    const values = await cached.getMany(["session:1", "conversation:1", "other:1", "session:2"]);
    expect(values).toEqual([{ a: 1 }, { step: 2 }, undefined, undefined]);
    expect(calls).toEqual(["getMany conversation:1,other:1,session:2"]);
    calls.length = 0;
    // Kept: the absent session; not kept: a timed value read from the store, and other keys.
    expect(await cached.getMany(["session:2", "conversation:1", "other:1"])).toEqual([
      undefined,
      { step: 2 },
      undefined,
    ]);
    expect(calls).toEqual(["getMany conversation:1,other:1"]);
  });

  it("a getMany that overlapped a write does not put the old value back", async () => {
    const { store } = await recordedStore();
    await store.set("session:1", { v: "old" });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Store = {
      ...store,
      getMany: async <T>(keys: readonly string[]) => {
        const values = await store.getMany<T>(keys);
        await held;
        return values;
      },
    };
    const cached = cachedStore(slow, { prefixes });
    const reading = cached.getMany(["session:1"]);
    await cached.set("session:1", { v: "new" });
    release();
    expect(await reading).toEqual([{ v: "old" }]);
    expect(await cached.get("session:1")).toEqual({ v: "new" });
  });
});
