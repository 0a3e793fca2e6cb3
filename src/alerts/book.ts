/**
 * Alerts in the store: what users set, which ones fired and wait to re-arm, which users are paused
 * (they blocked the bot), and a change log the scheduler follows to keep its in-memory index in
 * step with writes made by any instance.
 *
 * Keys:
 *   alert:{userId}:{id}       the alert (rules.ts's Alert)
 *   alert-off:{userId}:{id}   present while the alert has fired and waits to re-arm
 *   alerts-paused:{userId}    the user blocked the bot (403); cleared when they write again
 *   alerts:version            a counter bumped on every change of a user's alerts
 *   alerts-change:{seq}       the user whose alerts changed at that version (kept an hour)
 *
 * Listings read store indexes kept with these records (`alerts`, `alerts:{userId}`, `alerts:off`,
 * `alerts:paused`), never a key listing: on Redis that is a SCAN of every key of every user.
 *
 * The armed state lives apart from the alert, so the scheduler marking an alert as fired never
 * brings back an alert the user has just removed.
 *
 * @example
 * const book = new AlertBook(store);
 * const added = await book.add(42, { currency: "btc", kind: "above", level: "60000" }, Date.now());
 * if (added.ok) await book.remove(42, added.alert.id);
 */
import { randomBytes } from "node:crypto";
import { indexExistingKeys, readIndexed } from "../store/indexed.ts";
import type { Store } from "../store/store.ts";
import { alertKey } from "./alert-index.ts";
import { type Alert, type AlertSpec, MAX_ALERTS_PER_USER, sameAlert } from "./rules.ts";

const VERSION_KEY = "alerts:version";
/** Store indexes: everyone's alerts (`userId:id`), one user's (ids), the fired ones, the paused users. */
const ALERTS_INDEX = "alerts";
const userAlertsIndex = (userId: number) => `alerts:${userId}`;
const OFF_INDEX = "alerts:off";
const PAUSED_INDEX = "alerts:paused";
/** `alerts-paused:{userId}`: read on every private update (services.ts caches it in memory). */
export const PAUSED_PREFIX = "alerts-paused:";
/** The version counter must outlive everything; the store wants a TTL for counters. */
const VERSION_TTL_MS = 10 * 365 * 24 * 60 * 60_000;
/** Change records outlive any sensible tick interval; a scheduler further behind reloads everything. */
const CHANGE_TTL_MS = 60 * 60_000;

export type AddResult =
  | { ok: true; alert: Alert }
  | { ok: false; reason: "limit"; limit: number }
  | { ok: false; reason: "duplicate"; alert: Alert };

/** Everything the scheduler needs to build its index. */
export interface AlertSnapshot {
  alerts: Alert[];
  /** alertKey()s of alerts that fired and wait to re-arm. */
  disarmed: Set<string>;
  paused: Set<number>;
}

export type ChangeSet =
  | { kind: "none"; version: number }
  | { kind: "users"; version: number; userIds: number[] }
  /** The log has a gap or was reset: reload everything, then continue from `version`. */
  | { kind: "reload"; version: number };

export class AlertBook {
  readonly #store: Store;
  readonly #limit: number;

  constructor(store: Store, options: { limit?: number } = {}) {
    this.#store = store;
    this.#limit = options.limit ?? MAX_ALERTS_PER_USER;
  }

  get limit(): number {
    return this.#limit;
  }

  /** A user's alerts, oldest first. */
  async list(userId: number): Promise<Alert[]> {
    const found = await readIndexed<Alert>(
      this.#store,
      userAlertsIndex(userId),
      (id) => `alert:${userId}:${id}`,
    );
    return found
      .map(([, alert]) => alert)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async get(userId: number, id: string): Promise<Alert | undefined> {
    return this.#store.get<Alert>(`alert:${userId}:${id}`);
  }

  /** Adds an alert unless the user is at the limit or already has the same one. */
  async add(userId: number, spec: AlertSpec, now: number, locale?: string): Promise<AddResult> {
    const existing = await this.list(userId);
    const same = existing.find((a) => sameAlert(a, spec));
    if (same) return { ok: false, reason: "duplicate", alert: same };
    if (existing.length >= this.#limit) return { ok: false, reason: "limit", limit: this.#limit };
    const alert: Alert = {
      id: randomBytes(6).toString("base64url"),
      userId,
      ...spec,
      // Strictly after the newest: the list keeps the order they were set in.
      createdAt: Math.max(now, (existing.at(-1)?.createdAt ?? 0) + 1),
      ...(locale ? { locale } : {}),
    };
    await this.#store.setIndexed(`alert:${userId}:${alert.id}`, alert, undefined, [
      { index: ALERTS_INDEX, member: `${userId}:${alert.id}` },
      { index: userAlertsIndex(userId), member: alert.id },
    ]);
    await this.#changed(userId);
    return { ok: true, alert };
  }

  /** Removes one alert; the removed alert, or undefined when this user has none with that id. */
  async remove(userId: number, id: string): Promise<Alert | undefined> {
    const alert = await this.get(userId, id);
    if (!alert) return undefined;
    await this.#store.delete(`alert:${userId}:${id}`);
    await this.#store.delete(`alert-off:${userId}:${id}`);
    await this.#changed(userId);
    // After the change is logged; a stop before these leaves members that readers drop.
    await this.#store.unindex(ALERTS_INDEX, `${userId}:${id}`, `alert:${userId}:${id}`);
    await this.#store.unindex(userAlertsIndex(userId), id, `alert:${userId}:${id}`);
    await this.#store.unindex(OFF_INDEX, `${userId}:${id}`, `alert-off:${userId}:${id}`);
    return alert;
  }

