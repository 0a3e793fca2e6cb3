/**
 * The sandbox exchange's price list: fees, minimums and limit ceilings. One table per rule so a
 * test can read the number it expects instead of repeating it.
 */
import Big from "big.js";
import type { LimitType } from "../exchange/schemas.ts";

/** Buy and sell pay 1.5 % of the EUR amount, rounded half-up to the cent. */
export const TRADE_FEE_RATE = new Big("0.015");

export function tradeFee(eurAmount: Big): Big {
  return eurAmount.times(TRADE_FEE_RATE).round(2, Big.roundHalfUp);
}

/** The exchange's own fee for a send, in the crypto sent. */
export const SEND_FEES: Readonly<Record<string, string>> = {
  btc: "0.0002",
  eth: "0.002",
  ltc: "0.01",
  xrp: "0.25",
  usdc: "1",
};

/** What the network charges on top, in the crypto sent. */
export const MINER_FEES: Readonly<Record<string, string>> = {
  btc: "0.0001",
  eth: "0.001",
  ltc: "0.001",
  xrp: "0.01",
  usdc: "0.5",
};

/** Buy minimums are in EUR (a buy's amount is EUR), whatever the coin. */
export const BUY_MINIMUM_EUR = "10.00";

/** Sell and send minimums are in the crypto. */
export const SELL_MINIMUMS: Readonly<Record<string, string>> = {
  btc: "0.0002",
  eth: "0.005",
  ltc: "0.1",
  xrp: "20",
  usdc: "10",
};

export const SEND_MINIMUMS: Readonly<Record<string, string>> = {
  btc: "0.0005",
  eth: "0.01",
  ltc: "0.1",
  xrp: "25",
  usdc: "10",
};

export interface Ceiling {
  daily: Big;
  monthly: Big;
}

/** Ceilings in EUR (crypto counted at the price of the moment), tier `basic`. */
export function defaultCeilings(): Record<LimitType, Ceiling> {
  return {
    fiat_deposit: { daily: new Big(15000), monthly: new Big(50000) },
    crypto_deposit: { daily: new Big(15000), monthly: new Big(50000) },
    fiat_withdrawal: { daily: new Big(5000), monthly: new Big(20000) },
    crypto_withdrawal: { daily: new Big(5000), monthly: new Big(20000) },
    credit_card_buy: { daily: new Big(5000), monthly: new Big(20000) },
  };
}

/** Fixed ids of the limit records, in the order of the spec's list. */
export const LIMIT_IDS: Readonly<Record<LimitType, number>> = {
  fiat_deposit: 1,
  crypto_deposit: 2,
  fiat_withdrawal: 3,
  crypto_withdrawal: 4,
  credit_card_buy: 5,
};
