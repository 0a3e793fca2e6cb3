/**
 * The business rules of the four money movements, shared by the account API and the partner API:
 * asset open, minimum, balance (fee included), limits, then the transaction. Each function either
 * throws a 422 naming the rule that refused, or opens the transaction; nothing in between awaits,
 * so concurrent orders are checked and applied one at a time.
 *
 * Limit mapping (the spec lists five limit types but does not say which order counts against
 * which): buy → `credit_card_buy` (its EUR amount, fee excluded), send → `crypto_withdrawal`
 * (the EUR value of the amount sent), fiat withdrawal → `fiat_withdrawal`, simulated deposits →
 * `fiat_deposit` / `crypto_deposit` (recorded, never refused: the money has arrived). Sell counts
 * against none.
 */
import Big from "big.js";
import type { LimitType } from "../exchange/schemas.ts";
import { refuse } from "./http-kit.ts";
import type { Market } from "./market.ts";
import { BUY_MINIMUM_EUR, MINER_FEES, SELL_MINIMUMS, SEND_FEES, SEND_MINIMUMS, tradeFee } from "./rules.ts";
import type { Account, AssetAction, BankAccountRecord, SandboxState, TransactionRecord } from "./state.ts";

export interface Exchange {
  state: SandboxState;
  market: Market;
}

const ACTION_WORDS: Record<AssetAction, string> = {
  buy: "Buying",
  sell: "Selling",
  send: "Sending",
  receive: "Receiving",
};

export function requireOpen(state: SandboxState, action: AssetAction, currency: string): void {
  if (!state.isAssetOpen(action, currency)) {
    throw refuse(
      "currency_code",
      `${ACTION_WORDS[action]} ${currency.toUpperCase()} is currently unavailable.`,
    );
  }
}

function requireMinimum(amount: Big, minimum: string, unit: string): void {
  if (amount.lt(minimum)) throw refuse("amount", `The amount must be at least ${minimum} ${unit}.`);
}

function requireFunds(state: SandboxState, account: Account, currency: string, needed: Big): void {
  if (state.balance(account, currency).lt(needed)) {
    throw refuse(
      "amount",
      `Insufficient ${currency.toUpperCase()} balance: ${needed.toFixed()} needed, fee included.`,
    );
  }
}

function requireLimit(state: SandboxState, account: Account, type: LimitType, eurAmount: Big): void {
  const { day, month } = state.used(account, type);
  const ceiling = state.ceilings[type];
  if (day.plus(eurAmount).gt(ceiling.daily)) {
    throw refuse("amount", `The amount exceeds your daily ${type} limit of ${ceiling.daily.toFixed(2)} EUR.`);
  }
  if (month.plus(eurAmount).gt(ceiling.monthly)) {
    throw refuse(
      "amount",
      `The amount exceeds your monthly ${type} limit of ${ceiling.monthly.toFixed(2)} EUR.`,
    );
  }
}

export function minimumFor(type: "buy" | "sell" | "send", currency: string): string {
  if (type === "buy") return BUY_MINIMUM_EUR;
  return (type === "sell" ? SELL_MINIMUMS : SEND_MINIMUMS)[currency] ?? "0";
}

export function sendFee(currency: string): Big {
  return new Big(SEND_FEES[currency] ?? "0");
}

export function minerFee(currency: string): Big {
  return new Big(MINER_FEES[currency] ?? "0");
}

type Via = TransactionRecord["via"];

