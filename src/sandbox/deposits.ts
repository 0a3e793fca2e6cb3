/**
 * Money arriving from outside, which no API call can cause: a wire transfer or coins sent to a
 * deposit address. Tests and the demo trigger it through `sandbox.deposit()` or
 * `POST /_sandbox/deposits`. A wire carrying a pending bank account's reference and exactly its
 * verification amount verifies that bank account.
 */
import type Big from "big.js";
import type { LimitType } from "../exchange/schemas.ts";
import { refuse } from "./http-kit.ts";
import type { Market } from "./market.ts";
import type { Account, SandboxState, TransactionRecord } from "./state.ts";

export interface DepositInput {
  amount: Big;
  /** `eur` (default) or a crypto code. */
  currency?: string;
  /** For EUR: a bank account's RF reference, or an account's deposit reference. */
  referenceNumber?: string;
  /** For crypto: one of the account's deposit addresses. */
  address?: string;
  /** Otherwise the account by e-mail or id. */
  email?: string;
  accountId?: number;
}

export interface DepositResult {
  transaction: TransactionRecord;
  /** The bank account this deposit verified, if any. */
  verifiedBankAccountId?: number;
}

export function deposit(state: SandboxState, market: Market, input: DepositInput): DepositResult {
  let currency = (input.currency ?? "eur").toLowerCase();
  let account: Account | undefined;
  let verifiedBankAccountId: number | undefined;
  const extra: { address?: string; reference_number?: string } = {};
  if (input.referenceNumber !== undefined) {
    const bank = state.bankAccountByReference(input.referenceNumber);
    const compact = input.referenceNumber.replace(/\s+/g, "").toUpperCase();
    account = bank
      ? state.accounts.get(bank.accountId)
      : [...state.accounts.values()].find((a) => a.depositReference === compact);
    extra.reference_number = compact;
    if (bank && bank.state === "pending" && bank.verificationAmount.eq(input.amount) && currency === "eur") {
      state.verifyBankAccount(bank);
      verifiedBankAccountId = bank.id;
    }
  } else if (input.address !== undefined) {
    const owner = state.addressOwner(input.address);
    account = owner ? state.accounts.get(owner.accountId) : undefined;
    if (owner) currency = owner.currency_code;
    extra.address = input.address;
  } else if (input.email !== undefined) {
    account = state.accountByEmail(input.email);
  } else if (input.accountId !== undefined) {
    account = state.accounts.get(input.accountId);
  }
  if (!account) throw refuse("account", "No account matches this deposit.");
  if (currency !== "eur" && !market.info(currency))
    throw refuse("currency_code", "The selected currency code is invalid.");
  const type: LimitType & ("fiat_deposit" | "crypto_deposit") =
    currency === "eur" ? "fiat_deposit" : "crypto_deposit";
  const eur =
    currency === "eur" ? input.amount : input.amount.times(market.price(currency, state.now())).round(2);
  state.recordUsage(account, type, eur);
  const transaction = state.recordDeposit(account, type, currency, input.amount, extra);
  return verifiedBankAccountId === undefined ? { transaction } : { transaction, verifiedBankAccountId };
}
