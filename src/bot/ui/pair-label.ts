/**
 * A trading pair as the exchange writes it (`btceur`, `BTC/EUR`, `btc_eur`, `btc-eur`) read into
 * its two currencies, and worded for people ("BTC → EUR"): no screen shows the API's pair code.
 *
 * @example
 * pairLabel("btceur"); // "BTC → EUR"
 * pairLabel("hello");  // undefined: not a pair
 */

/** A currency code as the API writes it (`btc`, `usdc`). */
const CODE = /^[a-z][a-z0-9]{1,11}$/;
/** Fiat and stable codes a pair may end with, longest first (`btcusdc` before `btcusd`). */
export const PAIR_QUOTES = ["usdc", "usdt", "eur", "usd", "chf", "gbp"];

/** `btceur`, `BTC/EUR`, `btc_eur`, `btc-eur` → `{base: "btc", quote: "eur"}`. */
export function splitPair(text: string): { base: string; quote: string } | undefined {
  const lower = text.trim().toLowerCase();
  const parts = lower.split(/[/_\-: ]/).filter((p) => p !== "");
  if (parts.length === 2 && parts.every((p) => CODE.test(p)))
    return { base: parts[0] ?? "", quote: parts[1] ?? "" };
  if (!/^[a-z0-9]{4,16}$/.test(lower)) return undefined;
  const quote = PAIR_QUOTES.find((q) => lower.endsWith(q) && lower.length > q.length + 1);
  return quote === undefined ? undefined : { base: lower.slice(0, -quote.length), quote };
}

/** "BTC → EUR" for a pair's text, or undefined when the text names no pair. */
export function pairLabel(text: string): string | undefined {
  const pair = splitPair(text);
  return pair === undefined ? undefined : `${pair.base.toUpperCase()} → ${pair.quote.toUpperCase()}`;
}
