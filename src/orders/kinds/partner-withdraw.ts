/**
 * The quote of a partner user's fiat withdrawal (partner mode) to one of their bank accounts,
 * found by its RF reference: the EUR balance (GET …/users/{id}/balances), the account (still there
 * and verified?) and the fiat-withdrawal limit left (GET …/users/{id}/limits?type=fiat_withdrawal,
 * through the one limit helper), and the early refusals. Balances and limits are read tolerantly
 * by the partner client (exchange/partner-schemas.ts); what cannot be read is left to the exchange (rule 6).
 *
 * @example
 * const result = await partnerWithdrawQuote(partner, { kind: "partner-withdraw", amount: "100", referenceNumber });
 *
 * Its secret step is the partner user's PIN, checked by place.ts before the send claim.
 */
import { randomUUID } from "node:crypto";
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { maskIban } from "../../domain/iban.ts";
import type { LimitType } from "../../exchange/schemas.ts";
import type { Keyed, KindAction } from "../action.ts";
import { noteLimit, roomLeft } from "../limit-left.ts";
import { type PartnerClient, partnerOf } from "../order-client.ts";
import { type KindQuoteResult, refuse } from "../refusal.ts";
import { eurCap, type KindDescriptor, TO_BANK_ACCOUNT } from "./kind.ts";
import type { WithdrawQuote, WithdrawRequest } from "./withdraw.ts";

const TYPE = "fiat_withdrawal" satisfies LimitType;

/** The card's figures (the account mode's); `bankId` is what the POST names the account by (with its reference). */
export interface PartnerWithdrawQuote extends WithdrawQuote {
  bankId: string;
}

export type PartnerWithdrawAction = KindAction<
  "partner-withdraw",
  PartnerWithdrawQuote,
  Keyed & { referenceNumber: string }
>;

export async function partnerWithdrawQuote(
  { api, partnerUserId }: PartnerClient,
  request: WithdrawRequest<"partner-withdraw">,
): Promise<KindQuoteResult<PartnerWithdrawQuote, "partner-withdraw">> {
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
  const balance = balances.spendable.get(EUR);
  if (balance !== undefined) {
    quote.balance = balance.toFixed();
    if (amount.gt(balance)) return refuse(kind, "balance", { balance: balance.toFixed() });
  }
  const room = limits.asked === undefined ? undefined : roomLeft(limits.asked, TYPE);
  const over = noteLimit(quote, room, amount);
  if (over !== undefined) return refuse(kind, "limit", over);
  return { ok: true, quote };
}

export const partnerWithdraw: KindDescriptor<
  "partner-withdraw",
  WithdrawRequest<"partner-withdraw">,
  PartnerWithdrawAction
> = {
  kind: "partner-withdraw",
  family: "withdraw",
  api: "partner",
  secret: "pin",
  retriedWithKey: false,
  transactionTypes: ["fiat_withdraw", "fiat_withdrawal"],
  flow: "partner-withdraw",
  words: "partner-withdraw",
  destination: TO_BANK_ACCOUNT,
  cap: eurCap("withdraw"),
  quote: (client, request) => partnerWithdrawQuote(partnerOf(client), request),
  draft: ({ amount, referenceNumber }, quote) => ({
    kind: "partner-withdraw",
    currency: EUR,
    amount,
    referenceNumber,
    quote,
    idempotencyKey: randomUUID(),
  }),
  request: ({ amount, referenceNumber }) => ({ kind: "partner-withdraw", amount, referenceNumber }),
  // The API reference shows no withdraw body: the account by id and by reference, the EUR amount,
  // and the action's key (an exchange that ignores it loses nothing; the POST is never repeated).
  async post(client, action) {
    const { api, partnerUserId } = partnerOf(client);
    const answer = await api.withdraw(partnerUserId, {
      amount: action.amount,
      bank_account_id: Number(action.quote.bankId),
      reference_number: action.referenceNumber,
      idempotency_key: action.idempotencyKey,
    });
    return answer.kind === "receipt" ? { transactionId: answer.transactionId } : {};
  },
};
