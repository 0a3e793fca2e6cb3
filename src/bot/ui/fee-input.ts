/**
 * /fees's input read: `sell 0.01 btc` (in any order), a type or currency button, merged into what
 * is known so far, and the next step (ask for the missing piece, refuse a bad one, or quote).
 * Amounts are read only by money.ts's parseAmount. The command and its flow are
 * features/fees.ts, the sentences ui/fee-text.ts.
 */
import { EUR, EURO_WORDS } from "../../domain/currency.ts";
import { parseAmount } from "../../domain/money.ts";
import type { Refusal, Translate } from "../../domain/translate.ts";
import type { FeeType } from "../../exchange/schemas.ts";
import { AMOUNT_ERROR_KEYS } from "./amount.ts";
import { CALLBACK } from "./callback-data.ts";
import { type CurrencyChoice, knownCodes, resolveCurrency } from "./currency-choice.ts";
import { userText } from "./user-text.ts";

/** The types /fees knows, and their buttons' labels (words a user may type too). */
export const FEE_TYPES: readonly FeeType[] = ["buy", "sell", "send"];
export const FEE_BUTTON_KEYS: Record<FeeType, string> = {
  buy: "fees-button-buy",
  sell: "fees-button-sell",
  send: "fees-button-send",
};

/** What is known so far; JSON-safe, it is a conversation argument. `currency` is a code or "eur". */
export interface FeeRequest {
  type?: FeeType;
  currency?: string;
  /** As typed: parsed with parseAmount once its currency is known. */
  amount?: string;
}

/** A complete request, ready for the exchange. */
export type Ready =
  | { type: "buy" | "sell"; unit: string; amount: string }
  | { type: "send"; currency: string; amount?: string };

export type Step =
  | { kind: "ask"; ask: "type" | "currency" | "amount"; request: FeeRequest }
  | { kind: "refused"; refusal: Refusal; request: FeeRequest }
  | { kind: "ready"; ready: Ready };

/** The words that name a type: `buy`, `sell`, `send`, and the button labels in the user's language. */
export function typeWords(t: Translate): Map<string, FeeType> {
  const words = new Map<string, FeeType>();
  for (const type of FEE_TYPES) {
    words.set(type, type);
    words.set(letters(t(FEE_BUTTON_KEYS[type])), type);
  }
  return words;
}

function letters(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}]/gu, "");
}

/**
 * Splits `sell 0.01 btc` (in any order) into a type, an amount and a currency, and merges them into
 * what was known. Tokens with a digit or a sign are the amount (checked later by parseAmount, so
 * `1e5`, `-3` and `1,000.50` are refused with their own sentence); the other words name the type or
 * the currency.
 */
export function mergeText(
  request: FeeRequest,
  text: string,
  currencies: readonly CurrencyChoice[],
  words: ReadonlyMap<string, FeeType>,
): { request: FeeRequest } | { refusal: Refusal } {
  const next: FeeRequest = { ...request };
  const amountParts: string[] = [];
  const nameParts: string[] = [];
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const type = words.get(letters(raw));
    if (type !== undefined && /^\p{L}+$/u.test(raw)) {
      next.type = type;
      continue;
    }
    // `100€`, `€100`, `100eur`: an amount with its currency attached.
    const attached = /^€(.+)$/.exec(raw) ?? /^(.*\d)(?:€|eur)$/i.exec(raw);
    if (attached?.[1] !== undefined) {
      amountParts.push(attached[1]);
      nameParts.push(EUR);
    } else if (/\d/.test(raw) || /^[+\-−.,]/.test(raw)) {
      amountParts.push(raw);
    } else {
      nameParts.push(raw);
    }
  }
  if (nameParts.length > 0) {
    const name = nameParts.join(" ");
    const code = EURO_WORDS.has(name.toLowerCase()) ? EUR : resolveCurrency(name, currencies)?.code;
    if (code === undefined) {
      return {
        refusal: {
          key: "fees-unknown-currency",
          vars: { input: userText(name, 32), codes: knownCodes(currencies) },
        },
      };
    }
    next.currency = code;
  }
  if (amountParts.length > 0) next.amount = amountParts.join(" ");
  return { request: next };
}

export function mergeTap(
  request: FeeRequest,
  data: string,
  currencies: readonly CurrencyChoice[],
): FeeRequest {
  const tapped = CALLBACK.feesPick.unpack(data);
  if (!tapped) return request;
  const next: FeeRequest = { ...request, type: tapped.type };
  const code = tapped.code;
  if (code !== undefined && isKnown(code, currencies)) next.currency = code;
  return next;
}

export function isKnown(code: string, currencies: readonly CurrencyChoice[]): boolean {
  return code === EUR || currencies.some((c) => c.code === code);
}

/** What to do with what is known: ask for the next missing piece, refuse a bad one, or quote. */
export function nextStep(request: FeeRequest, locale = "en"): Step {
  const ask = (what: "type" | "currency" | "amount"): Step => ({ kind: "ask", ask: what, request });
  const { type, currency, amount } = request;
  if (type === undefined) return ask("type");
  if (type === "send") {
    if (currency === EUR) {
      const { currency: _, ...rest } = request;
      return { kind: "refused", refusal: { key: "fees-send-eur" }, request: rest };
    }
    if (currency === undefined) return ask("currency");
    if (amount === undefined) return { kind: "ready", ready: { type, currency } };
    const parsed = checkAmount(request, currency, locale);
    return "refused" in parsed
      ? parsed.refused
      : { kind: "ready", ready: { type, currency, amount: parsed.value } };
  }
  if (type === "sell" && currency === undefined) return ask("currency");
  if (amount === undefined) return ask("amount");
  const unit = currency ?? EUR;
  const parsed = checkAmount(request, unit, locale);
  return "refused" in parsed
    ? parsed.refused
    : { kind: "ready", ready: { type, unit, amount: parsed.value } };
}

function checkAmount(
  request: FeeRequest,
  unit: string,
  locale: string,
): { value: string } | { refused: Step } {
  const parsed = parseAmount(request.amount ?? "", unit, locale);
  if (parsed.ok) return { value: parsed.value.toFixed() };
  const { amount: _, ...rest } = request;
  return {
    refused: {
      kind: "refused",
      refusal: { key: AMOUNT_ERROR_KEYS[parsed.reason], vars: { decimals: parsed.maxDecimals } },
      request: rest,
    },
  };
}
