/**
 * The Vault: AES-256-GCM for every secret and every piece of personal data the bot keeps at rest
 * (exchange tokens, remembered passwords, anti-phishing phrases, conversation state, the e-mail of a
 * login), and the keyed hash for what must be looked up by a personal value (the e-mail index, the
 * per-e-mail login limit). Keys come from SECRETS_KEY: one or more 32-byte keys in base64,
 * comma-separated; the first encrypts, all decrypt, so a key can be rotated without losing data
 * (`npm run rotate-secrets` re-seals everything under the first one so the others can go).
 *
 * Token form (all parts base64url): `v1.<kid>.<iv>.<tag>.<ciphertext>`, where `kid` is the first 8 hex
 * characters of sha256(key) (names the key without revealing it) and `iv` is 12 fresh random bytes.
 * `v1.<kid>` is authenticated too, so a token cannot be relabelled to another key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

const version = "v1";
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;
const base64Key = /^[A-Za-z0-9+/_-]{43}=?$/;
const base64url = /^[A-Za-z0-9_-]*$/;
/** What a token looks like, whatever key made it: how a walk over stored values finds sealed ones. */
const tokenShape = /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/;
/** HKDF's `info` for the keyed-hash key: a key of its own, never the one that encrypts. */
const hashKeyInfo = "exchange-bot keyed hash v1";
/** Bytes of HMAC-SHA256 kept in a keyed hash (32 characters of base64url). */
const hashBytes = 24;

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
  /** The keyed-hash key derived from this key (HKDF-SHA256). */
  hashKey: KeyObject;
}

/** Options of the Vault. */
export interface VaultOptions {
  /**
   * Called once per Vault (the first time, not per value) when a stored token opens with none of
   * the keys: a key removed or mistyped, a backup from before a rotation. Such values count as
   * absent (see {@link Vault.open}); this is for the one log line that says so.
   */
  onUnopenable?: (problem: { keyId: string | undefined; reason: string }) => void;
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
  readonly #keys: readonly VaultKey[];
  #onUnopenable: VaultOptions["onUnopenable"];

