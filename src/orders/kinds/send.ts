/**
 * A send: crypto to an outside address, sent only with a fresh 2FA code. Its quote: the exchange
 * fee, the miner fee, what leaves the balance, the amount's EUR value and the crypto-withdrawal
 * limit left (the limit counts EUR), and the early refusals: sending closed for the asset, under
 * the minimum, over the balance (fees included), over the limit. The exchange stays the
 * authority (rule 6).
 *
 * @example
 * const result = await send.quote({ account }, { kind: "send", currency: "btc", address, amount: "0.01" });
 */
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import type { KindAction } from "../action.ts";
import { checkLimit, type LimitNote } from "../limit-left.ts";
import { accountOf } from "../order-client.ts";
import { refuse } from "../refusal.ts";
import { type KindDescriptor, noReceipt, secretOf, sendCap, TO_ADDRESS } from "./kind.ts";

export interface SendRequest {
  kind: "send";
  currency: string;
  address: string;
  amount: string;
}

/** What the card shows; all decimal strings (JSON-safe, it is stored in the ledger). */
export interface SendQuote extends LimitNote {
  fee: string;
  minerFee: string;
  /** amount + fee + miner fee: what leaves the balance. */
  total: string;
  balance: string;
  minimum: string;
  /** EUR per unit, and the amount's EUR value (what the crypto-withdrawal limit counts). */
  rate: string;
  value: string;
}

export type SendAction = KindAction<"send", SendQuote, { address: string }>;

export const send: KindDescriptor<"send", SendRequest, SendAction> = {
  kind: "send",
  family: "send",
  api: "account",
  secret: "code",
  retriedWithKey: false,
  transactionTypes: ["crypto_withdraw"],
  flow: "send",
  words: "send",
  destination: TO_ADDRESS,
  cap: sendCap,
  async quote(client, { currency, amount: requested }) {
    const account = accountOf(client);
    const amount = new Big(requested);
    const [open, fee, minerFee, minimum, balances, rate, limits] = await Promise.all([
      account.assetStatus("send", currency),
      account.fee("send", { currencyCode: currency }),
      account.minerFee(currency),
      account.minimum("send", currency),
      account.cryptoBalances(currency),
      account.exchangeRate(`${currency}${EUR}`).then((r) => r.price),
      account.limits("crypto_withdrawal"),
    ]);
    if (!open) return refuse("send", "closed", { code: currency.toUpperCase() });
    if (amount.lt(minimum)) return refuse("send", "minimum", { minimum: minimum.toFixed(), currency });
    const balance =
      balances.find((item) => item.currency_code.toLowerCase() === currency)?.balance ?? new Big(0);
    const total = amount.plus(fee).plus(minerFee);
    if (total.gt(balance)) {
      const most = balance.minus(fee).minus(minerFee);
      return refuse("send", "balance", {
        balance: balance.toFixed(),
        total: total.toFixed(),
        fees: fee.plus(minerFee).toFixed(),
        most: (most.gt(0) ? most : new Big(0)).toFixed(),
        currency,
      });
    }
    const value = amount.times(rate).round(2, Big.roundHalfUp);
    const quote: SendQuote = {
      fee: fee.toFixed(),
      minerFee: minerFee.toFixed(),
      total: total.toFixed(),
      balance: balance.toFixed(),
      minimum: minimum.toFixed(),
      rate: rate.toFixed(),
      value: value.toFixed(),
    };
    const over = checkLimit(quote, limits, "crypto_withdrawal", value);
    if (over !== undefined) return refuse("send", "limit", { value: value.toFixed(), ...over });
    return { ok: true, quote };
  },
  draft: ({ currency, address, amount }, quote) => ({ kind: "send", currency, address, amount, quote }),
  request: ({ currency, address, amount }) => ({ kind: "send", currency, address, amount }),
  post: (client, { amount, address, currency }, secret) =>
    noReceipt(
      accountOf(client).send({
        amount: new Big(amount),
        address,
        currencyCode: currency,
        securityCode: secretOf("send", secret),
      }),
    ),
};
