/**
 * A calendar date as a user types it: the numeric form their locale writes (Intl's own order and
 * separator: 30.06.2027 in German, 06/30/2027 in English), the day-first dotted form, or ISO
 * (2027-06-30) in every locale; and the example a prompt shows, in the locale's form.
 *
 * @example
 * readTypedDate("30.6.2027", "de"); // "2027-06-30"
 * readTypedDate("06/30/2027", "en"); // "2027-06-30"
 * dateExample("2027-06-30", "de"); // "30.06.2027"
 */
import { parseDate } from "../../plans/schedule.ts";

type Field = "day" | "month" | "year";

const examples = new Map<string, Intl.DateTimeFormat>();
const shapes = new Map<string, { pattern: RegExp; order: Field[] }>();

function numericFormat(locale: string): Intl.DateTimeFormat {
  let format = examples.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      timeZone: "UTC",
    });
    examples.set(locale, format);
  }
  return format;
}

/** "2027-06-30" as the locale writes it in digits ("30.06.2027", "06/30/2027"). */
export function dateExample(iso: string, locale: string): string {
  return numericFormat(locale).format(Date.parse(`${iso}T00:00:00Z`));
}

/** The locale's numeric date as a pattern, read from how Intl writes one: its order and separators. */
function localeShape(locale: string): { pattern: RegExp; order: Field[] } {
  let shape = shapes.get(locale);
  if (shape === undefined) {
    const order: Field[] = [];
    let source = "";
    for (const part of numericFormat(locale).formatToParts(Date.UTC(2027, 5, 30))) {
      if (part.type === "day" || part.type === "month" || part.type === "year") {
        order.push(part.type);
        source += part.type === "year" ? "(\\d{4})" : "(\\d{1,2})";
      } else source += part.value.trim().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
    shape = { pattern: new RegExp(`^${source}$`), order };
    shapes.set(locale, shape);
  }
  return shape;
}

const DOTTED = { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ["day", "month", "year"] as Field[] };

/** A date typed in the locale's form, day-first with dots, or ISO → "2027-06-30"; undefined when none. */
export function readTypedDate(text: string, locale: string): string | undefined {
  const typed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(typed)) return parseDate(typed) === undefined ? undefined : typed;
  for (const { pattern, order } of [localeShape(locale), DOTTED]) {
    const match = pattern.exec(typed);
    if (match === null) continue;
    const field = (name: Field) => match[order.indexOf(name) + 1] ?? "";
    const iso = `${field("year")}-${field("month").padStart(2, "0")}-${field("day").padStart(2, "0")}`;
    return parseDate(iso) === undefined ? undefined : iso;
  }
  return undefined;
}

/** The example end date of a plan a prompt shows: 30 June of next year, in the locale's form. */
export function endDateExample(now: number, locale: string): string {
  return dateExample(`${new Date(now).getUTCFullYear() + 1}-06-30`, locale);
}
