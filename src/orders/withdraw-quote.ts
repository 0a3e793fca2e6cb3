/**
 * The quote of a fiat withdrawal to one of the user's bank accounts (found by its RF reference):
 * the balance, the account (still there and verified?) and the fiat-withdrawal limit left, and
 * the early refusals. The exchange stays the authority (rule 6).
 *
 * @example
 * const result = await withdrawQuote(client, { kind: "withdraw", amount: "100", referenceNumber });
 */
import Big from "big.js";
import type { AccountSession } from "../exchange/account.ts";
import { maskIban } from "../iban.ts";
import { checkLimit } from "./limit-left.ts";
import { type OrderRequest, type QuoteResult, refuse } from "./quote.ts";

/** What the card shows: decimal strings, the account's name and its IBAN masked (it is kept in the ledger). */
export interface WithdrawQuote extends Record<string, string> {
  balance: string;
  bankName: string;
  bankIban: string;
}

export async function withdrawQuote(
  client: AccountSession,
  request: Extract<OrderRequest, { kind: "withdraw" }>,
): Promise<QuoteResult<WithdrawQuote>> {
  const amount = new Big(request.amount);
  const [balance, limits, banks] = await Promise.all([
    client.fiatBalance().then((b) => b.balance),
    client.limits("fiat_withdrawal"),
    client.bankAccounts(),
  ]);
  const bank = banks.find((b) => b.reference_number === request.referenceNumber);
  if (bank === undefined) return refuse("withdraw", "bank-gone");
  if (bank.state !== "verified") return refuse("withdraw", "bank-pending");
  if (amount.gt(balance)) return refuse("withdraw", "balance", { balance: balance.toFixed() });
  const quote: WithdrawQuote = {
    balance: balance.toFixed(),
    bankName: bank.name,
    bankIban: maskIban(bank.iban),
  };
  const over = checkLimit(quote, limits, "fiat_withdrawal", amount);
  if (over !== undefined) return refuse("withdraw", "limit", over);
  return { ok: true, quote };
}
