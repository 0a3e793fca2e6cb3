/**
 * A fiat withdrawal to one of the user's bank accounts (found by its RF reference), sent only
 * with a fresh 2FA code. Its quote: the balance, the account (still there and verified?) and the
 * fiat-withdrawal limit left, and the early refusals. The exchange stays the authority (rule 6).
 *
 * @example
 * const result = await withdraw.quote({ account }, { kind: "withdraw", amount: "100", referenceNumber });
 */
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { maskIban } from "../../domain/iban.ts";
import type { KindAction } from "../action.ts";
import { checkLimit, type LimitNote } from "../limit-left.ts";
import { accountOf } from "../order-client.ts";
import { refuse } from "../refusal.ts";
import { eurCap, type KindDescriptor, noReceipt, secretOf, TO_BANK_ACCOUNT } from "./kind.ts";

/** Both modes' withdrawal request: EUR to the bank account with this reference. */
export interface WithdrawRequest<K extends "withdraw" | "partner-withdraw" = "withdraw"> {
  kind: K;
  amount: string;
  referenceNumber: string;
}

/** What the card shows: the account's name and its IBAN masked (it is kept in the ledger). */
export interface WithdrawQuote extends LimitNote {
  /** EUR; a partner quote leaves it out when the exchange's answer had none. */
  balance?: string;
  bankName: string;
  bankIban: string;
}

export type WithdrawAction = KindAction<
  "withdraw",
  WithdrawQuote & { balance: string },
  { referenceNumber: string }
>;

export const withdraw: KindDescriptor<"withdraw", WithdrawRequest, WithdrawAction> = {
  kind: "withdraw",
  family: "withdraw",
  api: "account",
  secret: "code",
  retriedWithKey: false,
  // The sandbox calls a fiat withdrawal `fiat_withdraw`.
  transactionTypes: ["fiat_withdraw", "fiat_withdrawal"],
  flow: "withdraw",
  words: "withdraw",
  destination: TO_BANK_ACCOUNT,
  cap: eurCap("withdraw"),
  async quote(client, request) {
    const account = accountOf(client);
    const [balance, limits, banks] = await Promise.all([
      account.fiatBalance().then((b) => b.balance),
      account.limits("fiat_withdrawal"),
      account.bankAccounts(),
    ]);
    const bank = banks.find((b) => b.reference_number === request.referenceNumber);
    if (bank === undefined) return refuse("withdraw", "bank-gone");
    if (bank.state !== "verified") return refuse("withdraw", "bank-pending");
    const amount = new Big(request.amount);
    if (amount.gt(balance)) return refuse("withdraw", "balance", { balance: balance.toFixed() });
    const quote: WithdrawAction["quote"] = {
      balance: balance.toFixed(),
      bankName: bank.name,
      bankIban: maskIban(bank.iban),
    };
    const over = checkLimit(quote, limits, "fiat_withdrawal", amount);
    if (over !== undefined) return refuse("withdraw", "limit", over);
    return { ok: true, quote };
  },
  draft: ({ amount, referenceNumber }, quote) => ({
    kind: "withdraw",
    currency: EUR,
    amount,
    referenceNumber,
    quote,
  }),
  request: ({ amount, referenceNumber }) => ({ kind: "withdraw", amount, referenceNumber }),
  post: (client, { amount, referenceNumber }, secret) =>
    noReceipt(
      accountOf(client).fiatWithdrawal({
        amount: new Big(amount),
        referenceNumber,
        securityCode: secretOf("withdrawal", secret),
      }),
    ),
};
