/**
 * The cryptos partner mode trades against EUR (/buy, /sell and the guided /recurring): each pair's
 * base (GET …/pairs: `base_currency`, or the pair's text without its `eur` end), named as
 * GET …/currencies names it, else by its code.
 *
 * @example
 * const currencies = await externalCall(conversation, () => partnerCurrencies(api));
 */
import type { PartnerApi } from "../../exchange/partner.ts";
import { codeField, recordsOf } from "../../orders/partner-read.ts";
import type { CurrencyChoice } from "../ui/currency-choice.ts";

export async function partnerCurrencies(api: PartnerApi): Promise<CurrencyChoice[]> {
  const [pairs, currencies] = await Promise.all([api.pairs(), api.currencies()]);
  const names = new Map<string, string>();
  for (const row of recordsOf(currencies)) {
    const code = codeField(row, ["code", "currency_code"]);
    const name = row.name;
    if (code !== undefined && typeof name === "string") names.set(code, name);
  }
  const codes = new Set<string>();
  for (const row of recordsOf(pairs)) {
    const pair = codeField(row, ["pair", "symbol"]);
    const base =
      codeField(row, ["base_currency", "base"]) ?? (pair?.endsWith("eur") ? pair.slice(0, -3) : undefined);
    if (base !== undefined && base !== "eur") codes.add(base);
  }
  return [...codes].map((code) => ({ code, name: names.get(code) ?? code.toUpperCase() }));
}
