/**
 * The alert index: per currency, six sorted ladders (armed above / below / change, and the same
 * three disarmed, waiting to re-arm), each sorted so that the entries a new price triggers are
 * always at the tail. One tick pops from the tails while the condition holds, so its cost is
 * O(currencies + alerts that fire or re-arm), never O(all alerts): a price that moved from 59,000
 * to 61,000 pops exactly the `above` alerts with levels in (59,000 … 61,000], because every lower
 * one already fired (and moved to the disarmed ladder) at an earlier tick.
 *
 * Ordering uses a float copy of each threshold (fast comparisons, exact for any decimal of up to
 * 15 significant digits); the decision to fire or re-arm is made in exact decimals (big.js), see
 * rules.ts. Moving entries between ladders is a binary-search insert, or a sort-and-merge when a
 * burst moves many at once.
 *
 * @example
 * const index = new AlertIndex();
 * index.load(alerts, disarmedKeys);
 * const events = index.evaluate("btc", new Big("61000"), new Big("2.5"));
 * // [{ type: "fired", alert }, …]; fired alerts are now disarmed in the index
 */
import Big from "big.js";
import { type Alert, type AlertKind, rearmLevel } from "./rules.ts";

export interface AlertEvent {
  type: "fired" | "rearmed";
  alert: Alert;
}

interface Entry {
  alert: Alert;
  /** Float copy of `exact`, for ordering. */
  key: number;
  /** The threshold this ladder compares against: the level when armed, the re-arm level when not. */
  exact: Big;
  /** alertKey(alert), computed once. */
  uid: string;
  /** The same alert's entry for the other state, made the first time it moves (then reused). */
  twin?: Entry;
}

/** true when the entry triggers at `value`. */
type Trigger = (threshold: Big, value: Big) => boolean;

/** A sorted array whose triggered entries are always a suffix. */
class Ladder {
  readonly entries: Entry[] = [];
  readonly #descending: boolean;
  readonly #triggers: Trigger;

  constructor(order: "asc" | "desc", triggers: Trigger) {
    this.#descending = order === "desc";
    this.#triggers = triggers;
  }

