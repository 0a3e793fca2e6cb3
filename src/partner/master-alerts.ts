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
    await this.#store.set(alertKey(code), alert);
  }

  remove(currency: string): Promise<boolean> {
    return this.#store.delete(alertKey(currency.toLowerCase()));
  }

  async list(): Promise<MasterAlert[]> {
    const keys = await this.#store.keys(PREFIX);
    const alerts = await Promise.all(keys.map((key) => this.#store.get<MasterAlert>(key)));
    return alerts.filter((alert): alert is MasterAlert => alert !== undefined);
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
