/**
 * "A word of another language" on a screen, found word by word with eld (Efficient Language
 * Detector, npm `eld`, its large n-gram set). Measured on the bot's own short UI lines (see the
 * catalogue's report), eld restricted to the bot's locales raised the fewest false alarms of franc,
 * tinyld and eld, and scores a lone word well enough to catch "Status: active" in a German screen.
 * A word counts as foreign when another locale outscores the screen's own by MARGIN; brand and
 * trade words every language uses are allowed below, and so is what the catalogue itself typed in
 * as a person's data (names, banks, cities).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eld } from "eld/large";
import { LOCALES_DIR } from "../../../src/bot/i18n.ts";

/** How far another locale's score must lead (eld's scores are 0..1 per language). */
const MARGIN = 0.15;

/**
 * Words every locale may show as they are: brands, trade terms, units. Keep it short: a word that
 * a translator could translate does not belong here.
 */
export const ALLOWED_WORDS = new Set(
  [
    // Brands and products.
    "Bitcoin",
    "Ethereum",
    "Litecoin",
    "Ripple",
    "Telegram",
    "Mini",
    "App",
    "Koinly",
    "CoinTracking",
    // Trade and banking terms used as they are in German too.
    "IBAN",
    "BIC",
    "SEPA",
    "2FA",
    "PIN",
    "PINs",
    "Token",
    "Coins",
    "Krypto",
    "Euro",
    "Limit",
    "Limits",
    "Plan",
    "Status",
    "Support",
    "Format",
    "Code",
    "Codes",
    "Bot",
    "Chat",
    "Online",
    "Stop",
    "Exponent",
    // "USD Coin"; the authenticator app; Sumsub's "share token", as its app names it.
    "Coin",
    "Authenticator",
    "Share",
  ].map((word) => word.toLowerCase()),
);

/** What the catalogue typed as a person's data, and the sandbox's own names. */
export const TEST_DATA_WORDS = new Set(
  [
    "Ada",
    "Lovelace",
    "Tester",
    "Sandbox",
    "Exchange",
    "GmbH",
    "Partnerbank",
    "Sparkasse",
    "Berlin",
    "Lisbon",
    "Unter",
    "den",
    "Linden",
    "Germany",
    "Commerzbank",
    "COBADEFFXXX",
    "Cold",
    "Wallet",
    "West",
    "Other",
    "blue",
    "tiger",
    "Sandstraße",
    // The account scenarios' other accounts, banks, saved address and business profile.
    "Finn",
    "Finn's",
    "Grace",
    "Hopper",
    "Trading",
    "Leaving",
    "Gone",
    "Vault",
    "Hafenweg",
    "Hamburg",
  ].map((word) => word.toLowerCase()),
);

const vocabularies = new Map<string, Set<string>>();

