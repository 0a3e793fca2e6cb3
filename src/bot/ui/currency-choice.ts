/**
 * Which currency did the user mean? `btc`, `BTC`, `btceur`, `BTC/EUR`, `bitcoin` and `Bitcoin` all
 * name the same one, resolved against the exchange's own list (GET v1/prices), so a coin the
 * exchange adds is known at once. Plus the keyboard that offers the list as buttons.
 *
 * @example
 * resolveCurrency("Bitcoin", [{ code: "btc", name: "Bitcoin" }]); // { code: "btc", name: "Bitcoin" }
 */
import { InlineKeyboard } from "grammy";
import type { PriceItem } from "../../exchange/schemas.ts";

export interface CurrencyChoice {
  code: string;
  name: string;
}

const FIAT_SUFFIX = "eur";

/** Lower case, without spaces and the separators people put into pairs (`btc/eur`, `btc-eur`). */
function normalize(text: string): string {
  return text.toLowerCase().replace(/[\s/_\-.]+/g, "");
}

export function resolveCurrency<T extends CurrencyChoice>(
  input: string,
  currencies: readonly T[],
): T | undefined {
  const typed = normalize(input);
  if (typed === "") return undefined;
  const byCode = (code: string) => currencies.find((c) => c.code.toLowerCase() === code);
  const direct = byCode(typed) ?? currencies.find((c) => normalize(c.name) === typed);
  if (direct) return direct;
  if (typed.length > FIAT_SUFFIX.length && typed.endsWith(FIAT_SUFFIX)) {
    const base = typed.slice(0, -FIAT_SUFFIX.length);
    return byCode(base) ?? currencies.find((c) => normalize(c.name) === base);
  }
  return undefined;
}

/**
 * What someone typing `@bot …` may mean: the currency `resolveCurrency` finds, else every one whose
 * code or name starts with the text (`bit` → Bitcoin, `x` → XRP), in the list's order.
 */
export function searchCurrencies<T extends CurrencyChoice>(input: string, currencies: readonly T[]): T[] {
  const exact = resolveCurrency(input, currencies);
  if (exact) return [exact];
  const typed = normalize(input);
  if (typed === "") return [];
  return currencies.filter(
    (c) => c.code.toLowerCase().startsWith(typed) || normalize(c.name).startsWith(typed),
  );
}

/** `BTC, ETH, LTC`: for the sentence that lists what is known. */
export function knownCodes(currencies: readonly CurrencyChoice[]): string {
  return currencies.map((c) => c.code.toUpperCase()).join(", ");
}

/** One button per currency, labelled with its code, `perRow` to a row. */
export function currencyKeyboard(
  currencies: readonly CurrencyChoice[],
  callbackData: (code: string) => string,
  perRow = 4,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  currencies.forEach((currency, index) => {
    if (index > 0 && index % perRow === 0) keyboard.row();
    keyboard.text(currency.code.toUpperCase(), callbackData(currency.code));
  });
  return keyboard;
}

/** The exchange's price items as choices (/buy, /sell and /fees ask the exchange themselves). */
export function choicesOf(items: readonly PriceItem[]): CurrencyChoice[] {
  return items.map((item) => ({ code: item.currency_code.toLowerCase(), name: item.currency_name }));
}
