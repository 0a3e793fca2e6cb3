/**
 * What /send and /addresses say about a typed crypto currency or recipient address: the checks are
 * below the bot (src/domain/crypto-address.ts, currency-choice.ts), the sentences here, shared by both.
 */
import type { AddressCheck } from "../../domain/crypto-address.ts";
import { EURO_WORDS } from "../../domain/currency.ts";
import type { Translate } from "../../domain/translate.ts";
import { type CurrencyChoice, knownCodes, resolveCurrency } from "./currency-choice.ts";
import { userText } from "./user-text.ts";

export function addressRefusal(
  t: Translate,
  checked: Exclude<AddressCheck, { ok: true }>,
  code: string,
): string {
  switch (checked.reason) {
    case "empty":
      return t("send-address-empty", { code });
    case "too-long":
      return t("send-address-too-long", { code });
    case "invalid":
      return t("send-address-invalid", { code });
    case "other-currency":
      return t("send-address-other-currency", { code, other: checked.other.toUpperCase() });
  }
}

/** A crypto currency as typed (euros are not sent). */
export function pickCryptoCurrency(text: string, currencies: readonly CurrencyChoice[]): string | undefined {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return undefined;
  return resolveCurrency(text, currencies)?.code;
}

export function cryptoCurrencyRefusal(
  t: Translate,
  text: string,
  currencies: readonly CurrencyChoice[],
): string {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return t("send-eur");
  return t("send-unknown-currency", { input: userText(text, 32), codes: knownCodes(currencies) });
}

/** A label for a saved address: 1–32 characters, no markup; undefined when unusable. */
export function cleanLabel(text: string, max: number): string | undefined {
  const label = text.trim().replace(/\s+/g, " ");
  const length = Array.from(label).length;
  return length >= 1 && length <= max && !/[<>]/.test(label) ? label : undefined;
}
