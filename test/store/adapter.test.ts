import { describe, expect, it, vi } from "vitest";
import { storageAdapter } from "../../src/store/adapter.ts";
import { openStore } from "../../src/store/open-store.ts";

async function collect(iterable: Iterable<string> | AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("storageAdapter", () => {
  it("reads, writes, checks and deletes under its prefix", async () => {
    const store = await openStore("memory://");
    const sessions = storageAdapter<{ locale: string }>(store, "session:");
    expect(await sessions.read("42")).toBeUndefined();
    await sessions.write("42", { locale: "de" });
    expect(await sessions.read("42")).toEqual({ locale: "de" });
    expect(await store.get("session:42")).toEqual({ locale: "de" });
    expect(await sessions.has?.("42")).toBe(true);
    await sessions.delete("42");
    expect(await sessions.read("42")).toBeUndefined();
    expect(await sessions.has?.("42")).toBe(false);
  });

  it("keeps prefixes apart and lists its own keys without the prefix", async () => {
    const store = await openStore("memory://");
    const sessions = storageAdapter<number>(store, "session:");
    const conversations = storageAdapter<number>(store, "conversation:");
    await sessions.write("1", 1);
    await sessions.write("2", 2);
    await conversations.write("1", 10);
    expect(await conversations.read("1")).toBe(10);
    expect(await sessions.read("1")).toBe(1);
    const keys = sessions.readAllKeys?.();
    expect(keys && (await collect(keys))).toEqual(["1", "2"]);
  });

  it("lets idle entries expire when given a TTL", async () => {
    const store = await openStore("memory://");
    const sessions = storageAdapter<number>(store, "session:", { ttlMs: 30 });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await sessions.write("1", 1);
      vi.setSystemTime(Date.now() + 80);
      expect(await sessions.read("1")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
