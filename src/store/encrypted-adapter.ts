/**
 * A StorageAdapter wrapper that stores every value sealed by the Vault. Conversations (v2) store
 * each update of a running flow, typed passwords and 2FA codes included, so their storage must go
 * through this: the store then holds only `v1.<kid>...` tokens.
 */
import type { StorageAdapter } from "grammy";
import type { Vault } from "./vault.ts";

/**
 * Wraps `inner` (which holds strings) so that values of type T are JSON-encoded and encrypted on
 * write and decrypted on read. A value that no longer decrypts (its key removed from SECRETS_KEY or
 * mistyped, a restored backup, tampering) reads as absent: the chat starts afresh (a half-done flow
 * is gone, /login works) instead of every update failing on it; nothing forged gets in either.
 *
 * @example
 * bot.use(conversations({
 *   storage: { type: "key", adapter: encryptedAdapter(storageAdapter(store, "conversation:"), vault) },
 * }));
 */
export function encryptedAdapter<T>(inner: StorageAdapter<string>, vault: Vault): StorageAdapter<T> {
  const adapter: StorageAdapter<T> = {
    read: async (key) => {
      const sealed = await inner.read(key);
      return sealed === undefined ? undefined : vault.openJson<T>(sealed);
    },
    write: (key, value) => inner.write(key, vault.encryptJson(value)),
    delete: (key) => inner.delete(key),
  };
  // Listing keys reveals nothing secret; values are not listed (that would decrypt everything at once).
  const has = inner.has?.bind(inner);
  const readAllKeys = inner.readAllKeys?.bind(inner);
  if (has) adapter.has = (key) => has(key);
  if (readAllKeys) adapter.readAllKeys = () => readAllKeys();
  return adapter;
}
