/**
 * Checks of a bank account's details as a person types them, before anything is sent to the
 * exchange: the IBAN's country, length, format and check digits, and the BIC's shape (ibantools).
 * Each problem has its own sentence (`banks-iban-*`, `banks-bic-*`, `banks-name-*`), so the user
 * knows what to fix.
 *
 * @example
 * checkIban("de89 3704 0044 0532 0130 00", []); // { ok: true, iban: "DE89370400440532013000" }
 * checkIban("DE89370400440532013001", []);      // { ok: false, refusal: { key: "banks-iban-checksum" } }
 * checkBic("cobadeffxxx");                       // { ok: true, bic: "COBADEFFXXX" }
 */
import {
  electronicFormatIBAN,
  ValidationErrorsBIC,
  ValidationErrorsIBAN,
  validateBIC,
  validateIBAN,
} from "ibantools";
import { compactIban } from "../../domain/iban.ts";
import type { Refusal } from "../../domain/translate.ts";

/** A sentence key (written out in full here) and its variables. */
export const MAX_BANK_NAME = 70;

export type Checked<T extends string> = ({ ok: true } & Record<T, string>) | { ok: false; refusal: Refusal };

/** A bank's name: some letters, no markup characters, not too long. */
export function checkBankName(input: string): Checked<"name"> {
  const name = input.replace(/\s+/g, " ").trim();
  if (name.length < 2 || !/\p{L}/u.test(name)) return { ok: false, refusal: { key: "banks-name-too-short" } };
  if (name.length > MAX_BANK_NAME) {
    return { ok: false, refusal: { key: "banks-name-too-long", vars: { max: MAX_BANK_NAME } } };
  }
  if (/[<>{}\p{Cc}]/u.test(name)) return { ok: false, refusal: { key: "banks-name-characters" } };
  return { ok: true, name };
}

/**
 * An IBAN, printed (`DE89 3704 …`) or electronic, in any case; `existing` are the IBANs the user
 * already has at the exchange.
 */
export function checkIban(input: string, existing: readonly string[]): Checked<"iban"> {
  const typed = compactIban(input);
  if (typed === "") return { ok: false, refusal: { key: "banks-iban-empty" } };
  if (!/^[A-Z0-9]+$/.test(typed)) return { ok: false, refusal: { key: "banks-iban-characters" } };
  const iban = electronicFormatIBAN(typed) ?? typed;
  const result = validateIBAN(iban);
  if (!result.valid) {
    const codes = result.errorCodes;
    const country = iban.slice(0, 2);
    let key = "banks-iban-format";
    if (codes.includes(ValidationErrorsIBAN.NoIBANProvided)) key = "banks-iban-empty";
    else if (codes.includes(ValidationErrorsIBAN.NoIBANCountry)) key = "banks-iban-country";
    else if (codes.includes(ValidationErrorsIBAN.WrongBBANLength)) key = "banks-iban-length";
    else if (codes.includes(ValidationErrorsIBAN.WrongBBANFormat)) key = "banks-iban-format";
    else if (
      codes.includes(ValidationErrorsIBAN.WrongIBANChecksum) ||
      codes.includes(ValidationErrorsIBAN.ChecksumNotNumber) ||
      codes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)
    )
      key = "banks-iban-checksum";
    return { ok: false, refusal: { key, vars: { country } } };
  }
  if (existing.some((other) => compactIban(other) === iban)) {
    return { ok: false, refusal: { key: "banks-iban-exists" } };
  }
  return { ok: true, iban };
}

/** A BIC (SWIFT code): 8 or 11 characters, bank, country, location and optional branch. */
export function checkBic(input: string): Checked<"bic"> {
  const bic = input.replace(/[\s-]+/g, "").toUpperCase();
  if (!/^[A-Z]{4}[A-Z0-9]{4}(?:[A-Z0-9]{3})?$/.test(bic))
    return { ok: false, refusal: { key: "banks-bic-format" } };
  const result = validateBIC(bic);
  if (result.valid) return { ok: true, bic };
  const key = result.errorCodes.includes(ValidationErrorsBIC.NoBICCountry)
    ? "banks-bic-country"
    : "banks-bic-format";
  return { ok: false, refusal: { key } };
}
