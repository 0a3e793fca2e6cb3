/**
 * The profile fields a partner user may change in /profile, each checked as it is typed, with a
 * sentence per problem (`partner-profile-*`). The address is five answers: the three-letter country
 * code the exchange asks for (first, so the postal code can be checked against its format), street,
 * building number, postal code and city.
 *
 * @example
 * for (const step of profileSteps("phone")) … step.check("+43 660 1234567") // { ok: true, value: "+436601234567" }
 */

import { checkPostalCode } from "./postal-code.ts";

export type ProfileField = "name" | "surname" | "phone" | "address";

export type StepCheck =
  | { ok: true; value: string }
  | { ok: false; refusal: string; vars?: Record<string, string | number> };

export interface ProfileStep {
  /** The field's name in the update body. */
  name: string;
  /** The question's sentence key. */
  ask: string;
  /** `earlier`: the answers of the steps before, by name (the postal code reads the country). */
  check(text: string, earlier: Readonly<Record<string, string>>): StepCheck;
}

/**
 * A name as on an ID, in any script: letters and their marks, with spaces, hyphens, apostrophes
 * and dots between them ("Anna-Lena", "O'Brien", "J. R.", "Zoë", "Алексей"); no digits, emoji or
 * other symbols. Starts with a letter; at most 64 characters.
 */
const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} .\u0027\u2019\u02BC-]*$/u;
export const NAME_MAX = 64;

/** The name with its spaces collapsed, or undefined when it is not one (`PERSON_NAME`). */
export function checkPersonName(text: string): string | undefined {
  const name = text.replace(/\s+/g, " ").trim();
  return name.length <= NAME_MAX && PERSON_NAME.test(name) ? name : undefined;
}

function personName(text: string): StepCheck {
  const name = checkPersonName(text);
  return name === undefined
    ? { ok: false, refusal: "partner-profile-name-invalid" }
    : { ok: true, value: name };
}

/** No markup or control characters, some letters, not too long. */
function words(text: string, max: number, tooLong: string): StepCheck {
  const value = text.replace(/\s+/g, " ").trim();
  if (value === "" || !/\p{L}|\d/u.test(value)) return { ok: false, refusal: "partner-profile-empty" };
  if (/[<>{}\p{Cc}]/u.test(value)) return { ok: false, refusal: "partner-profile-characters" };
  if (value.length > max) return { ok: false, refusal: tooLong };
  return { ok: true, value };
}

/** An international number: `+`, country code and subscriber number, 8 to 15 digits in all. */
export function checkPhone(text: string): StepCheck {
  const compact = text.replace(/[\s().-]+/g, "").replace(/^00/, "+");
  if (!/^\+[1-9]\d{7,14}$/.test(compact)) return { ok: false, refusal: "partner-profile-phone-invalid" };
  return { ok: true, value: compact };
}

/** Upper case, and the whole answer must match `shape`. */
function shaped(shape: RegExp, refusal: string): (text: string) => StepCheck {
  return (text) => {
    const value = text.trim().toUpperCase();
    return shape.test(value) ? { ok: true, value } : { ok: false, refusal };
  };
}

const NAME: ProfileStep = { name: "name", ask: "partner-profile-ask-name", check: personName };
const SURNAME: ProfileStep = { name: "surname", ask: "partner-profile-ask-surname", check: personName };
const PHONE: ProfileStep = { name: "phone", ask: "partner-profile-ask-phone", check: checkPhone };
/** The country first: the postal code is checked against its format (postal-code.ts). */
const ADDRESS: readonly ProfileStep[] = [
  {
    name: "country",
    ask: "partner-profile-ask-country",
    check: shaped(/^[A-Z]{3}$/, "partner-profile-country-invalid"),
  },
  {
    name: "address",
    ask: "partner-profile-ask-street",
    check: (text) => words(text, 128, "partner-profile-too-long"),
  },
  {
    name: "building_number",
    ask: "partner-profile-ask-building",
    check: (text) => words(text, 16, "partner-profile-too-long"),
  },
  {
    name: "postal_code",
    ask: "partner-profile-ask-postal",
    check: (text, earlier) => {
      const checked = checkPostalCode(text, earlier.country);
      if (checked.ok) return checked;
      const vars = { example: checked.example, country: earlier.country ?? "" };
      return { ok: false, refusal: "partner-profile-postal-invalid", vars };
    },
  },
  {
    name: "city",
    ask: "partner-profile-ask-city",
    check: (text) => words(text, 64, "partner-profile-too-long"),
  },
];

export function profileSteps(field: ProfileField): readonly ProfileStep[] {
  switch (field) {
    case "name":
      return [NAME];
    case "surname":
      return [SURNAME];
    case "phone":
      return [PHONE];
    case "address":
      return ADDRESS;
  }
}
