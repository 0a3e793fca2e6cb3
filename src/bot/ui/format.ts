/** Dates and times for people, per locale; amounts live in money.ts. */

// Building an Intl formatter costs far more than using one: one per locale and kind.
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(
  formats: Map<string, Intl.DateTimeFormat>,
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let format = formats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(locale, format);
  }
  return format;
}

/** A time of day ("4:04 PM UTC", "16:04 UTC"): the hour as the locale writes it, like formatDateTime. */
export function formatTime(ms: number, locale: string): string {
  return cached(timeFormats, locale, {
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(ms);
}

export function formatDateTime(value: number | string, locale: string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  return cached(dateTimeFormats, locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
    ms,
  );
}

/** A calendar day ("Nov 29, 2026", "29.11.2026"): a date the exchange or the user gave, as the locale writes it. */
export function formatDate(value: number | string, locale: string): string {
  const ms =
    typeof value === "string"
      ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
      : value;
  return cached(dateFormats, locale, { dateStyle: "medium", timeZone: "UTC" }).format(ms);
}

/**
 * A moment the user must act on or check (a cooling-off's end, an unfreeze, a login), with its
 * zone named as formatTime does: "Nov 25, 2026, 2:20 PM UTC" is not read as local time.
 */
export function formatMoment(value: number, locale: string): string {
  return `${formatDateTime(value, locale)} UTC`;
}

/** Escapes text for parse_mode HTML: user and exchange data never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