  /** First position whose key is after `key` in this ladder's order (upper bound). */
  #upperBound(key: number): number {
    const list = this.entries;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = (list[mid] as Entry).key;
      if (this.#descending ? k >= key : k <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose key is not before `key` (lower bound). */
  #lowerBound(key: number): number {
    const list = this.entries;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = (list[mid] as Entry).key;
      if (this.#descending ? k > key : k < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #compare = (a: Entry, b: Entry): number => (this.#descending ? b.key - a.key : a.key - b.key);

  insert(entry: Entry): void {
    this.entries.splice(this.#upperBound(entry.key), 0, entry);
  }

  /** Many at once: one sort of the newcomers and one merge, instead of a splice each. */
  insertMany(added: Entry[]): void {
    if (added.length < 32) {
      for (const entry of added) this.insert(entry);
      return;
    }
    added.sort(this.#compare);
    const old = this.entries.splice(0, this.entries.length);
    const out = this.entries;
    let i = 0;
    let j = 0;
    while (i < old.length && j < added.length) {
      if (this.#compare(old[i] as Entry, added[j] as Entry) <= 0) out.push(old[i++] as Entry);
      else out.push(added[j++] as Entry);
    }
    while (i < old.length) out.push(old[i++] as Entry);
    while (j < added.length) out.push(added[j++] as Entry);
  }

  /** Sorts in place after a bulk load. */
  sort(): void {
    this.entries.sort(this.#compare);
  }

  remove(entry: Entry): boolean {
    const list = this.entries;
    for (let i = this.#lowerBound(entry.key); i < list.length && (list[i] as Entry).key === entry.key; i++) {
      if (list[i] === entry) {
        list.splice(i, 1);
        return true;
      }
    }
    // Not where its key says (NaN key, say): look everywhere.
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    return at >= 0;
  }

  /** Removes and returns every entry that triggers at `value` (a suffix). */
  popTriggered(value: Big): Entry[] {
    const list = this.entries;
    const popped: Entry[] = [];
    for (;;) {
      const last = list[list.length - 1];
      if (last === undefined || !this.#triggers(last.exact, value)) break;
      list.pop();
      popped.push(last);
    }
    return popped;
  }
}

interface CurrencyLadders {
  armed: Record<AlertKind, Ladder>;
  disarmed: Record<AlertKind, Ladder>;
}

function newLadders(): CurrencyLadders {
  return {
    // Fire when price ≥ level: the lowest levels trigger first → sorted high to low.
    // Fire when price ≤ level: the highest first → low to high. |change| ≥ level: as `above`.
    armed: {
      above: new Ladder("desc", (level, price) => price.gte(level)),
      below: new Ladder("asc", (level, price) => price.lte(level)),
      change: new Ladder("desc", (level, change) => change.gte(level)),
    },
    // Re-arm when price < re-arm level: the highest first → low to high, and so on.
    disarmed: {
      above: new Ladder("asc", (back, price) => price.lt(back)),
      below: new Ladder("desc", (back, price) => price.gt(back)),
      change: new Ladder("asc", (back, change) => change.lt(back)),
    },
  };
}

interface Located {
  entry: Entry;
  armed: boolean;
}

function entryFor(alert: Alert, armed: boolean): Entry {
  const exact = armed ? new Big(alert.level) : rearmLevel(alert);
  return { alert, exact, key: Number(exact.toFixed()), uid: alertKey(alert) };
}

/** The entry for the other state: decimals are worked out once per alert, not once per move. */
function twinOf(entry: Entry, armed: boolean): Entry {
  if (!entry.twin) {
    entry.twin = entryFor(entry.alert, armed);
    entry.twin.twin = entry;
  }
  return entry.twin;
}

/** Key of an alert across users (alert ids are unique per user). */
export function alertKey(alert: Pick<Alert, "userId" | "id">): string {
  return `${alert.userId}:${alert.id}`;
}

export class AlertIndex {
  #byCurrency = new Map<string, CurrencyLadders>();
  #where = new Map<string, Located>();
  #byUser = new Map<number, Set<string>>();

  /** Alerts in the index. */
  get size(): number {
    return this.#where.size;
  }

  /** Replaces everything: `disarmed` holds {@link alertKey}s of alerts that fired and wait to re-arm. */
  load(alerts: Iterable<Alert>, disarmed: ReadonlySet<string> = new Set()): void {
    this.clear();
    for (const alert of alerts) {
      const armed = !disarmed.has(alertKey(alert));
      const entry = entryFor(alert, armed);
      this.#ladder(alert.currency, alert.kind, armed).entries.push(entry);
      this.#track(alert, { entry, armed });
    }
    for (const ladders of this.#byCurrency.values()) {
      for (const ladder of [...Object.values(ladders.armed), ...Object.values(ladders.disarmed)])
        ladder.sort();
    }
  }

  clear(): void {
    this.#byCurrency.clear();
    this.#where.clear();
    this.#byUser.clear();
  }

  add(alert: Alert, armed = true): void {
    this.remove(alert);
    const entry = entryFor(alert, armed);
    this.#ladder(alert.currency, alert.kind, armed).insert(entry);
    this.#track(alert, { entry, armed });
  }

  remove(alert: Pick<Alert, "userId" | "id">): boolean {
    const key = alertKey(alert);
    const located = this.#where.get(key);
    if (!located) return false;
    const { alert: stored } = located.entry;
    this.#ladder(stored.currency, stored.kind, located.armed).remove(located.entry);
    this.#where.delete(key);
    const mine = this.#byUser.get(stored.userId);
    mine?.delete(key);
    if (mine?.size === 0) this.#byUser.delete(stored.userId);
    return true;
  }

  /** Replaces one user's alerts (after they added or removed one, or were paused or resumed). */
  replaceUser(userId: number, alerts: readonly Alert[], disarmed: ReadonlySet<string> = new Set()): void {
    for (const key of [...(this.#byUser.get(userId) ?? [])]) {
      const located = this.#where.get(key);
      if (located) this.remove(located.entry.alert);
    }
    for (const alert of alerts) this.add(alert, !disarmed.has(alertKey(alert)));
  }

  /** Whether the alert is armed; undefined when it is not in the index. */
  isArmed(alert: Pick<Alert, "userId" | "id">): boolean | undefined {
    return this.#where.get(alertKey(alert))?.armed;
  }

  /**
   * One currency's tick: fires armed alerts whose condition now holds and re-arms disarmed ones the
   * price moved back from, updating the index. `change` is the 24 h change in percent.
   */
  evaluate(currency: string, price: Big, change: Big): AlertEvent[] {
    const ladders = this.#byCurrency.get(currency);
    if (!ladders) return [];
    const events: AlertEvent[] = [];
    const size = change.abs();
    for (const kind of ["above", "below", "change"] as const) {
      const value = kind === "change" ? size : price;
      const fired = ladders.armed[kind].popTriggered(value);
      const rearmed = ladders.disarmed[kind].popTriggered(value);
      if (fired.length > 0) {
        const moved = fired.map((old) => {
          events.push({ type: "fired", alert: old.alert });
          const entry = twinOf(old, false);
          this.#where.set(entry.uid, { entry, armed: false });
          return entry;
        });
        ladders.disarmed[kind].insertMany(moved);
      }
      if (rearmed.length > 0) {
        const moved = rearmed.map((old) => {
          events.push({ type: "rearmed", alert: old.alert });
          const entry = twinOf(old, true);
          this.#where.set(entry.uid, { entry, armed: true });
          return entry;
        });
        ladders.armed[kind].insertMany(moved);
      }
    }
    return events;
  }

  #ladder(currency: string, kind: AlertKind, armed: boolean): Ladder {
    let ladders = this.#byCurrency.get(currency);
    if (!ladders) {
      ladders = newLadders();
      this.#byCurrency.set(currency, ladders);
    }
    return armed ? ladders.armed[kind] : ladders.disarmed[kind];
  }

  #track(alert: Alert, located: Located): void {
    const key = alertKey(alert);
    this.#where.set(key, located);
    let mine = this.#byUser.get(alert.userId);
    if (!mine) {
      mine = new Set();
      this.#byUser.set(alert.userId, mine);
    }
    mine.add(key);
  }
}
