/**
 * The safety net below the bot, built once in the composition root: saved addresses, bank
 * accounts' cooling-off, the allowlist setting and the self-set caps, and the security notice
 * each change raises (security-events.ts). Features change the records only through here, so
 * no change goes untold; the pipeline's guards read the same records (`guards`).
 *
 * @example
 * const outcome = await safety.saveAddress(userId, { currency: "btc", label: "Cold", address });
 * if (outcome.ok) say(outcome.saved.usableAt);
 */

import type { OrderGuard } from "../orders/guards.ts";
import { descriptorOf } from "../orders/kinds/index.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import { Allowlist, type ChangeOutcome } from "./allowlist.ts";
import { BankCooling } from "./bank-cooling.ts";
import { type CapKey, capCurrency, SelfCaps, type StateOf } from "./caps.ts";
import { type CoolingConfig, DEFAULT_COOLING, HOUR_MS } from "./cooling.ts";
import { allowlistGuard, capGuard } from "./guards.ts";
import { SavedAddresses, type SaveOutcome } from "./saved-addresses.ts";
import type { SecurityNotices } from "./security-events.ts";

export class SafetyNet {
  readonly addresses: SavedAddresses;
  readonly banks: BankCooling;
  readonly allowlist: Allowlist;
  readonly caps: SelfCaps;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #notices: SecurityNotices;

  constructor(parts: {
    store: Store;
    vault: Vault;
    clock: Clock;
    notices: SecurityNotices;
    cooling?: CoolingConfig;
    /** SAFETY_ALLOWLIST_DEFAULT (default on). */
    allowlistDefault?: boolean;
  }) {
    this.#store = parts.store;
    this.#clock = parts.clock;
    this.#notices = parts.notices;
    this.addresses = new SavedAddresses(parts);
    this.banks = new BankCooling(parts.store, parts.clock);
    this.allowlist = new Allowlist({
      ...parts,
      config: parts.cooling ?? DEFAULT_COOLING,
      ...(parts.allowlistDefault === undefined ? {} : { defaultOn: parts.allowlistDefault }),
    });
    this.caps = new SelfCaps(parts.store, parts.clock);
  }

  /** The pipeline's guards over these records; `stateOf` reads the ledger (given late: the pipeline needs the guards). */
  guards(stateOf: StateOf): OrderGuard[] {
    const parts = {
      store: this.#store,
      clock: this.#clock,
      addresses: this.addresses,
      banks: this.banks,
      allowlist: this.allowlist,
      caps: this.caps,
      notices: this.#notices,
      stateOf,
      factsOf: descriptorOf,
    };
    return [allowlistGuard(parts), capGuard(parts)];
  }

  /** When a destination saved now becomes usable (the user's cooling-off). */
  async usableFrom(userId: number): Promise<number> {
    const { hours } = await this.allowlist.get(userId);
    return this.#clock.now() + hours * HOUR_MS;
  }

  /** Saves the address (after the caller checked a fresh code or PIN) and tells the user. */
  async saveAddress(
    userId: number,
    input: { currency: string; label: string; address: string },
  ): Promise<SaveOutcome> {
    const outcome = await this.addresses.save(userId, input, await this.usableFrom(userId));
    if (outcome.ok && !outcome.existed) {
      const { currency, label, address, usableAt } = outcome.saved;
      await this.#notices.tell(userId, { type: "address-saved", currency, label, address, usableAt });
    }
    return outcome;
  }

  /** A bank account added through the bot: it cools off; the user is told. */
  async bankAdded(userId: number, bank: { reference: string; iban: string }): Promise<number> {
    const added = await this.banks.added(userId, bank, await this.usableFrom(userId));
    await this.#notices.tell(userId, { type: "bank-added", iban: bank.iban, usableAt: added.usableAt });
    return added.usableAt;
  }

  async setAllowlist(userId: number, on: boolean): Promise<ChangeOutcome> {
    const before = await this.allowlist.get(userId);
    const outcome = await this.allowlist.setOn(userId, on);
    const changed = before.on !== on || (on && before.offAt !== undefined);
    if (outcome.ok && changed) {
      await this.#notices.tell(userId, { type: "allowlist-changed", on, effectiveAt: outcome.effectiveAt });
    }
    return outcome;
  }

  async setCoolingHours(userId: number, hours: number): Promise<ChangeOutcome> {
    const outcome = await this.allowlist.setHours(userId, hours);
    if (outcome.ok) {
      await this.#notices.tell(userId, {
        type: "cooling-off-changed",
        hours,
        effectiveAt: outcome.effectiveAt,
      });
    }
    return outcome;
  }

  async setCap(userId: number, key: CapKey, amount: string | undefined): Promise<{ effectiveAt: number }> {
    const outcome = await this.caps.set(userId, key, amount);
    await this.#notices.tell(userId, {
      type: "limit-changed",
      limit: key.startsWith("send:") ? "send" : key,
      currency: capCurrency(key),
      ...(amount !== undefined ? { amount } : {}),
      effectiveAt: outcome.effectiveAt,
    });
    return outcome;
  }
}