  /**
   * A vault over raw 32-byte keys; the first one encrypts. Prefer {@link Vault.fromBase64}.
   *
   * @example
   * const vault = new Vault([randomBytes(32)]);
   */
  constructor(keys: readonly Uint8Array[], options: VaultOptions = {}) {
    const vaultKeys = keys.map((raw, index) => {
      if (raw.length !== keyBytes) {
        throw new VaultError(`Vault key ${index + 1} has ${raw.length} bytes; it needs exactly ${keyBytes}.`);
      }
      const key = Buffer.from(raw);
      const hashKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), hashKeyInfo, keyBytes));
      return { id: keyId(key), key: createSecretKey(key), hashKey: createSecretKey(hashKey) };
    });
    const primary = vaultKeys[0];
    if (!primary) throw new VaultError("A vault needs at least one key.");
    this.#primary = primary;
    this.#keys = vaultKeys;
    this.#byId = new Map(vaultKeys.map((k) => [k.id, k]));
    this.#onUnopenable = options.onUnopenable;
  }

  /**
   * Reads SECRETS_KEY: one or more base64 (or base64url) keys of 32 bytes each, comma-separated,
   * the newest first. A malformed value gives one sentence naming SECRETS_KEY (never the value).
   *
   * @example
   * const vault = Vault.fromBase64(`${newKey},${oldKey}`); // encrypts with newKey, reads both
   */
  static fromBase64(keys: string, options: VaultOptions = {}): Vault {
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
    return new Vault(raw, options);
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

  /** The ids of every configured key, the one that encrypts first. */
  get keyIds(): string[] {
    return this.#keys.map((k) => k.id);
  }

  /**
   * Whether `value` has the form of a vault token (made by any key, configured or not): how a walk
   * over stored values (rotation) finds what is sealed.
   *
   * @example
   * Vault.isToken(vault.encrypt("x")); // true
   */
  static isToken(value: unknown): value is string {
    return typeof value === "string" && tokenShape.test(value);
  }

  /** The id of the key that sealed `token` (`v1.<kid>.…`), or undefined when it is no token. */
  static sealedBy(token: string): string | undefined {
    return Vault.isToken(token) ? token.split(".")[1] : undefined;
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
   * Decrypts `token`, or gives undefined when no configured key opens it (its key removed from
   * SECRETS_KEY or mistyped, a backup from before a rotation, a value altered in the store): such a
   * value counts as absent, so the user is asked again (to log in, for a phrase) instead of meeting
   * an error on every update. Nothing is deleted: with the right key back, the value opens again.
   * The first such value is reported through `onUnopenable`, once.
   *
   * @example
   * const password = vault.open(sealed); // undefined: ask for the password again
   */
  open(token: string): string | undefined {
    try {
      return this.decrypt(token);
    } catch (error) {
      if (!(error instanceof VaultError)) throw error;
      this.#unopenable(token, error);
      return undefined;
    }
  }

  /**
   * {@link Vault.open} for a token made by {@link Vault.encryptJson}. The type is the caller's promise.
   *
   * @example
   * const state = vault.openJson<ConversationState>(sealed) ?? freshState;
   */
  openJson<T>(token: string): T | undefined {
    try {
      return this.decryptJson<T>(token);
    } catch (error) {
      if (!(error instanceof VaultError)) throw error;
      this.#unopenable(token, error);
      return undefined;
    }
  }

  /**
   * Whether one of the configured keys sealed `token`, told by its key id without decrypting it
   * (a value most reads pass over); false is reported like {@link Vault.open}'s undefined. A
   * token altered in the store still fails when it is opened.
   */
  canOpen(token: string): boolean {
    const id = Vault.sealedBy(token);
    if (id !== undefined && this.#byId.has(id)) return true;
    this.#unopenable(
      token,
      new VaultError(
        id === undefined
          ? "Cannot decrypt: this is not a vault token."
          : `Cannot decrypt: no key with id ${id} in SECRETS_KEY.`,
      ),
    );
    return false;
  }

  /** Whether `token` was sealed by the key that encrypts now (nothing for rotation to do). */
  isCurrent(token: string): boolean {
    return Vault.sealedBy(token) === this.#primary.id;
  }

  /**
   * The same plaintext sealed under the key that encrypts now; throws VaultError when no configured
   * key opens `token` (rotation counts and keeps those as they are).
   *
   * @example
   * const fresh = vault.isCurrent(token) ? token : vault.reseal(token);
   */
  reseal(token: string): string {
    return this.encrypt(this.decrypt(token));
  }

  /**
   * `token` under the key that encrypts now: itself when it already is, sealed again when another
   * configured key opens it, unchanged when none does. For a sealed value copied into a new write
   * (a record rewritten with its token), so that the write never brings back an old key's token
   * that rotation had already replaced.
   *
   * @example
   * await store.set(key, { ...record, sealedToken: vault.current(record.sealedToken) });
   */
  current(token: string): string {
    if (this.isCurrent(token)) return token;
    const plaintext = this.open(token);
    return plaintext === undefined ? token : this.encrypt(plaintext);
  }

  /**
   * A keyed hash (HMAC-SHA256 under a key derived from the first SECRETS_KEY key), for store keys
   * that must be found by a personal value (the e-mail index, the per-e-mail login limit) without
   * holding it: without SECRETS_KEY nobody can test a guessed address against the store. Normalize
   * the text first (an e-mail trimmed and lower-cased). It changes with the first key: rotation
   * moves what is stored under it (see {@link Vault.hashes}).
   *
   * @example
   * await store.set(`partner-email:${vault.hash(email.trim().toLowerCase())}`, entry);
   */
  hash(text: string): string {
    return this.#hashWith(this.#primary, text);
  }

  /**
   * The keyed hash of `text` under every configured key, the current one first: a look-up tries
   * each, so what was stored before a rotation is still found until rotation moves it.
   */
  hashes(text: string): string[] {
    return this.#keys.map((k) => this.#hashWith(k, text));
  }

  #hashWith(key: VaultKey, text: string): string {
    return createHmac("sha256", key.hashKey)
      .update(text, "utf8")
      .digest()
      .subarray(0, hashBytes)
      .toString("base64url");
  }

  #unopenable(token: string, error: VaultError): void {
    const report = this.#onUnopenable;
    if (report === undefined) return;
    this.#onUnopenable = undefined;
    report({ keyId: Vault.sealedBy(token), reason: error.message });
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
