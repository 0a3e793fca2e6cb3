/**
 * Batched per-update reads: inside a scope, the first read of a chat's key reads the chat's keys
 * in one call to the store; what the update writes is read from the store again; outside a
 * scope nothing is batched. Counted on a real memory store beneath.
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { updateReads } from "../../src/store/update-reads.ts";

async function counted(): Promise<{ inner: Store; calls: string[] }> {
  const inner = await openStore("memory://");
  const calls: string[] = [];
  const get = inner.get.bind(inner);
  const getMany = inner.getMany.bind(inner);
  inner.get = (key) => {
    calls.push(`get ${key}`);
    return get(key);
  };
  inner.getMany = (keys) => {
    calls.push(`getMany ${keys.join(" ")}`);
    return getMany(keys);
  };
  return { inner, calls };
}

const prefixes = ["session:", "conversation:", "auth:"];

describe("updateReads", () => {
  it("reads a chat's keys in one call, answers the rest from it, and re-reads what the update wrote", async () => {
    const { inner, calls } = await counted();
    await inner.set("session:7", { step: 1 });
    await inner.set("auth:7", { token: "t" });
    const { store, scope } = updateReads(inner, { prefixes });
    await scope(async () => {
      expect(await store.get("session:7")).toEqual({ step: 1 });
      expect(await store.get("conversation:7")).toBeUndefined();
      const auth = await store.get<{ token: string }>("auth:7");
      expect(auth).toEqual({ token: "t" });
      // Each read is a copy: changing one does not change the next.
      if (auth) auth.token = "changed";
      expect(await store.get("auth:7")).toEqual({ token: "t" });
      expect(calls).toEqual(["getMany session:7 conversation:7 auth:7"]);
      await store.set("session:7", { step: 2 });
      expect(await store.get("session:7")).toEqual({ step: 2 });
      // Another key, another chat: not in the batch.
      expect(await store.get("profile:7")).toBeUndefined();
      expect(await store.get("session:8")).toBeUndefined();
    });
    expect(calls).toEqual([
      "getMany session:7 conversation:7 auth:7",
      "get session:7",
      "get profile:7",
      "getMany session:8 conversation:8 auth:8",
    ]);
    // Outside a scope every read goes to the store, and a new scope reads afresh.
    calls.length = 0;
    expect(await store.get("session:7")).toEqual({ step: 2 });
    await scope(async () => {
      expect(await store.get("auth:7")).toEqual({ token: "t" });
    });
    expect(calls).toEqual(["get session:7", "getMany session:7 conversation:7 auth:7"]);
  });

  it("a key written before the first read is read from the store, not from the batch", async () => {
    const { inner, calls } = await counted();
    const { store, scope } = updateReads(inner, { prefixes });
    await scope(async () => {
      await store.delete("conversation:9");
      await store.set("auth:9", { token: "new" });
      expect(await store.get("session:9")).toBeUndefined();
      expect(await store.get("auth:9")).toEqual({ token: "new" });
    });
    expect(calls).toEqual(["getMany session:9 conversation:9 auth:9", "get auth:9"]);
  });

  it("a scope opened with the keys read by the lock's round trip asks the store for none of them", async () => {
    const { inner, calls } = await counted();
    await inner.set("session:8", { step: 1 });
    await inner.set("auth:8", { token: "t" });
    const reads = updateReads(inner, { prefixes });
    const { store } = reads;
    expect(reads.keysFor("8")).toEqual(["session:8", "conversation:8", "auth:8"]);
    const values = await store.setIfAbsentThenGetMany("chat-lock:8", "h", 30_000, reads.keysFor("8"));
    expect(values).toBeDefined();
    await reads.scope(async () => {
      const session = await store.get<{ step: number }>("session:8");
      expect(session).toEqual({ step: 1 });
      if (session) session.step = 5;
      // Each read is a copy, as with a batch read in the scope.
      expect(await store.get("session:8")).toEqual({ step: 1 });
      expect(await store.get("conversation:8")).toBeUndefined();
      expect(await store.get("auth:8")).toEqual({ token: "t" });
      await store.set("auth:8", { token: "u" });
      expect(await store.get("auth:8")).toEqual({ token: "u" });
    }, values && { id: "8", values });
    // Only the write's key was read again.
    expect(calls).toEqual(["get auth:8"]);
  });

  it("two updates in parallel keep their own reads", async () => {
    const { inner } = await counted();
    await inner.set("session:1", "one");
    const { store, scope } = updateReads(inner, { prefixes });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = scope(async () => {
      const before = await store.get("session:1");
      await gate;
      return [before, await store.get("session:1")];
    });
    await scope(async () => {
      await store.set("session:1", "two");
    });
    release();
    // The first update still sees what it read when its chat was its own.
    expect(await first).toEqual(["one", "one"]);
    await scope(async () => expect(await store.get("session:1")).toBe("two"));
  });
});
