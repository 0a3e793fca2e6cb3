/**
 * Bank accounts added through the bot (/banks add, partner /banks), each with the time a
 * withdrawal may go to it. Accounts the bot did not add (older ones, added elsewhere) are not
 * listed and do not wait: the bot cannot tell when they were added. The record keeps the RF
 * reference (as the order ledger does) and the IBAN masked, nothing that names the holder.
 *
 * @example
 * await banks.added(userId, { reference: "RF18…", iban: "DE89 •••• 3000" }, usableAt);
 * await banks.usableAt(userId, "RF18…"); // the time, or undefined when it does not wait
 */

import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import { listCooling } from "./cooling.ts";
import { changeRecord } from "./record.ts";

export interface AddedBank {
  reference: string;
  /** Masked (iban.ts). */
  iban: string;
  addedAt: number;
  usableAt: number;
}

export class BankCooling {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  async list(userId: number): Promise<AddedBank[]> {
    return (await this.#store.get<AddedBank[]>(key(userId))) ?? [];
  }

  async added(
    userId: number,
    bank: { reference: string; iban: string },
    usableAt: number,
  ): Promise<AddedBank> {
    const now = this.#clock.now();
    const entry: AddedBank = { ...bank, addedAt: now, usableAt };
    await changeRecord<AddedBank[]>(this.#store, key(userId), (list = []) => [
      ...list.filter((item) => item.reference !== bank.reference),
      entry,
    ]);
    await listCooling(this.#store, userId, usableAt, now);
    return entry;
  }

  /** When a withdrawal may go to the account, if it was added through the bot; else undefined. */
  async usableAt(userId: number, reference: string): Promise<number | undefined> {
    return (await this.list(userId)).find((item) => item.reference === reference)?.usableAt;
  }
}

const key = (userId: number) => `safety-banks:${userId}`;
