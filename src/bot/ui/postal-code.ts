/**
 * Postal codes as each SEPA country writes them (the countries whose people can pay in and out in
 * euro here), keyed by the three-letter code the exchange asks for. Sources: each postal service's
 * format as listed in the UPU's "Postal addressing systems" and Wikipedia's "List of postal codes";
 * only the shape is checked (digits, letters, where a space or hyphen goes), not that the code
 * exists. A country outside the table gets the loose check: 3 to 10 letters and digits with at
 * least one digit (every SEPA country's codes have one, so "Berlin" is never a postal code).
 * `example` is what the refusal shows.
 *
 * @example
 * checkPostalCode("10115", "DEU"); // { ok: true, value: "10115" }
 * checkPostalCode("Berlin", "DEU"); // { ok: false, example: "10115" }
 */

interface PostalFormat {
  shape: RegExp;
  example: string;
}

const FORMATS: Readonly<Record<string, PostalFormat>> = {
  AND: { shape: /^AD\d{3}$/, example: "AD500" },
  AUT: { shape: /^\d{4}$/, example: "1010" },
  BEL: { shape: /^\d{4}$/, example: "1000" },
  BGR: { shape: /^\d{4}$/, example: "1000" },
  CHE: { shape: /^\d{4}$/, example: "8001" },
  CYP: { shape: /^\d{4}$/, example: "1010" },
  CZE: { shape: /^\d{3} ?\d{2}$/, example: "110 00" },
  DEU: { shape: /^\d{5}$/, example: "10115" },
  DNK: { shape: /^\d{4}$/, example: "1050" },
  ESP: { shape: /^(?:0[1-9]|[1-4]\d|5[0-2])\d{3}$/, example: "28001" },
  EST: { shape: /^\d{5}$/, example: "10111" },
  FIN: { shape: /^\d{5}$/, example: "00100" },
  FRA: { shape: /^\d{5}$/, example: "75001" },
  GBR: { shape: /^(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|GIR ?0AA)$/, example: "SW1A 1AA" },
  GRC: { shape: /^\d{3} ?\d{2}$/, example: "105 57" },
  HRV: { shape: /^\d{5}$/, example: "10000" },
  HUN: { shape: /^\d{4}$/, example: "1051" },
  IRL: { shape: /^(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}$/, example: "D02 X285" },
  ISL: { shape: /^\d{3}$/, example: "101" },
  ITA: { shape: /^\d{5}$/, example: "00184" },
  LIE: { shape: /^94(?:8[5-9]|9[0-8])$/, example: "9490" },
  LTU: { shape: /^(?:LT-?)?\d{5}$/, example: "LT-01100" },
  LUX: { shape: /^(?:L-?)?\d{4}$/, example: "L-1009" },
  LVA: { shape: /^(?:LV-?)?\d{4}$/, example: "LV-1050" },
  MCO: { shape: /^980\d{2}$/, example: "98000" },
  MLT: { shape: /^[A-Z]{3} ?\d{4}$/, example: "VLT 1117" },
  NLD: { shape: /^\d{4} ?[A-Z]{2}$/, example: "1012 JS" },
  NOR: { shape: /^\d{4}$/, example: "0150" },
  POL: { shape: /^\d{2}-\d{3}$/, example: "00-950" },
  PRT: { shape: /^\d{4}-\d{3}$/, example: "1100-148" },
  ROU: { shape: /^\d{6}$/, example: "010011" },
  SMR: { shape: /^4789\d$/, example: "47890" },
  SVK: { shape: /^\d{3} ?\d{2}$/, example: "811 01" },
  SVN: { shape: /^(?:SI-?)?\d{4}$/, example: "1000" },
  SWE: { shape: /^\d{3} ?\d{2}$/, example: "111 22" },
  VAT: { shape: /^00120$/, example: "00120" },
};

const LOOSE: PostalFormat = { shape: /^(?=[A-Z -]*\d)[A-Z0-9][A-Z0-9 -]{1,9}$/, example: "10115" };

export type PostalCheck = { ok: true; value: string } | { ok: false; example: string };

/** The postal code as typed (upper case, spaces collapsed), checked against `country`'s format. */
export function checkPostalCode(text: string, country: string | undefined): PostalCheck {
  const value = text.trim().replace(/\s+/g, " ").toUpperCase();
  const format = (country === undefined ? undefined : FORMATS[country]) ?? LOOSE;
  return format.shape.test(value) ? { ok: true, value } : { ok: false, example: format.example };
}
