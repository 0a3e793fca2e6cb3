/**
 * Key rotation's chore (`npm run rotate-secrets`): every value in the store that holds Vault
 * tokens — wherever they sit in it, so whatever a later version seals is covered too — is sealed
 * again under the first key of SECRETS_KEY, and every keyed-hash index entry (store/hashed-index.ts)
 * is moved under the first key's hash. Afterwards the other keys can be dropped.
 *
 * Safe beside running bots: each value is replaced by compare-and-set (keeping its TTL), so a value
 * a bot wrote meanwhile is never overwritten; it is read again and, if it still needs it, sealed
 * again. The bots must already run with the new key first (they then write only under it).
 * Idempotent: a second run finds nothing to do. A token no configured key opens is left as it is
 * and counted.
 *
 * @example
 * const report = await rotateSecrets(store, vault);
 * // { keys: 1234, resealed: 1100, moved: 12, upgraded: 0, unopenable: 0, busy: 0 }
 */

import { currentIndexKey } from "./hashed-index.ts";
import type { Store } from "./store.ts";
import { Vault, VaultError } from "./vault.ts";

export interface RotationReport {
  /** Keys looked at. */
  keys: number;
  /** Values sealed again under the first key (re-written in place). */
  resealed: number;
  /** Keyed-hash index entries moved under the first key's hash. */
  moved: number;
  /** Records of an older version brought to the current form (a plain e-mail sealed). */
  upgraded: number;
  /** Values holding a token no configured key opens: left as they are (they read as absent). */
  unopenable: number;
  /** Values changed by a running bot on every try: left for the next run. */
  busy: number;
}

export interface RotationOptions {
  /**
   * Brings a record of an older version to the current form (sealing what it held in plain text),
   * or gives undefined when `value` needs nothing. Asked before the value's tokens are re-sealed.
   */
  upgrade?: (key: string, value: unknown) => unknown;
}

/** A value a bot keeps changing is tried this many times per run. */
const attempts = 5;

export async function rotateSecrets(
  store: Store,
  vault: Vault,
  options: RotationOptions = {},
): Promise<RotationReport> {
  const report: RotationReport = { keys: 0, resealed: 0, moved: 0, upgraded: 0, unopenable: 0, busy: 0 };
  for (const key of await store.keys("")) {
    report.keys++;
    await rotateKey(store, vault, key, options, report);
  }
  return report;
}

async function rotateKey(
  store: Store,
  vault: Vault,
  key: string,
  options: RotationOptions,
  report: RotationReport,
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await store.get(key);
    if (value === undefined) return;
    const upgraded = options.upgrade?.(key, value);
    const sealed = resealDeep(upgraded ?? value, vault);
    const target = currentIndexKey(key, sealed.value, vault);
    if (target !== undefined && target !== key) {
      // A bot may have written the entry under the new hash meanwhile: that one is newer, keep it.
      await store.setIfAbsent(target, sealed.value);
      if (await store.deleteIfEquals(key, value)) {
        report.moved++;
        return;
      }
      continue;
    }
    const done = () => {
      if (sealed.unopenable) report.unopenable++;
    };
    if (!sealed.changed && upgraded === undefined) return done();
    if (await store.replaceIfEquals(key, value, sealed.value)) {
      if (upgraded !== undefined) report.upgraded++;
      if (sealed.changed) report.resealed++;
      return done();
    }
  }
  report.busy++;
}

/** `value` with every token not under the first key sealed again; tokens nothing opens stay. */
function resealDeep(value: unknown, vault: Vault): { value: unknown; changed: boolean; unopenable: boolean } {
  let changed = false;
  let unopenable = false;
  const walk = (node: unknown): unknown => {
    if (Vault.isToken(node)) {
      if (vault.isCurrent(node)) return node;
      try {
        const fresh = vault.reseal(node);
        changed = true;
        return fresh;
      } catch (error) {
        if (!(error instanceof VaultError)) throw error;
        unopenable = true;
        return node;
      }
    }
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === "object" && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([name, inner]) => [name, walk(inner)]));
    }
    return node;
  };
  return { value: walk(value), changed, unopenable };
}
