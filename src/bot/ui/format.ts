/** Dates and times for people, per locale; amounts live in money.ts. */

export function formatTime(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(ms);
}

export function formatDateTime(value: number | string, locale: string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(ms);
}

/** Escapes text for parse_mode HTML: user and exchange data never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
