/**
 * The user's saved crypto addresses (/addresses, and from /send): a label per address, per
 * currency, each with the time it becomes usable (its cooling-off). The label and the address
 * are sealed by the Vault (they may name a person or point at one); a look-up opens the user's
 * few entries and compares, so a key rotation re-seals them like any other value.
 *
 * @example
 * const saved = await addresses.save(userId, { currency: "btc", label: "Cold wallet", address }, usableAt);
 * const found = await addresses.find(userId, "btc", address); // { …, usableAt }
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import { listCooling } from "./cooling.ts";
import { changeRecord } from "./record.ts";

export const LABEL_MAX_LENGTH = 32;
/** Enough for every currency's buttons in /send; more is refused with a sentence. */
export const MAX_SAVED_ADDRESSES = 30;

export interface SavedAddress {
  /** 8 URL-safe characters: the remove button's data. */
  id: string;
  currency: string;
  label: string;
  address: string;
  savedAt: number;
  usableAt: number;
}

/** As stored: the same fields, `label` and `address` sealed (Vault tokens). */
type StoredAddress = SavedAddress;

export type SaveOutcome = { ok: true; saved: SavedAddress; existed: boolean } | { ok: false; reason: "full" };

export class SavedAddresses {
  readonly #store: Store;
  readonly #vault: Vault;
  readonly #clock: Clock;

  constructor(parts: { store: Store; vault: Vault; clock: Clock }) {
    ({ store: this.#store, vault: this.#vault, clock: this.#clock } = parts);
  }

  /** Every saved address, opened (entries no configured key opens are left out), oldest first. */
  async list(userId: number, currency?: string): Promise<SavedAddress[]> {
    const stored = (await this.#store.get<StoredAddress[]>(key(userId))) ?? [];
    const opened: SavedAddress[] = [];
    for (const entry of stored) {
      if (currency !== undefined && entry.currency !== currency) continue;
      const label = this.#vault.open(entry.label);
      const address = this.#vault.open(entry.address);
      if (label === undefined || address === undefined) continue;
      opened.push({ ...entry, label, address });
    }
    return opened;
  }

  async find(userId: number, currency: string, address: string): Promise<SavedAddress | undefined> {
    return (await this.list(userId, currency)).find((entry) => entry.address === address);
  }

  async get(userId: number, id: string): Promise<SavedAddress | undefined> {
    return (await this.list(userId)).find((entry) => entry.id === id);
  }

  /**
   * Saves the address usable from `usableAt`. An address already saved keeps its own cooling-off
   * (saving it again neither restarts nor shortens it); only its label changes.
   */
  async save(
    userId: number,
    input: { currency: string; label: string; address: string },
    usableAt: number,
  ): Promise<SaveOutcome> {
    const existing = await this.find(userId, input.currency, input.address);
    const now = this.#clock.now();
    const sealedLabel = this.#vault.encrypt(input.label);
    let full = false;
    const entry: StoredAddress = existing
      ? { ...existing, label: sealedLabel, address: this.#vault.encrypt(existing.address) }
      : {
          id: randomBytes(6).toString("base64url"),
          currency: input.currency,
          label: sealedLabel,
          address: this.#vault.encrypt(input.address),
          savedAt: now,
          usableAt,
        };
    await changeRecord<StoredAddress[]>(this.#store, key(userId), (list = []) => {
      full = false;
      const others = list.filter((item) => item.id !== entry.id);
      if (existing === undefined && others.length >= MAX_SAVED_ADDRESSES) {
        full = true;
        return undefined;
      }
      return [...others, entry];
    });
    if (full) return { ok: false, reason: "full" };
    if (existing === undefined) await listCooling(this.#store, userId, usableAt, now);
    const saved = existing
      ? { ...existing, label: input.label }
      : { ...entry, label: input.label, address: input.address };
    return { ok: true, saved, existed: existing !== undefined };
  }

  /** Removes the address; true when it was there. Removing never waits: it only narrows the list. */
  async remove(userId: number, id: string): Promise<boolean> {
    let removed = false;
    await changeRecord<StoredAddress[]>(this.#store, key(userId), (list) => {
      if (list === undefined || !list.some((item) => item.id === id)) return undefined;
      removed = true;
      return list.filter((item) => item.id !== id);
    });
    return removed;
  }
}

const key = (userId: number) => `safety-addresses:${userId}`;
