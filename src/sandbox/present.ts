/**
 * How state leaves the sandbox as JSON. Amounts go out as exact strings (EUR with cents, crypto
 * without trailing zeros) except where the spec types a field as a number.
 */
import type Big from "big.js";
import { toPlainString } from "../domain/money.ts";
import { dateTimeMs, isoUtc } from "./http-kit.ts";
import type { BankAccountRecord, TransactionRecord } from "./state.ts";

export function amountText(value: Big, currency: string): string {
  return currency === "eur" ? value.toFixed(2) : toPlainString(value);
}

/**
 * The spec's fields (id, state, transaction_type, created_at, updated_at) plus what a client
 * needs to reconcile an order: amount, currency, fee, and the rest when they apply.
 */
export function transactionJson(
  tx: TransactionRecord,
  options: { userId?: boolean } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: tx.id,
    state: tx.state,
    transaction_type: tx.type,
    created_at: dateTimeMs(tx.createdAt),
    updated_at: dateTimeMs(tx.updatedAt),
    currency_code: tx.currency_code,
    amount: amountText(tx.amount, tx.type === "buy_crypto" ? "eur" : tx.currency_code),
    fee: amountText(tx.fee, tx.feeCurrency),
    fee_currency: tx.feeCurrency,
  };
  if (tx.minerFee !== undefined) out.miner_fee = amountText(tx.minerFee, tx.currency_code);
  if (tx.price !== undefined) out.price = tx.price.toFixed();
  if (tx.cryptoAmount !== undefined) out.crypto_amount = toPlainString(tx.cryptoAmount);
  if (tx.fiatAmount !== undefined) out.fiat_amount = tx.fiatAmount.toFixed(2);
  if (tx.address !== undefined) out.address = tx.address;
  if (tx.reference_number !== undefined) out.reference_number = tx.reference_number;
  if (options.userId) out.user_id = tx.accountId;
  return out;
}

export function bankAccountJson(
  bank: BankAccountRecord,
  options: { timestamps: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: bank.id,
    name: bank.name,
    iban: bank.iban,
    swift_bic: bank.swift_bic,
    reference_number: bank.reference_number,
    state: bank.state,
  };
  if (options.timestamps) {
    out.created_at = isoUtc(bank.createdAt);
    out.updated_at = isoUtc(bank.updatedAt);
  }
  return out;
}
