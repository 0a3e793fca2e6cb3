/**
 * Key rotation's chore (store/rotation.ts) on a real store: every token, wherever it sits in a
 * value, sealed again under the first key with the value's TTL kept; keyed-hash index entries moved
 * under the first key's hash; older records upgraded; tokens nothing opens left and counted; a
 * value a running bot writes meanwhile never overwritten; a second run has nothing to do.
 */
import { describe, expect, it, vi } from "vitest";
import { upgradeAuthRecord } from "../../src/session/sessions.ts";
import { HashedIndex } from "../../src/store/hashed-index.ts";
import { openStore } from "../../src/store/open-store.ts";
import { rotateSecrets } from "../../src/store/rotation.ts";
import type { Store } from "../../src/store/store.ts";
import { Vault } from "../../src/store/vault.ts";

const keyA = Vault.generateKey();
const keyB = Vault.generateKey();
const underA = Vault.fromBase64(keyA);
const rotating = Vault.fromBase64(`${keyB},${keyA}`);
const onlyB = Vault.fromBase64(keyB);

/** Every token in a value, wherever it sits. */
function tokensIn(value: unknown): string[] {
  if (Vault.isToken(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(tokensIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(tokensIn);
  return [];
}

describe("rotateSecrets", () => {
  it("seals every token again under the first key, keeps TTLs, moves index entries; a second run does nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const store = await openStore("memory://");
      await store.set("remembered-password:1", underA.encrypt("hunter2"));
      await store.set("conversation:1", underA.encryptJson({ typed: ["secret"] }), 60_000);
      await store.set("auth:1", {
        sealedEmail: underA.encrypt("ada@example.com"),
        sealedToken: underA.encrypt("tok"),
        n: 1,
      });
      await store.set("nested:1", { list: [{ deep: underA.encrypt("x") }, "plain", 3], none: null });
      await store.set("plain:1", { text: "v1.not-a-token", n: 2 });
      await new HashedIndex<{ id: number }>(store, underA, "partner-email:").set("ada@example.com", {
        id: 7,
      });
      // Already under the first key: left alone.
      const current = rotating.encrypt("already");
      await store.set("phishing-phrase:1", current);

      const report = await rotateSecrets(store, rotating);
      expect(report).toEqual({ keys: 7, resealed: 4, moved: 1, upgraded: 0, unopenable: 0, busy: 0 });

      // Everything opens with B alone now.
      expect(onlyB.decrypt((await store.get<string>("remembered-password:1")) ?? "")).toBe("hunter2");
      expect(onlyB.decryptJson((await store.get<string>("conversation:1")) ?? "")).toEqual({
        typed: ["secret"],
      });
      const auth = await store.get<{ sealedEmail: string; sealedToken: string; n: number }>("auth:1");
      expect(onlyB.decrypt(auth?.sealedEmail ?? "")).toBe("ada@example.com");
      expect(onlyB.decrypt(auth?.sealedToken ?? "")).toBe("tok");
      expect(auth?.n).toBe(1);
      const nested = await store.get<{ list: [{ deep: string }, string, number]; none: null }>("nested:1");
      expect(onlyB.decrypt(nested?.list[0].deep ?? "")).toBe("x");
      expect(nested?.list.slice(1)).toEqual(["plain", 3]);
      expect(await store.get("plain:1")).toEqual({ text: "v1.not-a-token", n: 2 });
      expect(await store.get("phishing-phrase:1")).toBe(current);
      expect(
        await new HashedIndex<{ id: number }>(store, onlyB, "partner-email:").get("ada@example.com"),
      ).toMatchObject({
        id: 7,
      });
      expect(await store.keys("partner-email:")).toEqual([`partner-email:${onlyB.hash("ada@example.com")}`]);
      for (const key of await store.keys("")) {
        for (const token of tokensIn(await store.get(key)))
          expect(Vault.sealedBy(token), key).toBe(onlyB.keyId);
      }

      // The conversation's TTL is the one it had: gone when it would have been.
      vi.setSystemTime(Date.now() + 61_000);
      expect(await store.get("conversation:1")).toBeUndefined();

      expect(await rotateSecrets(store, rotating)).toEqual({
        keys: 6,
        resealed: 0,
        moved: 0,
        upgraded: 0,
        unopenable: 0,
        busy: 0,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves tokens no key opens as they are and counts them; seals the plain e-mail of an older login record", async () => {
    const store = await openStore("memory://");
    const foreign = Vault.fromBase64(Vault.generateKey()).encrypt("lost");
    await store.set("phishing-phrase:2", foreign);
    await store.set("auth:2", { email: "old@example.com", sealedToken: underA.encrypt("tok") });
    const report = await rotateSecrets(store, rotating, {
      upgrade: (key, value) => upgradeAuthRecord(key, value, rotating),
    });
    expect(report).toMatchObject({ keys: 2, resealed: 1, upgraded: 1, unopenable: 1, busy: 0 });
    expect(await store.get("phishing-phrase:2")).toBe(foreign);
    const auth = await store.get<{ sealedEmail: string; sealedToken: string }>("auth:2");
    expect(auth).not.toHaveProperty("email");
    expect(onlyB.decrypt(auth?.sealedEmail ?? "")).toBe("old@example.com");
    expect(onlyB.decrypt(auth?.sealedToken ?? "")).toBe("tok");
  });

  it("never overwrites what a running bot writes meanwhile (compare-and-set per value)", async () => {
    const inner = await openStore("memory://");
    await inner.set("auth:3", { sealedToken: underA.encrypt("old token"), lastActivityAt: 1 });
    const botsWrite = { sealedToken: rotating.encrypt("new token"), lastActivityAt: 2 };
    let raced = false;
    // The bot's write lands between the chore's read of the value and its compare-and-set.
    const store: Store = {
      ...inner,
      get: inner.get.bind(inner),
      set: inner.set.bind(inner),
      delete: inner.delete.bind(inner),
      setIfAbsent: inner.setIfAbsent.bind(inner),
      increment: inner.increment.bind(inner),
      deleteIfEquals: inner.deleteIfEquals.bind(inner),
      keys: inner.keys.bind(inner),
      purgeDeleted: inner.purgeDeleted.bind(inner),
      close: inner.close.bind(inner),
      async replaceIfEquals(key, expected, next) {
        if (!raced) {
          raced = true;
          await inner.set(key, botsWrite);
        }
        return inner.replaceIfEquals(key, expected, next);
      },
    };
    const report = await rotateSecrets(store, rotating);
    expect(raced).toBe(true);
    expect(report).toMatchObject({ keys: 1, resealed: 0, busy: 0 });
    expect(await inner.get("auth:3")).toEqual(botsWrite);
  });
});
