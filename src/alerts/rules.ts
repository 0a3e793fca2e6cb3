/**
 * What a price alert is, how `/alert btc above 60000` reads, and when an alert fires and re-arms.
 * Pure: no store, no clock, no Telegram.
 *
 * Hysteresis: an alert fires once when its condition holds, then waits, disarmed, until the price
 * has moved back past a margin ({@link rearmLevel}): 1 % of the level for `above`/`below`, a fifth
 * of the level for `change` (a 5 % alert re-arms once the 24 h change is back under 4 %). A price
 * hovering at the level therefore gives one message, not one per tick.
 *
 * @example
 * const parsed = parseAlertCommand("btc above 60000");
 * // { ok: true, spec: { currency: "btc", kind: "above", level: "60000" } }
 * fires({ kind: "above", level: "60000" }, new Big("60001"), new Big(0)); // true
 */
import Big from "big.js";
import { type AmountRefusal, parseAmount, toPlainString } from "../domain/money.ts";

export type AlertKind = "above" | "below" | "change";

/** An alert as stored (JSON-safe: the level is decimal text). */
export interface Alert {
  /** Short random id, unique per user (it goes into callback data). */
  id: string;
  userId: number;
  /** Lower-case currency code, e.g. "btc". */
  currency: string;
  kind: AlertKind;
  /** EUR price for above/below; percent (24 h change, either direction) for change. */
  level: string;
  createdAt: number;
  /** The language the user set it in: used for the notice when they never picked one in /language. */
  locale?: string;
}

export type AlertSpec = Pick<Alert, "currency" | "kind" | "level">;

/** Alerts one user may keep. */
export const MAX_ALERTS_PER_USER = 20;
/** Price alerts re-arm once the price is back by this fraction of the level. */
export const PRICE_REARM_FRACTION = new Big("0.01");
/** Change alerts re-arm once the 24 h change is back under this fraction of the level. */
export const CHANGE_REARM_FACTOR = new Big("0.8");
/**
 * The levels a 24 h change alert (either direction) may have. Above 100 % the fall it also watches
 * can never happen (a price cannot lose more than all of it), so "±" would be a promise the alert
 * cannot keep; below half a percent it is the market's noise, firing all day.
 */
export const MIN_CHANGE_PERCENT = new Big("0.5");
export const MAX_CHANGE_PERCENT = new Big(100);

const KIND_WORDS: Record<string, AlertKind> = {
  above: "above",
  over: "above",
  ">": "above",
  ">=": "above",
  über: "above",
  ueber: "above",
  uber: "above",
  oberhalb: "above",
  below: "below",
  under: "below",
  "<": "below",
  "<=": "below",
  unter: "below",
  unterhalb: "below",
  change: "change",
  changes: "change",
  move: "change",
  moves: "change",
  "±": "change",
  änderung: "change",
  aenderung: "change",
  veränderung: "change",
  veraenderung: "change",
  schwankung: "change",
};

export type AlertParse =
  | { ok: true; spec: AlertSpec }
  | { ok: false; reason: "usage" }
  | { ok: false; reason: "amount"; refusal: AmountRefusal; maxDecimals: number }
  | { ok: false; reason: "change-out-of-range" };

/**
 * Reads the arguments of `/alert`: `<currency> <above|below> <price>` or `<currency> change <percent>%`
 * (German `über`, `unter`, `änderung` too). The currency is returned as typed (lower case); the
 * caller resolves it against the market's list. Amounts go through money.ts's parseAmount.
 */
export function parseAlertCommand(text: string, locale = "en"): AlertParse {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  // "5 %" → "5%"
  if (words.at(-1) === "%" && words.length > 1) words.splice(-2, 2, `${words.at(-2)}%`);
  // "±5%" → "±", "5%"
  if (words.length === 2 && words[1]?.startsWith("±")) words.splice(1, 1, "±", words[1].slice(1));
  if (words.length !== 3) return { ok: false, reason: "usage" };
  const [currency = "", word = "", rawAmount = ""] = words;
  const kind = KIND_WORDS[word];
  if (kind === undefined || !/^[a-z0-9/._-]{2,24}$/.test(currency)) return { ok: false, reason: "usage" };
  if (kind !== "change" && rawAmount.endsWith("%")) return { ok: false, reason: "usage" };
  const amount = kind === "change" ? rawAmount.replace(/%$/, "") : rawAmount.replace(/^€|€$/g, "");
  // Price levels keep up to eight decimals (coins under a euro); percentages two.
  const parsed = parseAmount(amount, kind === "change" ? "eur" : "btc", locale);
  if (!parsed.ok)
    return { ok: false, reason: "amount", refusal: parsed.reason, maxDecimals: parsed.maxDecimals };
  if (kind === "change" && (parsed.value.lt(MIN_CHANGE_PERCENT) || parsed.value.gt(MAX_CHANGE_PERCENT)))
    return { ok: false, reason: "change-out-of-range" };
  return { ok: true, spec: { currency, kind, level: toPlainString(parsed.value) } };
}

/** Whether an armed alert fires at this price and 24 h change (percent). */
export function fires(alert: Pick<Alert, "kind" | "level">, price: Big, change: Big): boolean {
  const level = new Big(alert.level);
  switch (alert.kind) {
    case "above":
      return price.gte(level);
    case "below":
      return price.lte(level);
    case "change":
      return change.abs().gte(level);
  }
}

/** The value the price (or |24 h change|) must move back past before a fired alert re-arms. */
export function rearmLevel(alert: Pick<Alert, "kind" | "level">): Big {
  const level = new Big(alert.level);
  switch (alert.kind) {
    case "above":
      return level.times(new Big(1).minus(PRICE_REARM_FRACTION));
    case "below":
      return level.times(new Big(1).plus(PRICE_REARM_FRACTION));
    case "change":
      return level.times(CHANGE_REARM_FACTOR);
  }
}

/** Whether a fired (disarmed) alert re-arms at this price and 24 h change. */
export function rearms(alert: Pick<Alert, "kind" | "level">, price: Big, change: Big): boolean {
  const back = rearmLevel(alert);
  switch (alert.kind) {
    case "above":
      return price.lt(back);
    case "below":
      return price.gt(back);
    case "change":
      return change.abs().lt(back);
  }
}

/** True when two alerts watch the same thing (a second one would only double the message). */
export function sameAlert(a: AlertSpec, b: AlertSpec): boolean {
  return a.currency === b.currency && a.kind === b.kind && new Big(a.level).eq(new Big(b.level));
}
