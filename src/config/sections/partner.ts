/**
 * The exchange mode, and partner mode's variables: a partner token or a whole service account, the
 * staff's Telegram ids, the support contact, the terms' page.
 */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config, PartnerConfig } from "../types.ts";
import { required, usableTotpSecret } from "./fields.ts";
import { parseSection } from "./section.ts";

const SUPPORT_CONTACT_SHAPE = /^(@\w{4,32}|[^\s@]+@[^\s@]+\.[^\s@]+|https?:\/\/\S+)$/;

const modeSchema = z.object({
  EXCHANGE_MODE: z
    .enum(["account", "partner"], {
      error: (issue) => `EXCHANGE_MODE must be account or partner, not "${String(issue.input)}".`,
    })
    .prefault("account"),
});

/** Either the partner token or the service account, never both, never neither. */
const authChoiceSchema = z
  .object({ PARTNER_TOKEN: z.string().optional(), PARTNER_EMAIL: z.string().optional() })
  .check((context) => {
    const { PARTNER_TOKEN: token, PARTNER_EMAIL: email } = context.value;
    const refuse = (message: string) =>
      context.issues.push({ code: "custom", input: token, path: ["PARTNER_TOKEN"], message });
    if (token !== undefined && email !== undefined) {
      refuse(
        "PARTNER_TOKEN and PARTNER_EMAIL are both set: give either the partner token or the service account (PARTNER_EMAIL, PARTNER_PASSWORD, PARTNER_TOTP_SECRET), not both.",
      );
    } else if (token === undefined && email === undefined) {
      refuse(
        "PARTNER_TOKEN is missing: in partner mode set it to the partner API token, or set PARTNER_EMAIL, PARTNER_PASSWORD and PARTNER_TOTP_SECRET of the partner's service account instead.",
      );
    }
  });

const tokenSchema = z.object({
  PARTNER_TOKEN: z.string().refine((token) => !/\s/.test(token), {
    error: "PARTNER_TOKEN must be the bearer token alone, without spaces.",
  }),
});

const serviceAccountSchema = z.object({
  PARTNER_EMAIL: z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, {
    error: (issue) =>
      `PARTNER_EMAIL must be the service account's e-mail address, not "${String(issue.input)}".`,
  }),
  PARTNER_PASSWORD: required("PARTNER_PASSWORD", "the partner service account's password"),
  PARTNER_TOTP_SECRET: usableTotpSecret(
    required("PARTNER_TOTP_SECRET", "the partner service account's TOTP secret (base32)"),
    "PARTNER_TOTP_SECRET",
  ),
});

/** The terms are a page users open from Telegram: an absolute https URL, nothing else. */
function isTermsUrl(value: string): boolean {
  const parsed = URL.parse(value);
  return parsed?.protocol === "https:" && parsed.username === "" && parsed.password === "";
}

const contactsSchema = z.object({
  OPERATOR_IDS: z
    .string()
    .optional()
    .transform((text) => (text === undefined ? [] : text.split(",").map((id) => id.trim())))
    .pipe(
      z.array(
        z.string().regex(/^\d{1,15}$/, {
          error: (issue) =>
            `OPERATOR_IDS must be Telegram user ids (numbers) separated by commas; "${String(issue.input)}" is not one.`,
        }),
      ),
    ),
  SUPPORT_CONTACT: required(
    "SUPPORT_CONTACT",
    "what customers who cannot be served should contact: an @handle, an e-mail address or a URL",
  ).regex(SUPPORT_CONTACT_SHAPE, {
    error: (issue) =>
      `SUPPORT_CONTACT must be an @handle, an e-mail address or an http(s) URL, not "${String(issue.input)}".`,
  }),
  TERMS_URL: required(
    "TERMS_URL",
    "the https address of the terms your customers agree to at sign-up",
  ).refine(isTermsUrl, {
    error: (issue) =>
      `TERMS_URL must be the https address of your terms, like https://example.com/terms, not "${String(issue.input)}".`,
  }),
});

function partnerAuth(env: Env): PartnerConfig["auth"] {
  const choice = parseSection(authChoiceSchema, env);
  if (choice.PARTNER_TOKEN !== undefined) {
    return { kind: "token", token: parseSection(tokenSchema, env).PARTNER_TOKEN };
  }
  const account = parseSection(serviceAccountSchema, env);
  return {
    kind: "service-account",
    email: account.PARTNER_EMAIL,
    password: account.PARTNER_PASSWORD,
    totpSecret: account.PARTNER_TOTP_SECRET,
  };
}

export function partnerSection(env: Env): Pick<Config, "exchangeMode" | "partner"> {
  const { EXCHANGE_MODE: exchangeMode } = parseSection(modeSchema, env);
  if (exchangeMode !== "partner") return { exchangeMode, partner: undefined };
  const auth = partnerAuth(env);
  const contacts = parseSection(contactsSchema, env);
  return {
    exchangeMode,
    partner: {
      auth,
      operatorIds: contacts.OPERATOR_IDS.map(Number),
      supportContact: contacts.SUPPORT_CONTACT,
      termsUrl: contacts.TERMS_URL,
    },
  };
}
