/**
 * The ground every tolerant reading of the partner API stands on (partner-read.ts): wrappers
 * unwrapped, lists found in any of their shapes, field names compared in any spelling, moments
 * read from text or unix time, pairs split, and one item read field by field (`FieldReader`),
 * remembering what it used so that what nobody recognised can be handed on as it came.
 *
 * @example
 * const reader = new FieldReader(unwrapData(answer));
 * const iban = reader.text(["iban", "account_iban"]);
 * const rest = reader.rest(); // the fields no reading used, for the screens to show
 */
import type Big from "big.js";
import { decimalFrom } from "../domain/money.ts";

type Path = readonly string[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `currencyCode`, `currency-code`, `Currency Code` → `currency_code`. */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[\s.-]+/g, "_")
    .toLowerCase();
}

/** Names a moment goes by; a number under one of them may be unix time. */
const DATE_NAME = /(?:^|_)(?:at|date|time|timestamp|dob)(?:_|$)|^date_of_birth$/;
/** A calendar day alone (`2026-03-10`): a date, never a moment. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** A date-time text (zone-less read as UTC) in ms, or undefined. */
export function dateTimeMs(value: string): number | undefined {
  if (!DATE_TIME.test(value)) return undefined;
  let iso = value.replace(" ", "T");
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(iso)) iso = `${iso}Z`;
  // Laravel sends microseconds; Date.parse wants at most milliseconds.
  iso = iso.replace(/(\.\d{3})\d+/, "$1");
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Unix time under a date-like name: seconds up to the year 5138, milliseconds beyond. */
export function unixMs(name: string, value: number): number | undefined {
  if (!DATE_NAME.test(snake(name)) || !Number.isInteger(value) || value <= 1e9) return undefined;
  return value < 1e11 ? value * 1000 : value;
}

/**
 * The moment a field holds, in ms: a date-time text (zone-less read as UTC), or unix seconds or
 * milliseconds under a date-like name (`created_at`, `timestamp`); else undefined.
 */
export function dateMs(name: string, value: unknown): number | undefined {
  if (typeof value === "number") return unixMs(name, value);
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (DATE_ONLY.test(text)) return undefined;
  if (/^\d{10,13}$/.test(text)) return unixMs(name, Number(text));
  return dateTimeMs(text);
}

/** `{status: true, data: X}` (the partner API's wrapper) → X; anything else as it is. */
export function unwrapData(payload: unknown): unknown {
  let value = payload;
  for (let i = 0; i < 3 && isRecord(value) && "data" in value; i++) {
    const keys = Object.keys(value).filter(
      (k) => !["status", "message", "success", "meta", "links"].includes(k),
    );
    if (keys.length !== 1) break;
    value = value.data;
  }
  return value;
}

const LIST_KEYS = ["data", "items", "list", "results", "records", "transactions", "rows"];

/**
 * The items of a payload that is a list in some shape: an array; an array under a key such as
 * `data` or `items`; an object whose values are all objects (keyed by id or code). A single
 * object is a list of one; nothing is a list of none.
 */
export function itemsOf(payload: unknown): unknown[] {
  const value = unwrapData(payload);
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return value === null || value === undefined ? [] : [value];
  for (const key of LIST_KEYS) {
    const inner = value[key];
    if (Array.isArray(inner)) return inner;
  }
  const values = Object.values(value);
  if (values.length > 1 && values.every(isRecord)) return values;
  return Object.keys(value).length === 0 ? [] : [value];
}

/** No exchange answer nests deeper than this on purpose. */
const MAX_DEPTH = 6;

/**
 * The first text or number under one of `names`, searched breadth-first through nested objects
 * (deposit instructions may nest the bank under `bank` or `account`). Names compare in snake case.
 */
export function findField(payload: unknown, names: readonly string[]): string | undefined {
  const wanted = new Set(names.map(snake));
  let level: unknown[] = [unwrapData(payload)];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (!isRecord(value)) continue;
      for (const [name, child] of Object.entries(value)) {
        if (wanted.has(snake(name)) && (typeof child === "string" || typeof child === "number")) {
          const text = String(child).trim();
          if (text !== "") return text;
        }
        if (typeof child === "object" && child !== null) next.push(child);
      }
    }
    level = next;
  }
  return undefined;
}

/** Currencies a pair code may end in, the longer first (`usdt` before `usd`). */
export const QUOTES = ["usdc", "usdt", "eur", "usd", "chf", "gbp"];
/** A currency code as the API writes it (`btc`, `usdc`). */
export const CODE = /^[a-z][a-z0-9]{1,11}$/;

/** `btceur`, `BTC/EUR`, `btc_eur`, `btc-eur` → `{base: "btc", quote: "eur"}`. */
export function splitPair(text: string): { base: string; quote: string } | undefined {
  const lower = text.trim().toLowerCase();
  const parts = lower.split(/[/_\-: ]/).filter((p) => p !== "");
  if (parts.length === 2 && parts.every((p) => CODE.test(p)))
    return { base: parts[0] ?? "", quote: parts[1] ?? "" };
  if (!/^[a-z0-9]{4,16}$/.test(lower)) return undefined;
  const quote = QUOTES.find((q) => lower.endsWith(q) && lower.length > q.length + 1);
  return quote === undefined ? undefined : { base: lower.slice(0, -quote.length), quote };
}

