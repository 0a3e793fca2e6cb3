/**
 * An index found by a personal value without holding it: the store key ends in the value's keyed
 * hash (`<prefix><hash>`, Vault.hash), and the entry keeps the value itself sealed under `hashed`,
 * so `npm run rotate-secrets` can hash it again under a new first key and move the entry
 * (store/rotation.ts relies on this form: a key's last `:`-part is the hash of `hashed`).
 *
 * @example
 * const byEmail = new HashedIndex<{ partnerUserId: number }>(store, vault, "partner-email:");
 * await byEmail.set("grace@example.com", { partnerUserId: 7 });
 * await byEmail.get("grace@example.com"); // { partnerUserId: 7, hashed: "v1.…" }
 */
import type { Store } from "./store.ts";
import type { Vault } from "./vault.ts";

/** What an entry carries besides the caller's fields: the indexed value, sealed. */
export interface Hashed {
  hashed: string;
}

export class HashedIndex<T extends object> {
  readonly #store: Store;
  readonly #vault: Vault;
  readonly #prefix: string;

  /** `prefix` ends in ":"; values are normalized by the caller (an e-mail trimmed and lower-cased). */
  constructor(store: Store, vault: Vault, prefix: string) {
    this.#store = store;
    this.#vault = vault;
    this.#prefix = prefix;
  }

  async set(value: string, entry: T): Promise<void> {
    const stored: T & Hashed = { ...entry, hashed: this.#vault.encrypt(value) };
    await this.#store.set(`${this.#prefix}${this.#vault.hash(value)}`, stored);
  }

  /** The entry under the current first key's hash, or under an older key's (before rotation moved it). */
  async get(value: string): Promise<(T & Hashed) | undefined> {
    for (const hash of this.#vault.hashes(value)) {
      const entry = await this.#store.get<T & Hashed>(`${this.#prefix}${hash}`);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }
}

/** The key an index entry belongs under now, or undefined when `key`/`value` are not an index entry. */
export function currentIndexKey(key: string, value: unknown, vault: Vault): string | undefined {
  if (typeof value !== "object" || value === null || !("hashed" in value)) return undefined;
  const sealed = value.hashed;
  const cut = key.lastIndexOf(":");
  if (typeof sealed !== "string" || cut < 0) return undefined;
  const text = vault.open(sealed);
  return text === undefined ? undefined : `${key.slice(0, cut + 1)}${vault.hash(text)}`;
}
