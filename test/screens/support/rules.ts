/**
 * What no finished screen shows, one rule each. A rule returns the offending pieces of a screen's
 * text (or of a button's label), so a failure names them; a correct screen yields nothing.
 */
import { foreignWords } from "./language.ts";
import type { Screen } from "./screens.ts";

export interface Finding {
  rule: string;
  /** What on the screen broke the rule. */
  offending: string;
}

export type Rule = (text: string, locale: string, locales: readonly string[]) => string[];

const CURRENCY_CODES = "btc|eth|ltc|xrp|usdc|eur|usd";

/** Links, e-mail addresses and @names are addresses, not words: no rule reads them. */
function withoutAddresses(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\S+@\S+\.\S+/g, " ")
    .replace(/@\w+/g, " ");
}

/** Raw codes of the API: snake_case values, pair codes, our order kinds, lowercase currency codes. */
const rawCode: Rule = (text) => {
  // A command with its arguments ("/safety cap send btc 0.1") and "@bot btc" are what a user types.
  const plain = withoutAddresses(text.replace(/[/@]\w+(?: [a-z0-9.,]+)*/g, " "));
  const found = [
    ...plain.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g),
    ...plain.matchAll(new RegExp(`\\b(?:${CURRENCY_CODES})(?:${CURRENCY_CODES})\\b`, "gi")),
    ...plain.matchAll(/\b(?:partner|account)-(?:buy|sell|withdraw|send)\b/g),
    // "Currency: btc": a code in lowercase is one as the API wrote it.
    ...plain.matchAll(new RegExp(`\\b(?:${CURRENCY_CODES})\\b(?![./])`, "g")),
  ].map((match) => match[0]);
  return [...new Set(found)];
};

const NUMBER = /(?<![\p{L}\p{N}_/.,#-])\d(?:[\d.,]*\d)?(?![\p{L}\p{N}_])/gu;

/** The shapes a number (or numeric date) may take in `locale`, from Intl itself. */
function numberShapes(locale: string): RegExp[] {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const group = parts.find((p) => p.type === "group")?.value ?? ",";
  const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const g = group.replace(/[.]/, "\\.").replace(/\s/, "\\s");
  const d = decimal.replace(/[.]/, "\\.");
  const shapes = [new RegExp(`^\\d{1,3}(?:${g}\\d{3})*(?:${d}\\d+)?$`), new RegExp(`^\\d+(?:${d}\\d+)?$`)];
  const date = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric" }).format(
    new Date(Date.UTC(2026, 10, 29)),
  );
  if (/^\d+\.\d+\.\d+$/.test(date)) shapes.push(/^\d{1,2}\.\d{1,2}\.(?:\d{2}|\d{4})$/);
  return shapes;
}

/** Dates and numbers as the locale writes them: no ISO dates, no "1,000.00" in German. */
const localeFormat: Rule = (text, locale) => {
  const plain = withoutAddresses(text);
  const found = [...plain.matchAll(/\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b/g)].map((m) => m[0]);
  const shapes = numberShapes(locale);
  for (const match of plain.replace(/\b\d{4}-\d{2}-\d{2}\b/g, " ").matchAll(NUMBER)) {
    if (!shapes.some((shape) => shape.test(match[0]))) found.push(match[0]);
  }
  return [...new Set(found)];
};

/** Another language's words (language.ts). */
const otherLanguage: Rule = (text, locale, locales) => foreignWords(text, locale, locales);

/** Sentences about our implementation or the exchange's documentation, in any locale. */
const IMPLEMENTATION = [
  /\bAPI\b/,
  /\bThe exchange says:/,
  /\bDie Börse meldet:/,
  /\bplain numbers\b/,
  /\breinen? Zahlen\b/,
  /\bwithout a unit\b/,
  /\bohne Einheit\b/,
  /\bnot shown\b/,
  /\bnicht angezeigt\b/,
  /\bfields\b/,
  /\bFelder\b/,
  /\b(?:payload|endpoint|JSON|schema|documentation|undocumented|Dokumentation|undokumentiert)\b/i,
  /\(\*\)/,
];
const implementationTalk: Rule = (text) =>
  IMPLEMENTATION.flatMap((pattern) => {
    const match = pattern.exec(text);
    return match ? [lineAround(text, match.index)] : [];
  });

const TIME = /(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?(?![\d:])/;
const ZONE_NAMES = new Set(
  Intl.supportedValuesOf("timeZone").flatMap((zone) => [
    zone,
    zone.split("/").at(-1)?.replace(/_/g, " ") ?? zone,
  ]),
);
/** Zones whose name has a space once written for people ("America/New York", "New York"). */
const SPACED_ZONE_NAMES = [...ZONE_NAMES]
  .map((zone) => zone.replace(/_/g, " "))
  .filter((zone) => zone.includes(" "));
/** A zone: UTC/GMT (with an offset or not), a zone abbreviation, an IANA name or its city. */
function namesZone(line: string): boolean {
  if (/\b(?:UTC|GMT|CET|CEST|MEZ|MESZ)\b/.test(line)) return true;
  if (SPACED_ZONE_NAMES.some((zone) => line.includes(zone))) return true;
  for (const word of line.matchAll(/[A-Z][\p{L}_]+(?:\/[A-Z][\p{L}_]+)*/gu))
    if (ZONE_NAMES.has(word[0])) return true;
  return false;
}
/** A time of day is read in a zone: the line that shows it names the zone. */
const timeWithoutZone: Rule = (text) =>
  text
    .split("\n")
    .filter((line) => TIME.test(line) && !namesZone(line))
    .map((line) => line.trim());

function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return text.slice(start, end < 0 ? undefined : end).trim();
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
const BUTTON_MAX = 30;

export const TEXT_RULES: Record<string, Rule> = {
  "raw code": rawCode,
  "not formatted for the locale": localeFormat,
  "another language": otherLanguage,
  "implementation talk": implementationTalk,
  "time without zone": timeWithoutZone,
};

/** Every finding on a screen: its text and each button label through every rule, and the length of labels. */
export function checkScreen(screen: Screen, locales: readonly string[]): Finding[] {
  const locale = screen.locale;
  const findings: Finding[] = [];
  const labels = screen.buttons.flat();
  for (const [rule, check] of Object.entries(TEXT_RULES)) {
    for (const offending of check(screen.text, locale, locales)) findings.push({ rule, offending });
    // A button is too short for a zone: a time on it is read in the zone its message names.
    if (check === timeWithoutZone && namesZone(screen.text)) continue;
    for (const label of labels)
      for (const offending of check(label, locale, locales))
        findings.push({ rule, offending: `[${label}] ${offending}` });
  }
  for (const label of labels) {
    const length = [...graphemes.segment(label)].length;
    if (length > BUTTON_MAX)
      findings.push({ rule: "button over 30 characters", offending: `[${label}] (${length})` });
  }
  return findings;
}