/** The words a locale's file writes itself (placeables and selector keys left out), as written. */
function vocabulary(locale: string): Set<string> {
  let words = vocabularies.get(locale);
  if (words === undefined) {
    words = new Set();
    const source = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
    for (const line of source.split("\n")) {
      if (line.startsWith("#")) continue;
      const text = line
        .replace(/^[a-z][a-z0-9-]* *=/, " ")
        .replace(/\{[^{}]*\}/g, " ")
        .replace(/^\s*\*?\[[^\]]+\]/, " ");
      for (const match of text.matchAll(/\p{L}[\p{L}'’-]*\p{L}/gu)) words.add(match[0]);
    }
    vocabularies.set(locale, words);
  }
  return words;
}

/**
 * A word only this locale's translator wrote ("Unfrozen" in English) is the locale's own, whatever
 * eld thinks of it; a word both files write ("Allowlist") is checked like any other.
 */
function translatorsOwn(word: string, locale: string, locales: readonly string[]): boolean {
  return (
    vocabulary(locale).has(word) && !locales.some((other) => other !== locale && vocabulary(other).has(word))
  );
}

const ownWordsCache = new Map<string, Set<string>>();

/** The month and weekday names Intl writes in `locale` (eld takes "Tue" for German). */
function ownWords(locale: string): Set<string> {
  let words = ownWordsCache.get(locale);
  if (words === undefined) {
    words = new Set();
    for (let month = 0; month < 12; month++)
      for (const style of ["long", "short"] as const)
        words.add(
          new Intl.DateTimeFormat(locale, { month: style })
            .format(new Date(Date.UTC(2026, month, 15)))
            .replace(/\.$/, "")
            .toLowerCase(),
        );
    for (let day = 0; day < 7; day++)
      for (const style of ["long", "short"] as const)
        words.add(
          new Intl.DateTimeFormat(locale, { weekday: style })
            .format(new Date(Date.UTC(2026, 10, 16 + day)))
            .replace(/\.$/, "")
            .toLowerCase(),
        );
    ownWordsCache.set(locale, words);
  }
  return words;
}

const scoreCache = new Map<string, Record<string, number>>();

function scores(word: string, locales: readonly string[]): Record<string, number> {
  let known = scoreCache.get(word);
  if (known === undefined) {
    eld.setLanguageSubset([...locales]);
    known = eld.detect(word).getScores();
    scoreCache.set(word, known);
  }
  return known;
}

/** Whether `word` reads as another of `locales` than `locale`. */
function foreign(word: string, locale: string, locales: readonly string[]): boolean {
  const s = scores(word, locales);
  const own = s[locale] ?? 0;
  return locales.some((other) => other !== locale && (s[other] ?? 0) - own >= MARGIN);
}

/**
 * The words of `text` that read as another locale's. Left out before looking: links, e-mail
 * addresses, @names, /commands themselves (their arguments are words a user types, and are
 * checked), codes in capitals (BTC, KYC), and words of fewer than three letters.
 */
export function foreignWords(text: string, locale: string, locales: readonly string[]): string[] {
  const own = ownWords(locale);
  const plain = text
    // What the user typed, quoted back ("I do not know the currency “dogecoin”").
    .replace(/“[^”\n]*”|„[^“\n]*“|"[^"\n]*"/g, " ")
    // Time zones by their IANA names (Europe/Berlin).
    .replace(/\b[A-Z][A-Za-z_]+\/[A-Z][A-Za-z_/]+/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\S+@\S+/g, " ")
    .replace(/@\w+/g, " ")
    .replace(/\/[a-z]+\b/g, " ")
    // The end of a shortened address after its ellipsis ("Bitcoin …altlhr"): data, not a word.
    .replace(/…\S+/g, " ");
  // The language picker names each language in its own words ("Deutsch" on an English screen).
  const ownNames = new Set(
    locales.map((l) => new Intl.DisplayNames([l], { type: "language" }).of(l)?.toLowerCase() ?? l),
  );
  const found: string[] = [];
  // Whole words only: letters inside an address or a code ("rfthweg9…") are no word.
  for (const match of plain.matchAll(/(?<![\p{L}\p{N}_])\p{L}[\p{L}'’-]*\p{L}(?![\p{L}\p{N}_])/gu)) {
    const token = match[0];
    if (token === token.toUpperCase()) continue;
    // A compound is foreign only when none of its parts is the screen's language ("Anti-Phishing-Satz").
    const parts = token.split("-").filter((part) => part.length >= 3);
    if (parts.length === 0) continue;
    const suspicious = parts.filter((part) => {
      const lower = part.toLowerCase();
      if (ALLOWED_WORDS.has(lower) || TEST_DATA_WORDS.has(lower) || ownNames.has(lower) || own.has(lower))
        return false;
      if (translatorsOwn(part, locale, locales)) return false;
      return foreign(lower, locale, locales);
    });
    const allowedParts = parts.filter((part) => ALLOWED_WORDS.has(part.toLowerCase())).length;
    if (suspicious.length > 0 && suspicious.length + allowedParts === parts.length) found.push(token);
  }
  return [...new Set(found)];
}
