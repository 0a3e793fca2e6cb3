/**
 * Dates and times for people, per locale; amounts live in money.ts. A time is shown in the
 * reader's zone (reader-zone.ts: the user's profile, set per update and per notice) with the zone
 * named, "8:53 AM (Europe/Berlin)"; without a zone, in UTC named as such.
 */
import { readerZone } from "../../reader-zone.ts";

// Building an Intl formatter costs far more than using one: one per locale, zone and kind.
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(
  formats: Map<string, Intl.DateTimeFormat>,
  locale: string,
  zone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale} ${zone}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formats.set(key, format);
  }
  return format;
}

/** The zone to show times in: the one given, else the reader's, else UTC. */
function zoneOf(zone: string | undefined): string {
  return zone ?? readerZone() ?? "UTC";
}

/** How the zone is named after a time: "UTC", or the name the user chose ("Europe/Berlin"). */
function zoneName(zone: string): string {
  return zone === "UTC" ? "UTC" : `(${zone.replaceAll("_", " ")})`;
}

/** A time of day ("4:04 PM UTC", "16:04 (Europe/Berlin)"): the hour as the locale writes it. */
export function formatTime(ms: number, locale: string, zone?: string): string {
  const shown = zoneOf(zone);
  // Formatted with its zone's name, as the locale writes a time that names one ("06:53 UTC" in
  // German, not "6:53"), and the name then replaced by the user's choice.
  const parts = cached(timeFormats, locale, shown, {
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).formatToParts(ms);
  const time = parts
    .filter((part) => part.type !== "timeZoneName")
    .map((part) => part.value)
    .join("")
    .trim();
  return `${time} ${zoneName(shown)}`;
}

/**
 * A date and time in the reader's zone: named when the user chose one, as UTC times always were
 * in lists (transactions, fields) where a column says the zone once.
 */
export function formatDateTime(value: number | string, locale: string, zone?: string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  const shown = zoneOf(zone);
  const text = cached(dateTimeFormats, locale, shown, { dateStyle: "medium", timeStyle: "short" }).format(ms);
  return shown === "UTC" ? text : `${text} ${zoneName(shown)}`;
}

/** A calendar day ("Nov 29, 2026", "29.11.2026"): a date the exchange or the user gave, as the locale writes it. */
export function formatDate(value: number | string, locale: string): string {
  const ms =
    typeof value === "string"
      ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
      : value;
  return cached(dateFormats, locale, "UTC", { dateStyle: "medium" }).format(ms);
}

/**
 * A moment the user must act on or check (a cooling-off's end, an unfreeze, a login), with its
 * zone always named: "Nov 25, 2026, 2:20 PM UTC" is not read as local time.
 */
export function formatMoment(value: number, locale: string, zone?: string): string {
  const shown = zoneOf(zone);
  const text = formatDateTime(value, locale, shown);
  return shown === "UTC" ? `${text} UTC` : text;
}

/** Escapes text for parse_mode HTML: user and exchange data never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
