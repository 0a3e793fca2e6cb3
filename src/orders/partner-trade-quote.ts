/**
 * The quote of a partner buy or sell (partner mode): the rate (GET …/exchange-rates), the
 * minimum (GET …/limits/minimum) and the user's balance (GET …/users/{id}/balances), read
 * tolerantly (partner-read.ts: the API reference shows no payload for them), and the early
 * refusals. The partner API has no fee endpoint, so the card shows no fee, and the partner user
 * limits cover fiat deposits and withdrawals only, so no limit applies to a trade.
 *
 * Units as in account mode: a buy's amount is EUR, a sell's the crypto; the pair is the crypto's
 * code followed by `eur`, as the API's pairs are written.
 *
 * @example
 * const result = await partnerTradeQuote(partner, { kind: "partner-buy", currency: "btc", amount: "100" });
 */
import Big from "big.js";
import { EUR } from "../currency.ts";
import { roundDown } from "../money.ts";
import type { PartnerClient } from "./clients.ts";
import { codeField, decimalField, recordsOf, rowForPair } from "./partner-read.ts";
import { type OrderRequest, type QuoteResult, refuse } from "./quote.ts";

export type PartnerTradeRequest = Extract<OrderRequest, { kind: "partner-buy" | "partner-sell" }>;

/** The card's numbers (decimal strings); `minimum` and `balance` absent when the exchange's answer had none. */
export interface PartnerTradeQuote extends Record<string, string> {
  pair: string;
  rate: string;
  pay: string;
  payCurrency: string;
  /** Roughly what arrives, before the exchange's fee. */
  get: string;
  getCurrency: string;
}

export const pairOf = (currency: string) => `${currency}${EUR}`;

export async function partnerTradeQuote(
  { api, partnerUserId }: PartnerClient,
  request: PartnerTradeRequest,
): Promise<QuoteResult<PartnerTradeQuote>> {
  const { kind, currency } = request;
  const buy = kind === "partner-buy";
  const pair = pairOf(currency);
  const amount = new Big(request.amount);
  const [rates, minimums, balances] = await Promise.all([
    api.exchangeRates({ pair }),
    api.minimumLimits({ pair }),
    api.userBalance(partnerUserId),
  ]);
  const rate = decimalField(rowForPair(recordsOf(rates), pair, currency), ["price", "rate", "value"]);
  if (rate === undefined || rate.lte(0)) return refuse(kind, "closed", { code: currency.toUpperCase() });
  const minimumRow = rowForPair(recordsOf(minimums), pair, currency);
  const minimum = decimalField(
    minimumRow,
    buy
      ? ["buy", "minimum_buy", "buy_minimum", "minimum"]
      : ["sell", "minimum_sell", "sell_minimum", "minimum"],
  );
  const minimumCurrency = buy ? EUR : currency;
  if (minimum !== undefined && amount.lt(minimum)) {
    return refuse(kind, "minimum", { minimum: minimum.toFixed(), currency: minimumCurrency });
  }
  const payCurrency = buy ? EUR : currency;
  const balanceRow = recordsOf(balances).find(
    (row) => codeField(row, ["currency_code", "currency", "code"]) === payCurrency,
  );
  const balance = decimalField(balanceRow, ["balance", "available", "amount"]);
  const quote: PartnerTradeQuote = {
    pair,
    rate: rate.toFixed(),
    pay: amount.toFixed(),
    payCurrency,
    get: buy
      ? roundDown(amount.div(rate), currency).toFixed()
      : amount.times(rate).round(2, Big.roundDown).toFixed(),
    getCurrency: buy ? currency : EUR,
  };
  if (minimum !== undefined) {
    quote.minimum = minimum.toFixed();
    quote.minimumCurrency = minimumCurrency;
  }
  if (balance !== undefined) {
    quote.balance = balance.toFixed();
    if (balance.lt(amount)) {
      return refuse(kind, "balance", {
        balance: balance.toFixed(),
        needed: amount.toFixed(),
        currency: payCurrency,
      });
    }
  }
  return { ok: true, quote };
}
