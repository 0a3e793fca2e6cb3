/**
 * The Vault: AES-256-GCM for every secret the bot keeps at rest (exchange tokens, remembered
 * passwords, conversation state). Keys come from SECRETS_KEY: one or more 32-byte keys in base64,
 * comma-separated; the first encrypts, all decrypt, so a key can be rotated without losing data.
 *
 * Token form (all parts base64url): `v1.<kid>.<iv>.<tag>.<ciphertext>`, where `kid` is the first 8 hex
 * characters of sha256(key) (names the key without revealing it) and `iv` is 12 fresh random bytes.
 * `v1.<kid>` is authenticated too, so a token cannot be relabelled to another key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from "node:crypto";

const version = "v1";
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;
const base64Key = /^[A-Za-z0-9+/_-]{43}=?$/;
const base64url = /^[A-Za-z0-9_-]*$/;

/**
 * Decryption or key trouble. The message says what went wrong and never contains the plaintext,
 * the ciphertext or a key.
 *
 * @example
 * try { vault.decrypt(token); } catch (error) { if (error instanceof VaultError) log.warn(error.message); }
 */
export class VaultError extends Error {
  override readonly name = "VaultError";
}

interface VaultKey {
  id: string;
  /** A KeyObject, made once: node:crypto turns a raw key into one on every cipher otherwise. */
  key: KeyObject;
}

/**
 * Encrypts and decrypts strings and JSON values with AES-256-GCM.
 *
 * @example
 * const vault = Vault.fromBase64(process.env.SECRETS_KEY ?? "");
 * const sealed = vault.encrypt("the exchange token");
 * vault.decrypt(sealed); // "the exchange token"
 */
export class Vault {
  readonly #primary: VaultKey;
  readonly #byId: Map<string, VaultKey>;

  /**
   * A vault over raw 32-byte keys; the first one encrypts. Prefer {@link Vault.fromBase64}.
   *
   * @example
   * const vault = new Vault([randomBytes(32)]);
   */
  constructor(keys: readonly Uint8Array[]) {
    const vaultKeys = keys.map((raw, index) => {
      if (raw.length !== keyBytes) {
        throw new VaultError(`Vault key ${index + 1} has ${raw.length} bytes; it needs exactly ${keyBytes}.`);
      }
      const key = Buffer.from(raw);
      return { id: keyId(key), key: createSecretKey(key) };
    });
    const primary = vaultKeys[0];
    if (!primary) throw new VaultError("A vault needs at least one key.");
    this.#primary = primary;
    this.#byId = new Map(vaultKeys.map((k) => [k.id, k]));
  }

  /**
   * Reads SECRETS_KEY: one or more base64 (or base64url) keys of 32 bytes each, comma-separated,
   * the newest first. A malformed value gives one sentence naming SECRETS_KEY (never the value).
   *
   * @example
   * const vault = Vault.fromBase64(`${newKey},${oldKey}`); // encrypts with newKey, reads both
   */
  static fromBase64(keys: string): Vault {
    const parts = keys.split(",").map((part) => part.trim());
    const raw = parts.map((part, index) => {
      const bytes = base64Key.test(part) ? Buffer.from(part, "base64") : undefined;
      if (bytes?.length !== keyBytes) {
        const which = parts.length > 1 ? ` (key ${index + 1} of ${parts.length})` : "";
        throw new VaultError(
          `SECRETS_KEY${which} must be ${keyBytes} random bytes in base64; make one with: ` +
            `node -e "console.log(require('node:crypto').randomBytes(32).toString('base64'))"`,
        );
      }
      return bytes;
    });
    return new Vault(raw);
  }

  /**
   * A fresh random key in the form SECRETS_KEY expects (the demo makes its own).
   *
   * @example
   * const vault = Vault.fromBase64(Vault.generateKey());
   */
  static generateKey(): string {
    return randomBytes(keyBytes).toString("base64");
  }

  /** The id of the key that encrypts, as it appears in tokens (for logs: "encrypting with key 3f9a01bc"). */
  get keyId(): string {
    return this.#primary.id;
  }

  /**
   * Encrypts with the primary key and a fresh random IV: the same plaintext twice gives two tokens.
   *
   * @example
   * const token = vault.encrypt("hunter2"); // "v1.3f9a01bc.…"
   */
  encrypt(plaintext: string): string {
    const { id, key } = this.#primary;
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(`${version}.${id}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      version,
      id,
      iv.toString("base64url"),
      tag.toString("base64url"),
      ciphertext.toString("base64url"),
    ].join(".");
  }

  /**
   * Decrypts a token made by {@link Vault.encrypt} with any of the vault's keys.
   * Throws VaultError on a malformed token, an unknown key id or any tampering.
   *
   * @example
   * const password = vault.decrypt(record.sealedPassword);
   */
  decrypt(token: string): string {
    const parts = typeof token === "string" ? token.split(".") : [];
    const [tokenVersion, id, ivText, tagText, ciphertextText] = parts;
    if (
      parts.length !== 5 ||
      tokenVersion !== version ||
      id === undefined ||
      ivText === undefined ||
      tagText === undefined ||
      ciphertextText === undefined ||
      ![ivText, tagText, ciphertextText].every((part) => base64url.test(part))
    ) {
      throw new VaultError(
        "Cannot decrypt: this is not a vault token (expected v1.<kid>.<iv>.<tag>.<ciphertext>).",
      );
    }
    const entry = this.#byId.get(id);
    if (!entry) {
      throw new VaultError(
        `Cannot decrypt: no key with id ${id.slice(0, 8)} in SECRETS_KEY (was an old key removed after rotation?).`,
      );
    }
    const iv = Buffer.from(ivText, "base64url");
    const tag = Buffer.from(tagText, "base64url");
    if (iv.length !== ivBytes || tag.length !== tagBytes) {
      throw new VaultError("Cannot decrypt: the token was altered (bad IV or tag length).");
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", entry.key, iv, { authTagLength: tagBytes });
      decipher.setAAD(Buffer.from(`${version}.${id}`));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([
        decipher.update(Buffer.from(ciphertextText, "base64url")),
        decipher.final(),
      ]);
      return plaintext.toString("utf8");
    } catch {
      // node:crypto's own message ("Unsupported state or unable to authenticate data") says little.
      throw new VaultError("Cannot decrypt: the token was altered or was made with a different key.");
    }
  }

  /**
   * Encrypts any JSON value (objects, arrays, strings, numbers, booleans, null).
   *
   * @example
   * const token = vault.encryptJson({ password: "hunter2", remember: true });
   */
  encryptJson(value: unknown): string {
    const json = JSON.stringify(value);
    if (json === undefined) throw new VaultError(`Cannot encrypt a ${typeof value} as JSON.`);
    return this.encrypt(json);
  }

  /**
   * Decrypts a token made by {@link Vault.encryptJson}. The type is the caller's promise, not checked.
   *
   * @example
   * const { password } = vault.decryptJson<{ password: string }>(token);
   */
  decryptJson<T>(token: string): T {
    const json = this.decrypt(token);
    try {
      return JSON.parse(json) as T;
    } catch {
      throw new VaultError("Cannot decrypt: the token holds no JSON value.");
    }
  }
}

/** First 8 hex characters of sha256(key): names a key in tokens without revealing anything useful. */
function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}
