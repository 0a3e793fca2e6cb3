/**
 * The exchange API's resources, parsed tolerantly: extra fields are fine, a decimal may come as
 * a number or a string and always leaves here as an exact Big, timestamps with or without a zone
 * leave as ISO 8601 UTC strings. Field names stay as the spec writes them, so the spec can be
 * searched for any of them. The sandbox shares these types.
 */
import { z } from "zod";
import { type Big, decimalFrom } from "../domain/money.ts";

export const decimal = z.union([z.number(), z.string()]).transform((value, ctx): Big => {
  const parsed = decimalFrom(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: "custom", message: "expected a decimal" });
    return z.NEVER;
  }
  return parsed;
});

/** An integer that may arrive as a number or a numeric string. */
export const integer = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** Treats a timestamp without a zone as UTC (the spec does not say; UTC is the tolerant reading). */
export function normalizeTimestamp(text: string): string | undefined {
  const trimmed = text.trim().replace(" ", "T");
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed);
  const ms = Date.parse(hasZone ? trimmed : `${trimmed}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export const timestamp = z.string().transform((value, ctx): string => {
  const iso = normalizeTimestamp(value);
  if (iso === undefined) {
    ctx.addIssue({ code: "custom", message: "expected a timestamp" });
    return z.NEVER;
  }
  return iso;
});

/** A boolean that some servers send as 0/1 or "true"/"false". */
export const looseBoolean = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
]);

const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/** `{data: [...]}` as the spec shows, or a bare array, which some deployments return. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), z.object({ data: z.array(item) }).transform((w) => w.data)]);
}

// ── Account API ────────────────────────────────────────────────────────────────────────────────

export const loginSession = z.object({
  access_token: z.string().min(1),
  expires_in: integer.default(3600),
});
export type LoginSession = z.infer<typeof loginSession>;

export const accountInfo = z.object({
  name: optionalText,
  surname: optionalText,
  birth_of_date: optionalText,
  address: optionalText,
  building_number: optionalText,
  city: optionalText,
  postal_code: optionalText,
  country: optionalText,
  street_address: optionalText,
  email: optionalText,
  account_type: optionalText,
  company_name: optionalText,
  company_address: optionalText,
  vat_number: optionalText,
  registration_number: optionalText,
});
export type AccountInfo = z.infer<typeof accountInfo>;

export const balance = z.object({ balance: decimal });
export type Balance = z.infer<typeof balance>;

export const cryptoBalance = z.object({
  currency_code: z.string(),
  balance: decimal,
  fiat_conversion: decimal,
});
export type CryptoBalance = z.infer<typeof cryptoBalance>;
export const cryptoBalances = listOf(cryptoBalance);

export const exchangeRate = z.object({
  pair: z.string(),
  price: decimal,
  date: timestamp.optional(),
  timestamp: integer.optional(),
});
export type ExchangeRate = z.infer<typeof exchangeRate>;

export const priceItem = z.object({
  currency_name: z.string(),
  currency_code: z.string(),
  price: decimal,
  "24hr_change": decimal,
});
export type PriceItem = z.infer<typeof priceItem>;
export const prices = listOf(priceItem);

export const fee = z.object({ fee: decimal });
export const minimum = z.object({ minimum: decimal });

export const LIMIT_TYPES = [
  "fiat_deposit",
  "crypto_deposit",
  "fiat_withdrawal",
  "crypto_withdrawal",
  "credit_card_buy",
] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export const limitRecord = z.object({
  status: optionalText,
  limit: z.object({
    id: integer.optional(),
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
    tier: optionalText,
    code: z.string(),
    daily: decimal,
    monthly: decimal,
    state: optionalText,
  }),
  spent: z.object({ day_used: decimal, month_used: decimal }),
});
export type LimitRecord = z.infer<typeof limitRecord>;
/** One record (as shown for a typed request), a list, or a `data` wrapper: always a list here. */
export const limitRecords = z.union([limitRecord.transform((r) => [r]), listOf(limitRecord)]);

export const address = z.looseObject({
  currency_name: z.string(),
  address: z.string(),
  currency_code: z.string().optional(),
});
export type Address = z.infer<typeof address>;
export const addresses = listOf(address);

/** Extra fields (amount, currency) are kept: the bot uses them to reconcile orders when present. */
export const transaction = z.looseObject({
  id: integer,
  state: z.string(),
  transaction_type: z.string(),
  created_at: timestamp,
  updated_at: timestamp.optional(),
});
export type Transaction = z.infer<typeof transaction>;
export const transactions = listOf(transaction);

export const bankAccount = z.object({
  id: integer,
  name: z.string(),
  iban: z.string(),
  swift_bic: z.string(),
  reference_number: z.string(),
  state: z.string(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});
export type BankAccount = z.infer<typeof bankAccount>;
export const bankAccounts = listOf(bankAccount);

export const statusReply = z.object({ status: z.union([z.string(), z.boolean()]) });
export const bankAccountCreated = z.object({
  status: z.union([z.string(), z.boolean()]),
  reference_number: z.string(),
});
export const assetStatus = z.object({ state: looseBoolean });

export const FEE_TYPES = ["buy", "sell", "send"] as const;
export type FeeType = (typeof FEE_TYPES)[number];
export const ASSET_STATUS_TYPES = ["buy", "sell", "send", "receive"] as const;
export type AssetStatusType = (typeof ASSET_STATUS_TYPES)[number];

// ── Partner API ────────────────────────────────────────────────────────────────────────────────

export const partnerUser = z.object({
  status: looseBoolean.optional(),
  data: z.looseObject({
    email: optionalText,
    name: optionalText,
    surname: optionalText,
    phone: optionalText,
    date_of_birth: optionalText,
    address: optionalText,
    building_number: optionalText,
    city: optionalText,
    postal_code: optionalText,
    country: optionalText,
    status: optionalText,
    // Values outside the documented lists are kept as text: the lists may grow.
    kyc_status: z.string(),
    edd_status: optionalText,
  }),
});
export type PartnerUser = z.infer<typeof partnerUser>["data"];

export const partnerUserCreated = z.object({
  status: looseBoolean.optional(),
  data: z.looseObject({ id: integer }),
});

export const partnerMasterBalance = z.object({
  status: looseBoolean.optional(),
  data: z.looseObject({ balance: decimal, currency_code: z.string() }),
});

export const partnerOrderReceipt = z.object({
  status: looseBoolean.optional(),
  data: z.looseObject({ transaction_id: integer }),
});

export const partnerBankAccount = bankAccount.omit({ created_at: true, updated_at: true });
export const partnerBankAccounts = z.object({
  status: looseBoolean.optional(),
  data: z.array(partnerBankAccount),
});

export const partnerStatus = z.object({ status: looseBoolean });