/** Keys of a transport's envelope, not of the resource (skipped when they hold an object or a flag). */
export const ENVELOPE = new Set([
  "meta",
  "links",
  "_links",
  "total",
  "count",
  "status",
  "success",
  "message",
]);
/** Identifiers of the exchange's own records (user, partner, account ids): for /tx and the operator desk only. */
export const INTERNAL_ID = /(?:^|_)(?:id|uuid)$/;

/**
 * One item of a payload, read field by field: each field found is marked used, and `rest()` is
 * the item without the used fields (and without envelope keys), for the field renderer.
 */
export class FieldReader {
  readonly #used: Path[] = [];
  readonly item: unknown;
  constructor(item: unknown) {
    this.item = item;
  }

  /** The first scalar under one of `names` that `accept` takes, breadth first; marks it used. */
  find(names: readonly string[], accept: (value: unknown) => boolean): unknown {
    const wanted = names.map(snake);
    let level: { value: unknown; path: Path }[] = [{ value: this.item, path: [] }];
    for (let depth = 0; depth < 6 && level.length > 0; depth++) {
      const next: typeof level = [];
      let best: { rank: number; value: unknown; path: Path } | undefined;
      for (const { value, path } of level) {
        if (!isRecord(value)) continue;
        for (const [name, child] of Object.entries(value)) {
          const childPath = [...path, name];
          if (isRecord(child)) {
            if (!ENVELOPE.has(name)) next.push({ value: child, path: childPath });
            continue;
          }
          const rank = wanted.indexOf(snake(name));
          if (rank === -1 || this.isUsed(childPath) || !accept(child)) continue;
          if (best === undefined || rank < best.rank) best = { rank, value: child, path: childPath };
        }
      }
      if (best !== undefined) {
        this.#used.push(best.path);
        return best.value;
      }
      level = next;
    }
    return undefined;
  }

  text(names: readonly string[]): string | undefined {
    const value = this.find(
      names,
      (v) => (typeof v === "string" && v.trim() !== "") || typeof v === "number",
    );
    return value === undefined ? undefined : String(value).trim();
  }

  code(names: readonly string[]): string | undefined {
    const value = this.find(names, (v) => typeof v === "string" && CODE.test(v.trim().toLowerCase()));
    return typeof value === "string" ? value.trim().toLowerCase() : undefined;
  }

  decimal(names: readonly string[]): Big | undefined {
    return decimalFrom(this.find(names, (v) => decimalFrom(v) !== undefined));
  }

  /** A date-time in ms since the epoch, from any field of `names` that holds one. */
  date(names: readonly string[]): number | undefined {
    const wanted = names.map(snake);
    const value = this.find(names, (v) => dateMs(wanted[0] ?? "date", v) !== undefined);
    return value === undefined ? undefined : dateMs(wanted[0] ?? "date", value);
  }

  /** Each field of `fields` (its names) that `read` finds, by the field's name. */
  many<V>(
    fields: Readonly<Record<string, readonly string[]>>,
    read: (names: readonly string[]) => V | undefined,
  ): Record<string, V> {
    const found: Record<string, V> = {};
    for (const [field, names] of Object.entries(fields)) {
      const value = read(names);
      if (value !== undefined) found[field] = value;
    }
    return found;
  }

  /** Marks every field of `names` used (a second time stamp of the same moment is not shown again). */
  drop(names: readonly string[]): void {
    while (this.find(names, () => true) !== undefined);
  }

  isUsed(path: Path): boolean {
    return this.#used.some((used) => used.length === path.length && used.every((p, i) => p === path[i]));
  }

  /** The item without the fields used, envelope keys and (unless `ids`) internal ids; undefined when nothing is left. */
  rest(options: { ids?: boolean } = {}): Record<string, unknown> | undefined {
    const strip = (value: unknown, path: Path): unknown => {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value)) {
        const childPath = [...path, name];
        if (this.isUsed(childPath)) continue;
        if (ENVELOPE.has(name) && (isRecord(child) || typeof child === "boolean")) continue;
        if (!options.ids && INTERNAL_ID.test(snake(name)) && !isRecord(child)) continue;
        const kept = strip(child, childPath);
        if (
          isRecord(kept) &&
          Object.keys(kept).length === 0 &&
          isRecord(child) &&
          Object.keys(child).length > 0
        )
          continue;
        out[name] = kept;
      }
      return out;
    };
    if (!isRecord(this.item)) return this.item === undefined ? undefined : { value: this.item };
    const left = strip(this.item, []) as Record<string, unknown>;
    return Object.keys(left).length === 0 ? undefined : left;
  }
}

/**
 * The items of a list payload, also when the list sits deeper behind single keys
 * (`{result: {wallets: [...]}}`, `{rates: {BTC_EUR: {...}}}`); otherwise as itemsOf reads it.
 */
export function listItems(payload: unknown): unknown[] {
  let value = unwrapData(payload);
  for (let depth = 0; depth < 4; depth++) {
    if (!isRecord(value)) break;
    const entries = Object.entries(value).filter(([name]) => !ENVELOPE.has(name));
    const only = entries.length === 1 ? entries[0]?.[1] : undefined;
    if (only === undefined || !(isRecord(only) || Array.isArray(only))) break;
    value = only;
  }
  return itemsOf(value);
}
