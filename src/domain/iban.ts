/**
 * IBANs for people: grouped in fours, or masked so that a chat screenshot does not give the whole
 * number away (the country and check digits and the last four stay, enough to recognise it). Below
 * bot/ because a withdrawal's quote keeps the masked IBAN in the order ledger (orders/).
 *
 * @example
 * maskIban("DE89 3704 0044 0532 0130 00"); // "DE89 •••• •••• 3000"
 * groupIban("de89370400440532013000");     // "DE89 3704 0044 0532 0130 00"
 */

const MASK = "••••";

/** Upper case, no spaces or dashes: the electronic form. */
export function compactIban(iban: string): string {
  return iban.replace(/[\s-]+/g, "").toUpperCase();
}

/** The printed form: groups of four. */
export function groupIban(iban: string): string {
  return (
    compactIban(iban)
      .match(/.{1,4}/g)
      ?.join(" ") ?? ""
  );
}

/** First four and last four characters, the middle masked; short or odd input keeps only its tail. */
export function maskIban(iban: string): string {
  const compact = compactIban(iban);
  if (compact.length < 12) return `${MASK} ${compact.slice(-4)}`.trim();
  return `${compact.slice(0, 4)} ${MASK} ${MASK} ${compact.slice(-4)}`;
}
