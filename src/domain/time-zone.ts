/**
 * A user's time zone, as they tell it (a city, an IANA name or a UTC offset), and the wall-clock
 * arithmetic that quiet hours, the daily digest and recurring plans need: what time it is there,
 * and which instant a local time is. Everything goes through Intl (Node's ICU time zone data), so
 * summer time follows the zone's own rules; nothing here knows Telegram or the store.
 *
 * @example
 * const zone = parseTimeZone("Berlin");            // "Europe/Berlin"
 * parseTimeZone("München");                         // "Europe/Berlin" (time-zone-cities.ts)
 * parseTimeZone("UTC+5:30");                        // "+05:30"
 * localTime(zone, clock.now()).hour;                // 0–23 in Berlin
 * instantOf(zone, { year: 2026, month: 3, day: 29, hour: 2, minute: 30 }); // the gap → 03:30 CEST
 */

import { CITY_ZONES } from "./time-zone-cities.ts";

/** A wall-clock moment in some zone. `month` is 1–12, `weekday` 0 (Sunday) – 6. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

export type LocalDate = Omit<LocalTime, "weekday">;

/** The regions a bare city name is looked up in, in the order the IANA database names them. */
const REGIONS = ["Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian"];

/**
 * The zone a user typed, as a name Intl accepts: an IANA name ("Europe/Berlin"), a city of one
 * ("berlin", "new york", "Kolkata") or a city in English or German the table of time-zone-cities.ts
 * knows ("Wien", "Munich", "München"), "UTC"/"GMT", or an offset ("+2", "UTC-3", "GMT+05:30",
 * "+0530") as a fixed "+HH:MM" zone. Undefined when it is none of these.
 */
export function parseTimeZone(text: string): string | undefined {
  const typed = text.trim();
  if (typed === "") return undefined;
  const offset = parseOffset(typed);
  if (offset !== undefined) return offset;
  if (/^(utc|gmt|z|zulu)$/i.test(typed)) return "UTC";
  const name = typed.replace(/\s+/g, "_");
  if (name.includes("/")) return canonical(name);
  const city = cityZones().get(cityKey(typed));
  if (city !== undefined) return canonical(city);
  for (const region of REGIONS) {
    const zone = canonical(`${region}/${name}`);
    if (zone !== undefined) return zone;
  }
  return undefined;
}

/**
 * A city name as it is compared: no case, no accents, umlauts as their letter ("Zürich",
 * "Zuerich" and "ZURICH" are "zurich"), dashes, underscores and spaces alike.
 */
function cityKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/([aou])e/g, (whole, vowel: string, at: number, all: string) =>
      // "Zuerich" → "zurich", but not a word's own "ue" after a q ("Quebec") or starting it.
      at > 0 && all[at - 1] !== "q" ? vowel : whole,
    )
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[\s_-]+/g, " ");
}

let CITIES: Map<string, string> | undefined;

/**
 * Every city a zone is known by: the city of each IANA zone Intl lists ("Europe/Vienna" →
 * "vienna"), then the maintained table of other names and cities (time-zone-cities.ts), which
 * wins where both name one.
 */
function cityZones(): Map<string, string> {
  if (CITIES === undefined) {
    CITIES = new Map();
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const city = zone.split("/").at(-1);
      if (city !== undefined && zone.includes("/")) CITIES.set(cityKey(city), zone);
    }
    for (const [city, zone] of Object.entries(CITY_ZONES)) CITIES.set(cityKey(city), zone);
  }
  return CITIES;
}

/** "+2", "-03", "UTC+5:30", "gmt-3", "+0530" → "+02:00", "-03:00", "+05:30"…; else undefined. */
function parseOffset(text: string): string | undefined {
  const match = /^(?:utc|gmt)?\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (match === null) return undefined;
  const [, sign, hours, minutes = "00"] = match;
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 14 || m >= 60 || (h === 14 && m > 0)) return undefined;
  const zone = `${sign === "+" ? "+" : "-"}${String(h).padStart(2, "0")}:${minutes}`;
  return zone === "-00:00" ? "+00:00" : zone;
}

/** The zone's name as Intl spells it, or undefined when Intl does not know it. */
function canonical(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Whether a stored zone is still one Intl accepts (a zone saved by an older ICU may be gone). */
export function isTimeZone(zone: string): boolean {
  return canonical(zone) !== undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
    });
    if (formatters.size > 1_000) formatters.clear();
    formatters.set(zone, format);
  }
  return format;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall clock in `zone` at the instant `at` (ms since the epoch). */
export function localTime(zone: string, at: number): LocalTime {
  const fields: Record<string, string> = {};
  for (const part of partsFormatter(zone).formatToParts(at)) fields[part.type] = part.value;
  return {
    year: Number(fields.year),
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    weekday: WEEKDAYS.indexOf(fields.weekday ?? ""),
  };
}

/** Minutes `zone` is ahead of UTC at the instant `at` (Berlin in winter: 60). */
export function offsetMinutes(zone: string, at: number): number {
  const local = localTime(zone, at);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  return Math.round((asUtc - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/**
 * The instant the wall clock in `zone` shows `local`. A time skipped by a summer-time change
 * (02:30 on the night clocks jump from 02:00 to 03:00) is taken as the same time after the jump
 * (03:30); a time that happens twice (the night clocks go back) is its first occurrence.
 */
export function instantOf(zone: string, local: LocalDate): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The offsets on either side of the wall time; one of them is the one in force then.
  const before = offsetMinutes(zone, wall - 86_400_000);
  const after = offsetMinutes(zone, wall + 86_400_000);
  const candidates = [wall - before * 60_000, wall - after * 60_000].sort((a, b) => a - b);
  for (const at of candidates) {
    const seen = localTime(zone, at);
    if (seen.hour === local.hour && seen.minute === local.minute && seen.day === local.day) return at;
  }
  // In the gap: the wall time does not exist; the offset before the change moves it past the jump.
  return wall - before * 60_000;
}

/** The offset as people read it: "UTC+01:00", "UTC−03:30", "UTC". */
export function offsetLabel(zone: string, at: number): string {
  const minutes = offsetMinutes(zone, at);
  if (minutes === 0) return "UTC";
  const sign = minutes > 0 ? "+" : "−";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The number of days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar date `days` after a local date (negative: before), ignoring the time of day. */
export function addDays(date: Pick<LocalDate, "year" | "month" | "day">, days: number) {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/**
 * How a zone is named after a time, the same everywhere a time is shown: "UTC", an offset the user
 * gave as "UTC+05:30", or the name the user chose in brackets ("(Europe/Berlin)").
 */
export function zoneLabel(zone: string): string {
  const name = zoneName(zone);
  return name.startsWith("UTC") ? name : `(${name})`;
}

/** A zone's name in a sentence: "UTC", "UTC+05:30", "Europe/Berlin", "America/New York". */
export function zoneName(zone: string): string {
  if (zone === "UTC") return "UTC";
  if (/^[+-]\d{2}:\d{2}$/.test(zone)) return `UTC${zone}`;
  return zone.replaceAll("_", " ");
}