/** `amount` is EUR: pays amount + fee in EUR, receives amount / price in the crypto. */
export function placeBuy(
  ex: Exchange,
  account: Account,
  amount: Big,
  currency: string,
  via: Via,
  idempotencyKey?: string,
): TransactionRecord {
  const { state, market } = ex;
  requireOpen(state, "buy", currency);
  requireMinimum(amount, BUY_MINIMUM_EUR, "EUR");
  const fee = tradeFee(amount);
  const price = market.price(currency, state.now());
  const crypto = amount.div(price).round(8, Big.roundDown);
  requireFunds(state, account, "eur", amount.plus(fee));
  requireLimit(state, account, "credit_card_buy", amount);
  const usage = state.recordUsage(account, "credit_card_buy", amount);
  return state.openTransaction(account, {
    type: "buy_crypto",
    currency_code: currency,
    amount,
    fee,
    feeCurrency: "eur",
    price,
    cryptoAmount: crypto,
    fiatAmount: amount,
    debits: [{ currency: "eur", amount: amount.plus(fee) }],
    credits: [{ currency, amount: crypto }],
    usageIds: [usage.id],
    via,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

/** `amount` is crypto: pays it, receives its EUR value less the fee. */
export function placeSell(
  ex: Exchange,
  account: Account,
  amount: Big,
  currency: string,
  via: Via,
  idempotencyKey?: string,
): TransactionRecord {
  const { state, market } = ex;
  requireOpen(state, "sell", currency);
  requireMinimum(amount, SELL_MINIMUMS[currency] ?? "0", currency.toUpperCase());
  const price = market.price(currency, state.now());
  const gross = amount.times(price).round(2, Big.roundDown);
  const fee = tradeFee(gross);
  const net = gross.minus(fee);
  if (net.lte(0)) throw refuse("amount", "The amount is too small to cover the fee.");
  requireFunds(state, account, currency, amount);
  return state.openTransaction(account, {
    type: "sell_crypto",
    currency_code: currency,
    amount,
    fee,
    feeCurrency: "eur",
    price,
    cryptoAmount: amount,
    fiatAmount: net,
    debits: [{ currency, amount }],
    credits: [{ currency: "eur", amount: net }],
    usageIds: [],
    via,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

/** Pays amount + send fee + miner fee in the crypto; the coins leave the sandbox. */
export function placeSend(
  ex: Exchange,
  account: Account,
  amount: Big,
  currency: string,
  address: string,
): TransactionRecord {
  const { state, market } = ex;
  requireOpen(state, "send", currency);
  requireMinimum(amount, SEND_MINIMUMS[currency] ?? "0", currency.toUpperCase());
  const fee = sendFee(currency);
  const miner = minerFee(currency);
  const price = market.price(currency, state.now());
  const eurValue = amount.times(price).round(2, Big.roundHalfUp);
  requireFunds(state, account, currency, amount.plus(fee).plus(miner));
  requireLimit(state, account, "crypto_withdrawal", eurValue);
  const usage = state.recordUsage(account, "crypto_withdrawal", eurValue);
  const record = state.openTransaction(account, {
    type: "crypto_withdraw",
    currency_code: currency,
    amount,
    fee,
    feeCurrency: currency,
    minerFee: miner,
    price,
    cryptoAmount: amount,
    fiatAmount: eurValue,
    address,
    debits: [{ currency, amount: amount.plus(fee).plus(miner) }],
    credits: [],
    usageIds: [usage.id],
    via: "account",
  });
  return record;
}

/** Pays the EUR amount to a verified bank account; the spec shows no fee for it, so none. */
export function placeFiatWithdrawal(
  ex: Exchange,
  account: Account,
  amount: Big,
  bank: BankAccountRecord,
  via: Via,
): TransactionRecord {
  const { state } = ex;
  if (bank.state !== "verified") {
    throw refuse("reference_number", "The selected bank account is not verified yet.");
  }
  requireFunds(state, account, "eur", amount);
  requireLimit(state, account, "fiat_withdrawal", amount);
  const usage = state.recordUsage(account, "fiat_withdrawal", amount);
  return state.openTransaction(account, {
    type: "fiat_withdraw",
    currency_code: "eur",
    amount,
    fee: new Big(0),
    feeCurrency: "eur",
    fiatAmount: amount,
    reference_number: bank.reference_number,
    debits: [{ currency: "eur", amount }],
    credits: [],
    usageIds: [usage.id],
    via,
  });
}
