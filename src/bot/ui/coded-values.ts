/**
 * The exchange's coded values worded for people, one table each, shared by every screen that shows
 * them (the field renderer, transactions, bank accounts, the partner profile, the operator desk):
 * a state or status (`active`, `passed`, `not_required`, `verified`), a transaction's kind
 * (`fiat_withdraw`), a pair (`btceur` → "BTC/EUR") and a currency code (`btc` → "BTC").
 *
 * A value no table knows is never shown as its code: it gets a neutral word ("unknown" / "other
 * kind"), so a value the exchange adds later reads as a sentence, not as our vocabulary.
 *
 * @example
 * statusText(t, "not_required"); // "not required" / "nicht nötig"
 */
import type { Translate } from "../../domain/translate.ts";
import { splitPair } from "../../exchange/partner-fields.ts";

/** A transaction's kind, under every spelling the exchange's API reference and its partner rows use. */
export const TRANSACTION_TYPE_KEYS: Readonly<Record<string, string>> = {
  buy_crypto: "transactions-type-buy",
  buy: "transactions-type-buy",
  sell_crypto: "transactions-type-sell",
  sell: "transactions-type-sell",
  crypto_withdraw: "transactions-type-send",
  crypto_withdrawal: "transactions-type-send",
  send: "transactions-type-send",
  fiat_withdraw: "transactions-type-fiat-withdraw",
  fiat_withdrawal: "transactions-type-fiat-withdraw",
  withdrawal: "transactions-type-fiat-withdraw",
  withdraw: "transactions-type-fiat-withdraw",
  fiat_deposit: "transactions-type-fiat-deposit",
  deposit: "transactions-type-fiat-deposit",
  crypto_deposit: "transactions-type-crypto-deposit",
};

/** A transaction's state (with its emoji), under the documented and the usual other spellings. */
export const TRANSACTION_STATE_KEYS: Readonly<Record<string, string>> = {
  opened: "transactions-state-opened",
  open: "transactions-state-opened",
  pending: "transactions-state-opened",
  processing: "transactions-state-opened",
  success: "transactions-state-success",
  completed: "transactions-state-success",
  complete: "transactions-state-success",
  done: "transactions-state-success",
  error: "transactions-state-error",
  failed: "transactions-state-error",
};

/**
 * Every status and state value the exchange's API reference lists (a partner user's `status`,
 * `kyc_status` and `edd_status`, a bank account's and a limit's `state`, a limit's `tier`), and the
 * usual others, as a word without emoji.
 */
const STATUS_KEYS: Readonly<Record<string, string>> = {
  active: "status-active",
  enabled: "status-active",
  inactive: "status-inactive",
  disabled: "status-inactive",
  blocked: "status-blocked",
  suspended: "status-blocked",
  locked: "status-blocked",
  frozen: "status-blocked",
  closed: "status-closed",
  deleted: "status-closed",
  verified: "status-verified",
  unverified: "status-unverified",
  not_verified: "status-unverified",
  passed: "status-passed",
  approved: "status-passed",
  pending: "status-pending",
  in_review: "status-pending",
  processing: "status-pending",
  opened: "status-pending",
  open: "status-pending",
  new: "status-pending",
  failed: "status-failed",
  error: "status-failed",
  declined: "status-declined",
  rejected: "status-declined",
  not_started: "status-not-started",
  not_required: "status-not-required",
  required: "status-required",
  confirmed: "status-confirmed",
  success: "status-done",
  completed: "status-done",
  done: "status-done",
  cancelled: "status-cancelled",
  canceled: "status-cancelled",
  expired: "status-expired",
  paused: "status-paused",
  ended: "status-ended",
  listed: "status-listed",
  basic: "status-basic",
};

function codeOf(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** A status or state worded ("active" → "aktiv"); a value nobody knows reads "unknown". */
export function statusText(t: Translate, value: string): string {
  const key = STATUS_KEYS[codeOf(value)];
  return t(key ?? "status-unknown");
}

/** A transaction's kind worded ("fiat_withdraw" → "Euro withdrawal"); otherwise "Other transaction". */
export function transactionTypeText(t: Translate, type: string): string {
  const key = TRANSACTION_TYPE_KEYS[codeOf(type)];
  return t(key ?? "transactions-type-other");
}

/** A transaction's state with its emoji ("✅ done"); otherwise "❔ unknown". */
export function transactionStateText(t: Translate, state: string): string {
  const key = TRANSACTION_STATE_KEYS[codeOf(state)];
  return t(key ?? "transactions-state-other");
}

/** A pair for people: `BTC/EUR`. */
export function pairText(pair: { base: string; quote: string }): string {
  return `${pair.base.toUpperCase()}/${pair.quote.toUpperCase()}`;
}

/** A pair code as people write it ("btceur" → "BTC/EUR"); what is no pair is upper-cased as a code. */
export function pairCodeText(value: string): string {
  const pair = splitPair(value);
  return pair === undefined ? value.trim().toUpperCase() : pairText(pair);
}

/** A currency code as people write it: `btc` → `BTC`. Anything else as it came. */
export function currencyCodeText(value: string): string {
  const text = value.trim();
  return /^[a-z0-9]{2,12}$/i.test(text) ? text.toUpperCase() : text;
}
