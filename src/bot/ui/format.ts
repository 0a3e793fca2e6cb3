/**
 * Dates and times for people, per locale; amounts live in money.ts. A time is shown in the
 * reader's zone (reader-zone.ts: the user's profile, set per update and per notice) with the zone
 * named, "8:53 AM (Europe/Berlin)"; without a zone, in UTC named as such.
 */
import { readerZone } from "../../domain/reader-zone.ts";
import { zoneLabel } from "../../domain/time-zone.ts";

export { zoneLabel, zoneName } from "../../domain/time-zone.ts";

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

/**
 * A whole hour on a zone's wall clock, with the zone: "09:00 (Europe/Berlin)", "22:00–07:00 UTC".
 * For the hours a user sets (the digest, quiet hours, a plan's hour), read in their zone or in UTC.
 */
export function formatWallClock(clock: string, zone: string | undefined): string {
  return `${clock} ${zoneLabel(zone ?? "UTC")}`;
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
  return `${time} ${zoneLabel(shown)}`;
}

/**
 * A date and time in the reader's zone, the zone always named ("Nov 22, 2026, 1:22 PM UTC",
 * "22.11.2026, 14:22 (Europe/Berlin)"): a time without its zone is read as the reader's local time.
 */
export function formatDateTime(value: number | string, locale: string, zone?: string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  const shown = zoneOf(zone);
  const text = cached(dateTimeFormats, locale, shown, { dateStyle: "medium", timeStyle: "short" }).format(ms);
  return `${text} ${zoneLabel(shown)}`;
}

/** A calendar day ("Nov 29, 2026", "29.11.2026"): a date the exchange or the user gave, as the locale writes it. */
export function formatDate(value: number | string, locale: string): string {
  const ms =
    typeof value === "string"
      ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
      : value;
  return cached(dateFormats, locale, "UTC", { dateStyle: "medium" }).format(ms);
}

/** A moment the user must act on or check (a cooling-off's end, an unfreeze): a date and time, zone named. */
export function formatMoment(value: number, locale: string, zone?: string): string {
  return formatDateTime(value, locale, zone);
}

/** Escapes text for parse_mode HTML: user and exchange data never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
