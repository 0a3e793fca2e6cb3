import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageAdapter } from "../../src/store/adapter.ts";
import { encryptedAdapter } from "../../src/store/encrypted-adapter.ts";
import { openStore } from "../../src/store/open-store.ts";
import { Vault } from "../../src/store/vault.ts";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bot-store-encrypted-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every byte SQLite wrote for `file`: the database, its WAL and shared-memory files. */
async function rawBytes(file: string): Promise<Buffer> {
  const base = file.split("/").at(-1) ?? file;
  const names = (await readdir(dir)).filter((name) => name.startsWith(base));
  return Buffer.concat(await Promise.all(names.map((name) => readFile(join(dir, name)))));
}

/** Roughly what conversations v2 stores for a login flow that has seen the password message. */
const conversationState = {
  version: [0, 0],
  state: {
    login: [
      {
        args: "",
        interrupts: [],
        replay: { send: [{ update: { message: { text: "hunter2-password" } } }], receive: [] },
      },
    ],
  },
};

describe("encryptedAdapter", () => {
  it("round-trips values and keeps no plaintext in the SQLite file (raw bytes read)", async () => {
    const file = join(dir, "bot.sqlite");
    const vault = Vault.fromBase64(Vault.generateKey());
    const store = await openStore(`sqlite://${file}`);
    const conversations = encryptedAdapter<typeof conversationState>(
      storageAdapter(store, "conversation:"),
      vault,
    );
    await conversations.write("42", conversationState);
    expect(await conversations.read("42")).toEqual(conversationState);
    // Control: a plain adapter's value IS visible in the bytes read, so the check below means something.
    await storageAdapter<string>(store, "control:").write("1", "visible-control-canary");

    const whileOpen = await rawBytes(file);
    await store.close();
    const afterClose = await rawBytes(file);

    for (const bytes of [whileOpen, afterClose]) {
      expect(bytes.includes("visible-control-canary")).toBe(true);
      expect(bytes.includes("hunter2-password")).toBe(false);
      expect(bytes.includes("hunter2")).toBe(false);
    }
  });

  it("stores vault tokens under the inner adapter's keys, and deletes and lists through it", async () => {
    const vault = Vault.fromBase64(Vault.generateKey());
    const store = await openStore("memory://");
    const adapter = encryptedAdapter<{ secret: string }>(storageAdapter(store, "conversation:"), vault);
    await adapter.write("7", { secret: "s3cret" });
    const raw = await store.get<string>("conversation:7");
    expect(raw).toMatch(/^v1\./);
    expect(raw).not.toContain("s3cret");
    expect(await adapter.has?.("7")).toBe(true);
    const keys: string[] = [];
    for await (const key of adapter.readAllKeys?.() ?? []) keys.push(key);
    expect(keys).toEqual(["7"]);
    await adapter.delete("7");
    expect(await adapter.read("7")).toBeUndefined();
  });

  it("reads a tampered or foreign value as absent (no forged state, no error on every update), reported once", async () => {
    const store = await openStore("memory://");
    const reports: Array<{ keyId: string | undefined }> = [];
    const vault = Vault.fromBase64(Vault.generateKey(), { onUnopenable: (problem) => reports.push(problem) });
    const adapter = encryptedAdapter<unknown>(storageAdapter(store, "conversation:"), vault);
    const foreign = Vault.fromBase64(Vault.generateKey());
    await store.set("conversation:1", foreign.encryptJson({ forged: true }));
    expect(await adapter.read("1")).toBeUndefined();
    await store.set("conversation:2", "plain text someone put there");
    expect(await adapter.read("2")).toBeUndefined();
    const sealed = vault.encryptJson({ mine: true });
    // The first character of the ciphertext changed: GCM's tag no longer matches.
    const parts = sealed.split(".");
    const body = parts[4] ?? "";
    parts[4] = `${body.startsWith("A") ? "B" : "A"}${body.slice(1)}`;
    await store.set("conversation:3", parts.join("."));
    expect(await adapter.read("3")).toBeUndefined();
    // One report for the first such value, naming the key that sealed it (not the key itself).
    expect(reports).toEqual([{ keyId: foreign.keyId, reason: expect.stringContaining("no key with id") }]);
    // Nothing was deleted: the right key still opens the value.
    expect(foreign.decryptJson((await store.get<string>("conversation:1")) ?? "")).toEqual({ forged: true });
    // A fresh write replaces it as usual.
    await adapter.write("1", { fresh: true });
    expect(await adapter.read("1")).toEqual({ fresh: true });
  });
});
