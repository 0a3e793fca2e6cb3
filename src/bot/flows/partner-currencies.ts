/**
 * The cryptos partner mode trades against EUR (/buy, /sell and the guided /recurring): each pair's
 * base (GET …/pairs: `base_currency`, or the pair's text without its `eur` end), named as
 * GET …/currencies names it, else by its code.
 *
 * @example
 * const currencies = await externalCall(conversation, () => partnerCurrencies(api));
 */
import type { PartnerApi } from "../../exchange/partner.ts";
import type { CurrencyChoice } from "../ui/currency-choice.ts";

export async function partnerCurrencies(api: PartnerApi): Promise<CurrencyChoice[]> {
  const [pairs, currencies] = await Promise.all([api.pairs(), api.currencies()]);
  return pairs.bases.map((code) => ({ code, name: currencies.listed.get(code) ?? code.toUpperCase() }));
}
