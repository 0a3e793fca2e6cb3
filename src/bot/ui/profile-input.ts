/**
 * The profile fields a partner user may change in /profile, each checked as it is typed, with a
 * sentence per problem (`partner-profile-*`). The address is five answers: street, building
 * number, postal code, city and the three-letter country code the exchange asks for.
 *
 * @example
 * for (const step of profileSteps("phone")) … step.check("+43 660 1234567") // { ok: true, value: "+436601234567" }
 */

export type ProfileField = "name" | "surname" | "phone" | "address";

export type StepCheck = { ok: true; value: string } | { ok: false; refusal: string };

export interface ProfileStep {
  /** The field's name in the update body. */
  name: string;
  /** The question's sentence key. */
  ask: string;
  check(text: string): StepCheck;
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

const NAME: ProfileStep = {
  name: "name",
  ask: "partner-profile-ask-name",
  check: (text) => words(text, 64, "partner-profile-too-long"),
};
const SURNAME: ProfileStep = {
  name: "surname",
  ask: "partner-profile-ask-surname",
  check: (text) => words(text, 64, "partner-profile-too-long"),
};
const PHONE: ProfileStep = { name: "phone", ask: "partner-profile-ask-phone", check: checkPhone };
const ADDRESS: readonly ProfileStep[] = [
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
    check: shaped(/^[A-Z0-9][A-Z0-9 -]{1,9}$/, "partner-profile-postal-invalid"),
  },
  {
    name: "city",
    ask: "partner-profile-ask-city",
    check: (text) => words(text, 64, "partner-profile-too-long"),
  },
  {
    name: "country",
    ask: "partner-profile-ask-country",
    check: shaped(/^[A-Z]{3}$/, "partner-profile-country-invalid"),
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
