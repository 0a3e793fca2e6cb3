/**
 * The euro, as the exchange names it and as users type it. The euro is the fiat side of every
 * trade, the one currency /send cannot send and the currency of bank withdrawals, so several layers
 * (quotes, cards, features) name it; they name it from here.
 */

/** The exchange's code for the euro. */
export const EUR = "eur";

/** What a user may type to mean the euro (lower case; compare with `trim().toLowerCase()`). */
export const EURO_WORDS: ReadonlySet<string> = new Set(["eur", "euro", "euros", "€"]);
