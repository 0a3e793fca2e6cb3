/**
 * The shapes of a variable shared by the sections, each carrying the sentence it says when the
 * value does not fit. Values arrive trimmed, an empty one unset (`cleaned`).
 */
import { z } from "zod";
import { operatorCode } from "../../support/totp.ts";

/** The words .env.example puts where a real value goes. */
const PLACEHOLDER = /replace-(with|me)/i;

const missing = (name: string, what: string) => `${name} is missing: set it to ${what}.`;

/** A variable that must be set. */
export function required(name: string, what: string): z.ZodString {
  return z.string({ error: () => missing(name, what) });
}

/** A value copied from .env.example unchanged passes every format check, then fails far away. */
export function withoutPlaceholder(schema: z.ZodString, name: string, what: string): z.ZodString {
  return schema.refine((value) => !PLACEHOLDER.test(value), {
    error: `${name} is still the placeholder from .env.example: put ${what} there.`,
  });
}

/** An absolute URL of one of `protocols`, without its trailing slashes. */
export function url(schema: z.ZodString, name: string, protocols: string[]) {
  return schema
    .refine((value) => URL.canParse(value), {
      error: (issue) =>
        `${name} is not a URL: "${String(issue.input)}" should look like ${protocols[0]}//host.`,
    })
    .refine((value) => !URL.canParse(value) || protocols.includes(new URL(value).protocol), {
      error: (issue) =>
        `${name} must start with ${protocols.join(" or ")}, not ${new URL(String(issue.input)).protocol}.`,
    })
    .transform((value) => value.replace(/\/+$/, ""));
}

/** A whole number from `min` to `max` (digits only), or `sentence` naming the value. */
export function wholeNumber(min: number, max: number, sentence: (value: string) => string) {
  return z
    .string()
    .refine((value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max, {
      error: (issue) => sentence(String(issue.input)),
    })
    .transform(Number);
}

/** A TOTP secret that cannot make a code stops start-up now, not at its first use. */
export function usableTotpSecret(schema: z.ZodString, name: string): z.ZodString {
  return schema.refine(
    (secret) => {
      try {
        operatorCode(secret, Date.now());
        return true;
      } catch {
        return false;
      }
    },
    {
      error: `${name} is not a usable TOTP secret: give the base32 text the authenticator setup shows (16 characters or more).`,
    },
  );
}
