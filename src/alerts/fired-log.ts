/**
 * The alerts that fired lately, per user, for the daily digest ("the alerts that fired"): one
 * record per firing, listed in the user's index, gone by itself after two days. Recorded whether
 * or not the user gets alert notices: someone with alerts off may still read them in the digest.
 *
 * @example
 * await fired.record(alert, { price: "60100", at: clock.now() });
 * const today = await fired.since(userId, clock.now() - 24 * 3_600_000);
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Alert } from "./rules.ts";

export interface FiredAlert {
  currency: string;
  kind: Alert["kind"];
  level: string;
  /** The EUR price it fired at, decimal text. */
  price: string;
  at: number;
}

const KEEP_MS = 2 * 24 * 60 * 60_000;
const index = (userId: number) => `alerts:fired:${userId}`;
const key = (userId: number, member: string) => `alert-fired:${userId}:${member}`;

export class FiredLog {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  async record(
    alert: Pick<Alert, "userId" | "currency" | "kind" | "level">,
    price: string,
    at: number,
  ): Promise<void> {
    const member = `${String(at).padStart(15, "0")}-${randomBytes(4).toString("hex")}`;
    const fired: FiredAlert = { currency: alert.currency, kind: alert.kind, level: alert.level, price, at };
    await this.#store.setIndexed(key(alert.userId, member), fired, KEEP_MS, [
      { index: index(alert.userId), member },
    ]);
  }

  /** The user's alerts that fired at or after `since`, oldest first; records gone are unlisted. */
  async since(userId: number, since: number): Promise<FiredAlert[]> {
    const members = await this.#store.indexMembers(index(userId));
    const values = await this.#store.getMany<FiredAlert>(members.map((m) => key(userId, m)));
    const fired: FiredAlert[] = [];
    for (const [i, member] of members.entries()) {
      const value = values[i];
      if (value === undefined) await this.#store.unindex(index(userId), member, key(userId, member));
      else if (value.at >= since) fired.push(value);
    }
    return fired.sort((a, b) => a.at - b.at);
  }
}
