/**
 * The quote of a send (crypto to an outside address): the exchange fee, the miner fee, what
 * leaves the balance, the amount's EUR value and the crypto-withdrawal limit left (the limit
 * counts EUR), and the early refusals: sending closed for the asset, under the minimum, over the
 * balance (fees included), over the limit. The exchange stays the authority (rule 6).
 *
 * @example
 * const result = await sendQuote(client, { kind: "send", currency: "btc", address, amount: "0.01" });
 */
import Big from "big.js";
import { EUR } from "../currency.ts";
import type { AccountSession } from "../exchange/account.ts";
import { checkLimit } from "./limit-left.ts";
import { type OrderRequest, type QuoteResult, refuse } from "./quote.ts";

/** What the card shows; all decimal strings (JSON-safe, it is stored in the ledger). */
export interface SendQuote extends Record<string, string> {
  fee: string;
  minerFee: string;
  /** amount + fee + miner fee: what leaves the balance. */
  total: string;
  balance: string;
  minimum: string;
  /** EUR per unit, and the amount's EUR value (what the crypto-withdrawal limit counts). */
  rate: string;
  value: string;
}

export async function sendQuote(
  client: AccountSession,
  request: Extract<OrderRequest, { kind: "send" }>,
): Promise<QuoteResult<SendQuote>> {
  const { currency } = request;
  const amount = new Big(request.amount);
  const [open, fee, minerFee, minimum, balances, rate, limits] = await Promise.all([
    client.assetStatus("send", currency),
    client.fee("send", { currencyCode: currency }),
    client.minerFee(currency),
    client.minimum("send", currency),
    client.cryptoBalances(currency),
    client.exchangeRate(`${currency}${EUR}`).then((r) => r.price),
    client.limits("crypto_withdrawal"),
  ]);
  if (!open) return refuse("send", "closed", { code: currency.toUpperCase() });
  if (amount.lt(minimum)) return refuse("send", "minimum", { minimum: minimum.toFixed(), currency });
  const balance =
    balances.find((item) => item.currency_code.toLowerCase() === currency)?.balance ?? new Big(0);
  const total = amount.plus(fee).plus(minerFee);
  if (total.gt(balance)) {
    const most = balance.minus(fee).minus(minerFee);
    return refuse("send", "balance", {
      balance: balance.toFixed(),
      total: total.toFixed(),
      fees: fee.plus(minerFee).toFixed(),
      most: (most.gt(0) ? most : new Big(0)).toFixed(),
      currency,
    });
  }
  const value = amount.times(rate).round(2, Big.roundHalfUp);
  const quote: SendQuote = {
    fee: fee.toFixed(),
    minerFee: minerFee.toFixed(),
    total: total.toFixed(),
    balance: balance.toFixed(),
    minimum: minimum.toFixed(),
    rate: rate.toFixed(),
    value: value.toFixed(),
  };
  const over = checkLimit(quote, limits, "crypto_withdrawal", value);
  if (over !== undefined) return refuse("send", "limit", { value: value.toFixed(), ...over });
  return { ok: true, quote };
}