  /** The scheduler marks a fired alert (it waits to re-arm), or a re-armed one. */
  async setArmed(alert: Pick<Alert, "userId" | "id">, armed: boolean, at: number): Promise<void> {
    const member = `${alert.userId}:${alert.id}`;
    const key = `alert-off:${member}`;
    if (armed) {
      await this.#store.delete(key);
      await this.#store.unindex(OFF_INDEX, member, key);
    } else await this.#store.setIndexed(key, { at }, undefined, [{ index: OFF_INDEX, member }]);
  }

  async isPaused(userId: number): Promise<boolean> {
    return (await this.#store.get(`${PAUSED_PREFIX}${userId}`)) !== undefined;
  }

  /** The user blocked the bot: their alerts stop until they write again. */
  async pause(userId: number, at: number): Promise<void> {
    await this.#store.setIndexed(`${PAUSED_PREFIX}${userId}`, { at }, undefined, [
      { index: PAUSED_INDEX, member: String(userId) },
    ]);
    await this.#changed(userId);
  }

  /** The user wrote to the bot again; true when they were paused. */
  async resume(userId: number): Promise<boolean> {
    const was = await this.#store.delete(`${PAUSED_PREFIX}${userId}`);
    if (was) {
      await this.#changed(userId);
      await this.#store.unindex(PAUSED_INDEX, String(userId), `${PAUSED_PREFIX}${userId}`);
    }
    return was;
  }

  /** Every alert, armed state and pause, for a full (re)build of the index: three store indexes read. */
  async loadAll(): Promise<AlertSnapshot> {
    const [alerts, off, paused] = await Promise.all([
      readIndexed<Alert>(this.#store, ALERTS_INDEX, (member) => `alert:${member}`),
      readIndexed(this.#store, OFF_INDEX, (member) => `alert-off:${member}`),
      readIndexed(this.#store, PAUSED_INDEX, (member) => `${PAUSED_PREFIX}${member}`),
    ]);
    return {
      alerts: alerts.map(([, alert]) => alert),
      disarmed: new Set(off.map(([member]) => member)),
      paused: new Set(paused.map(([member]) => Number(member))),
    };
  }

  /** One user's alerts, armed state and pause, after a change. */
  async loadUser(userId: number): Promise<{ alerts: Alert[]; disarmed: Set<string>; paused: boolean }> {
    const [alerts, paused] = await Promise.all([this.list(userId), this.isPaused(userId)]);
    const off = await Promise.all(alerts.map((alert) => this.#store.get(`alert-off:${alertKey(alert)}`)));
    return { alerts, disarmed: new Set(alerts.filter((_, i) => off[i] !== undefined).map(alertKey)), paused };
  }

  /**
   * Adds alerts, armed states and pauses written before the store indexes existed to them (key
   * listings). Run when an instance becomes the jobs leader; returns how many keys it saw.
   */
  async indexExisting(): Promise<number> {
    const alertParts = (key: string, prefix: string) => {
      const [userId, id] = key.slice(prefix.length).split(":");
      return userId && id && Number.isSafeInteger(Number(userId)) ? { userId, id } : undefined;
    };
    const counts = await Promise.all([
      indexExistingKeys(this.#store, "alert:", (key) => {
        const parts = alertParts(key, "alert:");
        if (!parts) return [];
        return [
          { index: ALERTS_INDEX, member: `${parts.userId}:${parts.id}` },
          { index: userAlertsIndex(Number(parts.userId)), member: parts.id },
        ];
      }),
      indexExistingKeys(this.#store, "alert-off:", (key) => {
        const parts = alertParts(key, "alert-off:");
        return parts ? [{ index: OFF_INDEX, member: `${parts.userId}:${parts.id}` }] : [];
      }),
      indexExistingKeys(this.#store, PAUSED_PREFIX, (key) => [
        { index: PAUSED_INDEX, member: key.slice(PAUSED_PREFIX.length) },
      ]),
    ]);
    return counts.reduce((a, b) => a + b, 0);
  }

  /** The current version of the change log. */
  async version(): Promise<number> {
    return (await this.#store.get<number>(VERSION_KEY)) ?? 0;
  }

  /**
   * What changed after version `seen`: the users to reload, or "reload" when the log cannot say
   * (a gap older than `gapGraceMs`, a reset counter, or too many changes to be worth reading one by one).
   * A record that is missing because its writer is between two writes is waited for until then.
   */
  async changesSince(seen: number, options: { maxChanges?: number } = {}): Promise<ChangeSet> {
    const version = await this.version();
    if (version === seen) return { kind: "none", version };
    if (version < seen || version - seen > (options.maxChanges ?? 500)) return { kind: "reload", version };
    const seqs = Array.from({ length: version - seen }, (_, i) => seen + 1 + i);
    const records = await Promise.all(seqs.map((seq) => this.#store.get<number>(`alerts-change:${seq}`)));
    const userIds = new Set<number>();
    let upTo = seen;
    for (const [i, userId] of records.entries()) {
      if (userId === undefined) break;
      userIds.add(userId);
      upTo = seqs[i] as number;
    }
    if (upTo === seen) return { kind: "users", version: seen, userIds: [] };
    return { kind: "users", version: upTo, userIds: [...userIds] };
  }

  async #changed(userId: number): Promise<void> {
    const seq = await this.#store.increment(VERSION_KEY, VERSION_TTL_MS);
    await this.#store.set(`alerts-change:${seq}`, userId, CHANGE_TTL_MS);
  }
}
