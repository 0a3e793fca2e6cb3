import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Vault, VaultError } from "../../src/store/vault.ts";

const key = () => Vault.generateKey();

describe("Vault", () => {
  it("round-trips strings, including empty and non-ASCII ones", () => {
    const vault = Vault.fromBase64(key());
    for (const plaintext of ["hunter2", "", "Grüße 🚀", "x".repeat(10_000)]) {
      expect(vault.decrypt(vault.encrypt(plaintext))).toBe(plaintext);
    }
  });

  it("round-trips JSON values", () => {
    const vault = Vault.fromBase64(key());
    const value = { token: "abc", expires: 1767225600000, nested: [1, null, { ok: true }] };
    expect(vault.decryptJson(vault.encryptJson(value))).toEqual(value);
    expect(() => vault.encryptJson(undefined)).toThrow(VaultError);
  });

  it("uses a fresh random IV: the same plaintext twice gives different tokens", () => {
    const vault = Vault.fromBase64(key());
    const a = vault.encrypt("same");
    const b = vault.encrypt("same");
    expect(a).not.toBe(b);
    expect(a.split(".")[2]).not.toBe(b.split(".")[2]);
  });

  it("writes v1.<kid>.<iv>.<tag>.<ciphertext> in base64url with an 8-hex key id and a 12-byte IV", () => {
    const vault = Vault.fromBase64(key());
    const token = vault.encrypt("hunter2");
    expect(token).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const [, kid, iv, tag] = token.split(".");
    expect(kid).toBe(vault.keyId);
    expect(Buffer.from(iv ?? "", "base64url")).toHaveLength(12);
    expect(Buffer.from(tag ?? "", "base64url")).toHaveLength(16);
    expect(token).not.toContain("hunter2");
  });

  it("refuses a tampered token with a VaultError that does not echo the plaintext", () => {
    const vault = Vault.fromBase64(key());
    const token = vault.encrypt("hunter2-password");
    const parts = token.split(".");
    const flip = (text: string) => {
      const bytes = Buffer.from(text, "base64url");
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString("base64url");
    };
    const tampered = [
      [parts[0], parts[1], parts[2], parts[3], flip(parts[4] ?? "")].join("."),
      [parts[0], parts[1], parts[2], flip(parts[3] ?? ""), parts[4]].join("."),
      [parts[0], parts[1], flip(parts[2] ?? ""), parts[3], parts[4]].join("."),
      `${token}A`,
      token.slice(0, -2),
      "not a token",
      "v2.abcdef01.a.b.c",
    ];
    for (const bad of tampered) {
      const error = (() => {
        try {
          vault.decrypt(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(VaultError);
      expect((error as Error).message).not.toContain("hunter2");
    }
  });

  it("refuses a token relabelled with another key's id", () => {
    const oldKey = key();
    const newKey = key();
    const vault = Vault.fromBase64(`${newKey},${oldKey}`);
    const token = Vault.fromBase64(oldKey).encrypt("secret");
    const relabelled = token.replace(/^v1\.[0-9a-f]{8}\./, `v1.${vault.keyId}.`);
    expect(() => vault.decrypt(relabelled)).toThrow(VaultError);
  });

  it("rotates: tokens made with the old key still decrypt after a new primary is added; new ones use the new key", () => {
    const oldKey = key();
    const newKey = key();
    const before = Vault.fromBase64(oldKey);
    const token = before.encrypt("token made before rotation");

    const after = Vault.fromBase64(`${newKey}, ${oldKey}`);
    expect(after.decrypt(token)).toBe("token made before rotation");
    const fresh = after.encrypt("made after rotation");
    expect(fresh.split(".")[1]).toBe(Vault.fromBase64(newKey).keyId);
    expect(fresh.split(".")[1]).not.toBe(before.keyId);

    // Once the old key is dropped, its tokens fail with a sentence saying why.
    expect(() => Vault.fromBase64(newKey).decrypt(token)).toThrow(/no key with id .* SECRETS_KEY/);
  });

  it("refuses keys that are not 32 bytes of base64 with one sentence naming SECRETS_KEY, never the key", () => {
    const short = randomBytes(16).toString("base64");
    const long = randomBytes(33).toString("base64");
    for (const bad of ["", "not base64 at all!", short, long, `${key()},${short}`, `${key()},`]) {
      let message = "";
      try {
        Vault.fromBase64(bad);
      } catch (error) {
        expect(error).toBeInstanceOf(VaultError);
        message = (error as Error).message;
      }
      expect(message, bad).toMatch(/^SECRETS_KEY.* must be 32 random bytes in base64/);
      if (bad.length > 0) expect(message).not.toContain(bad.split(",").at(-1) || "\u0000");
    }
    expect(() => new Vault([randomBytes(31)])).toThrow(VaultError);
    expect(() => new Vault([])).toThrow(VaultError);
  });

  it("accepts base64url keys too, and generateKey makes valid keys", () => {
    const raw = randomBytes(32);
    const a = Vault.fromBase64(raw.toString("base64"));
    const b = Vault.fromBase64(raw.toString("base64url"));
    expect(b.decrypt(a.encrypt("x"))).toBe("x");
    expect(Buffer.from(Vault.generateKey(), "base64")).toHaveLength(32);
  });

  it("open() and canOpen(): a token no configured key opens reads as absent, reported once with its key id", () => {
    const oldKey = key();
    const newKey = key();
    const old = Vault.fromBase64(oldKey);
    const reports: unknown[] = [];
    const vault = Vault.fromBase64(newKey, { onUnopenable: (problem) => reports.push(problem) });
    expect(vault.open(vault.encrypt("mine"))).toBe("mine");
    expect(vault.openJson(vault.encryptJson({ a: 1 }))).toEqual({ a: 1 });
    expect(vault.open(old.encrypt("theirs"))).toBeUndefined();
    expect(vault.openJson(old.encryptJson({ a: 2 }))).toBeUndefined();
    expect(vault.open("not a token")).toBeUndefined();
    expect(reports).toEqual([{ keyId: old.keyId, reason: expect.stringContaining("no key with id") }]);
    // canOpen() tells by the key id alone, and reports nothing more (once is once).
    expect(vault.canOpen(vault.encrypt("mine"))).toBe(true);
    expect(vault.canOpen(old.encrypt("theirs"))).toBe(false);
    expect(reports).toHaveLength(1);
    // decrypt() still throws: callers that must not go on without the value say so.
    expect(() => vault.decrypt(old.encrypt("theirs"))).toThrow(VaultError);
  });

  it("current() and reseal(): a token under an older key sealed again under the first; isToken finds tokens", () => {
    const oldKey = key();
    const newKey = key();
    const old = Vault.fromBase64(oldKey);
    const both = Vault.fromBase64(`${newKey},${oldKey}`);
    const token = old.encrypt("hunter2");
    expect(Vault.isToken(token)).toBe(true);
    expect(Vault.isToken("v1.abc")).toBe(false);
    expect(Vault.isToken({ token })).toBe(false);
    expect(Vault.sealedBy(token)).toBe(old.keyId);
    expect(both.isCurrent(token)).toBe(false);
    const fresh = both.current(token);
    expect(Vault.sealedBy(fresh)).toBe(both.keyId);
    expect(Vault.fromBase64(newKey).decrypt(fresh)).toBe("hunter2");
    expect(both.current(fresh)).toBe(fresh);
    expect(Vault.sealedBy(both.reseal(token))).toBe(both.keyId);
    const foreign = Vault.fromBase64(key()).encrypt("x");
    expect(both.current(foreign)).toBe(foreign);
    expect(() => both.reseal(foreign)).toThrow(VaultError);
  });

  it("hash(): keyed, stable for a key, different per key and from a plain hash; hashes() lists every key's", () => {
    const oldKey = key();
    const newKey = key();
    const both = Vault.fromBase64(`${newKey},${oldKey}`);
    const email = "grace@example.com";
    const hash = both.hash(email);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Vault.fromBase64(newKey).hash(email)).toBe(hash);
    expect(both.hashes(email)).toEqual([hash, Vault.fromBase64(oldKey).hash(email)]);
    expect(Vault.fromBase64(oldKey).hash(email)).not.toBe(hash);
    expect(both.hash("other@example.com")).not.toBe(hash);
    const plain = createHash("sha256").update(email).digest();
    expect([plain.toString("hex"), plain.toString("base64url")].some((p) => p.includes(hash))).toBe(false);
  });
});
