import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.ts";
import { describeStoreContract } from "./contract.ts";

describeStoreContract("memory", {
  // A named memory store is shared by every store opened with that name: two "instances".
  open: (namespace) => openStore("memory://contract", { namespace }),
});

describe("memory://", () => {
  it("without a name is private to the store that opened it", async () => {
    const a = await openStore("memory://");
    const b = await openStore("memory://");
    await a.set("k", 1);
    expect(await b.get("k")).toBeUndefined();
  });
});

describe("openStore", () => {
  it("refuses an unknown scheme with a sentence naming STORE_URL", async () => {
    await expect(openStore("postgres://localhost/bot")).rejects.toThrow(/^STORE_URL must start with/);
    await expect(openStore("data/bot.sqlite")).rejects.toThrow(/STORE_URL/);
  });

  it("refuses a namespace that could collide with the key separator", async () => {
    await expect(openStore("memory://", { namespace: "a:b" })).rejects.toThrow(/namespace/);
  });
});
