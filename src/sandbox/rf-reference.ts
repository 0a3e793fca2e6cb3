/**
 * ISO 11649 creditor references ("RF" references): `RF`, two check digits, then up to 21
 * alphanumeric characters. The check digits make the whole reference satisfy mod 97 = 1, the same
 * rule as an IBAN, so a typo in a withdrawal target is caught before money moves.
 *
 * @example
 * const ref = makeRfReference("0000100001"); // "RF..0000100001"
 * isValidRfReference(ref); // true
 */

const BODY = /^[0-9A-Z]{1,21}$/;

/** Letters count as two digits (A = 10 … Z = 35); the remainder is taken piecewise to stay exact. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const digits = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** Builds the reference for a body of 1–21 characters from 0-9 and A-Z. */
export function makeRfReference(body: string): string {
  const upper = body.toUpperCase();
  if (!BODY.test(upper)) throw new RangeError("An RF reference body is 1 to 21 characters of 0-9 and A-Z.");
  const check = 98 - mod97(`${upper}RF00`);
  return `RF${String(check).padStart(2, "0")}${upper}`;
}

/** True for a well-formed reference whose check digits are right; spaces are ignored. */
export function isValidRfReference(reference: string): boolean {
  const compact = reference.replace(/\s+/g, "").toUpperCase();
  const match = /^RF(\d{2})([0-9A-Z]{1,21})$/.exec(compact);
  if (!match) return false;
  const [, check = "", body = ""] = match;
  return mod97(`${body}RF${check}`) === 1;
}
