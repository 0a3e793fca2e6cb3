/**
 * The operators' low-balance alerts on the partner's master wallet (`/master alert eur 1000`): one
 * threshold per currency, kept in the store. The background jobs call {@link MasterAlerts.check}
 * on every tick: a balance that falls below its threshold fires once, and the alert re-arms when
 * the balance is back at or above it. Each arming has a generation, and firing claims
 * `master-alert-fired:<code>:<generation>` with setIfAbsent, so two instances ticking at once still
 * fire it once.
 *
 * @example
 * const alerts = new MasterAlerts(store);
 * await alerts.set("eur", new Big(1000), operatorId);
 * for (const fired of await alerts.check(api)) notify(fired); // { currency, balance, threshold }
 */
import Big from "big.js";
import type { PartnerApi } from "../exchange/partner.ts";
import { indexExistingKeys, readIndexed } from "../store/indexed.ts";
import type { Store } from "../store/store.ts";

export interface MasterAlert {
  currency: string;
  /** A decimal string. */
  threshold: string;
  /** False after it fired, until the balance is back at or above the threshold. */
  armed: boolean;
  generation: number;
  setBy: number;
}

export interface FiredMasterAlert {
  currency: string;
  balance: Big;
  threshold: Big;
}

const PREFIX = "master-alert:";
const alertKey = (currency: string) => `${PREFIX}${currency}`;
/** The store index of currencies with an alert (the tick reads it, never a key listing). */
const INDEX = "partner:master-alerts";
const firedKey = (alert: MasterAlert) => `master-alert-fired:${alert.currency}:${alert.generation}`;
/** A claim only has to outlive a tick that overlaps another. */
const FIRED_TTL_MS = 7 * 24 * 60 * 60_000;

export class MasterAlerts {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  async set(currency: string, threshold: Big, setBy: number): Promise<void> {
    const code = currency.toLowerCase();
    const before = await this.#store.get<MasterAlert>(alertKey(code));
    const alert: MasterAlert = {
      currency: code,
      threshold: threshold.toFixed(),
      armed: true,
      generation: (before?.generation ?? 0) + 1,
      setBy,
    };
    await this.#store.setIndexed(alertKey(code), alert, undefined, [{ index: INDEX, member: code }]);
  }

  async remove(currency: string): Promise<boolean> {
    const code = currency.toLowerCase();
    const removed = await this.#store.delete(alertKey(code));
    await this.#store.unindex(INDEX, code, alertKey(code));
    return removed;
  }

  async list(): Promise<MasterAlert[]> {
    return (await readIndexed<MasterAlert>(this.#store, INDEX, alertKey)).map(([, alert]) => alert);
  }

  /** Adds alerts written before the index existed to it (one key listing, when taking the jobs lead). */
  indexExisting(): Promise<number> {
    return indexExistingKeys(this.#store, PREFIX, (key) => [
      { index: INDEX, member: key.slice(PREFIX.length) },
    ]);
  }

  /**
   * Reads each watched balance once; returns the alerts that fired now. A currency whose balance
   * cannot be read is left as it is (`onError` is told) and tried again next tick.
   */
  async check(
    api: Pick<PartnerApi, "masterBalance">,
    onError?: (error: unknown) => void,
  ): Promise<FiredMasterAlert[]> {
    const fired: FiredMasterAlert[] = [];
    for (const alert of await this.list()) {
      let balance: Big;
      try {
        balance = (await api.masterBalance(alert.currency)).balance;
      } catch (error) {
        onError?.(error);
        continue;
      }
      const threshold = new Big(alert.threshold);
      const below = balance.lt(threshold);
      if (below && alert.armed) {
        await this.#store.set(alertKey(alert.currency), { ...alert, armed: false });
        if (await this.#store.setIfAbsent(firedKey(alert), true, FIRED_TTL_MS)) {
          fired.push({ currency: alert.currency, balance, threshold });
        }
      } else if (!below && !alert.armed) {
        await this.#store.set(alertKey(alert.currency), {
          ...alert,
          armed: true,
          generation: alert.generation + 1,
        });
      }
    }
    return fired;
  }
}
