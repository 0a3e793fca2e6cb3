/**
 * The user's anti-phishing phrase: words only the real bot knows, shown on every message that
 * asks for a secret or confirms a money action, so a look-alike bot gives itself away. Kept
 * through the Vault like the other secrets. It is a setting, not part of the session: it stays
 * after /logout, because the login prompts are exactly where it is needed.
 *
 * @example
 * await phrases.set(userId, "blue tiger 42");
 * const phrase = await phrases.get(userId); // "blue tiger 42"
 */
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";

export const PHRASE_MIN_LENGTH = 3;
export const PHRASE_MAX_LENGTH = 40;

export class PhishingPhrases {
  readonly #store: Store;
  readonly #vault: Vault;
  readonly #onChange: ((userId: number) => Promise<void>) | undefined;

  /** `onChange`: after a phrase is set or removed (the composition root raises a security notice). */
  constructor(store: Store, vault: Vault, options: { onChange?: (userId: number) => Promise<void> } = {}) {
    this.#store = store;
    this.#vault = vault;
    this.#onChange = options.onChange;
  }

  /** The phrase, or undefined when the user has set none (or none that a configured key opens). */
  async get(userId: number): Promise<string | undefined> {
    const sealed = await this.#store.get<string>(key(userId));
    return sealed === undefined ? undefined : this.#vault.open(sealed);
  }

  async set(userId: number, phrase: string): Promise<void> {
    await this.#store.set(key(userId), this.#vault.encrypt(phrase));
    await this.#onChange?.(userId);
  }

  async remove(userId: number): Promise<void> {
    if (await this.#store.delete(key(userId))) await this.#onChange?.(userId);
  }
}

/** A phrase as the user may type it: trimmed, inner spaces collapsed; undefined if unusable. */
export function normalizePhrase(text: string): string | undefined {
  const phrase = text.trim().replace(/\s+/g, " ");
  const length = Array.from(phrase).length;
  return length >= PHRASE_MIN_LENGTH && length <= PHRASE_MAX_LENGTH ? phrase : undefined;
}

const key = (userId: number) => `phishing-phrase:${userId}`;
