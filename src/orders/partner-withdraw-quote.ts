/**
 * The quote of a partner user's fiat withdrawal (partner mode) to one of their bank accounts,
 * found by its RF reference: the EUR balance (GET …/users/{id}/balances), the account (still there
 * and verified?) and the fiat-withdrawal limit left (GET …/users/{id}/limits?type=fiat_withdrawal,
 * through the one limit helper), and the early refusals. Balances and limits are read tolerantly
 * (partner-read.ts); what cannot be read is left to the exchange (rule 6).
 *
 * @example
 * const result = await partnerWithdrawQuote(partner, { kind: "partner-withdraw", amount: "100", referenceNumber });
 */
import Big from "big.js";
import { EUR } from "../currency.ts";
import type { LimitType } from "../exchange/schemas.ts";
import { maskIban } from "../iban.ts";
import type { PartnerClient } from "./clients.ts";
import { type LimitLeft, noteLimit, roomLeft } from "./limit-left.ts";
import { codeField, decimalField, type Row, recordsOf } from "./partner-read.ts";
import { type OrderRequest, type QuoteResult, refuse } from "./quote.ts";

const TYPE = "fiat_withdrawal" satisfies LimitType;

/** The card's figures; `bankId` is what the POST names the account by (with its reference). */
export interface PartnerWithdrawQuote extends Record<string, string> {
  bankId: string;
  bankName: string;
  bankIban: string;
}

export async function partnerWithdrawQuote(
  { api, partnerUserId }: PartnerClient,
  request: Extract<OrderRequest, { kind: "partner-withdraw" }>,
): Promise<QuoteResult<PartnerWithdrawQuote>> {
  const kind = "partner-withdraw";
  const amount = new Big(request.amount);
  const [balances, limits, banks] = await Promise.all([
    api.userBalance(partnerUserId),
    api.userLimits(partnerUserId, TYPE),
    api.bankAccounts(partnerUserId),
  ]);
  const bank = banks.find((b) => b.reference_number === request.referenceNumber);
  if (bank === undefined) return refuse(kind, "bank-gone");
  if (bank.state !== "verified") return refuse(kind, "bank-pending");
  const quote: PartnerWithdrawQuote = {
    bankId: String(bank.id),
    bankName: bank.name,
    bankIban: maskIban(bank.iban),
  };
  const eurRow = recordsOf(balances).find(
    (row) => codeField(row, ["currency_code", "currency", "code"]) === EUR,
  );
  const balance = decimalField(eurRow, ["balance", "available", "amount"]);
  if (balance !== undefined) {
    quote.balance = balance.toFixed();
    if (amount.gt(balance)) return refuse(kind, "balance", { balance: balance.toFixed() });
  }
  const over = noteLimit(quote, withdrawalRoom(recordsOf(limits)), amount);
  if (over !== undefined) return refuse(kind, "limit", over);
  return { ok: true, quote };
}

/**
 * The fiat-withdrawal room of the user limits: the record of that type (by `type`, `code` or
 * `limit.code`), or the one record the typed request returned; ceilings and use read as flat
 * fields (`daily`, `day_used`) or nested as in the account API (`limit.daily`, `spent.day_used`).
 */
export function withdrawalRoom(rows: readonly Row[]): LimitLeft | undefined {
  const typed = rows.find((row) => codeField(row, ["type", "code", "limit.code", "limit_type"]) === TYPE);
  const row = typed ?? (rows.length === 1 ? rows[0] : undefined);
  const daily = decimalField(row, ["daily", "limit.daily", "daily_limit"]);
  const monthly = decimalField(row, ["monthly", "limit.monthly", "monthly_limit"]);
  if (daily === undefined || monthly === undefined) return undefined;
  const dayUsed = decimalField(row, ["day_used", "spent.day_used", "daily_used"]) ?? new Big(0);
  const monthUsed = decimalField(row, ["month_used", "spent.month_used", "monthly_used"]) ?? new Big(0);
  return roomLeft({ daily, monthly, dayUsed, monthUsed }, TYPE);
}
