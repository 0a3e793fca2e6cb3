/**
 * Quotes as the kinds record them, for tests that drive the Ledger directly (no exchange asked):
 * each kind's draft is made by its own descriptor, from a request and a quote of that kind's shape.
 */
import type { ActionKind, DraftMap, MoneyDraft } from "../../src/orders/kinds/index.ts";
import { KINDS } from "../../src/orders/kinds/index.ts";
import type { PartnerTradeQuote } from "../../src/orders/kinds/partner-trade.ts";
import type { SendQuote } from "../../src/orders/kinds/send.ts";
import type { TradeQuote } from "../../src/orders/kinds/trade.ts";

export const TRADE_QUOTE: TradeQuote = {
  rate: "60000",
  fee: "1",
  pay: "101",
  payCurrency: "eur",
  get: "0.00166666",
  getCurrency: "btc",
  minimum: "10",
  minimumCurrency: "eur",
  balance: "1000",
};
const SEND_QUOTE: SendQuote = {
  fee: "0.0001",
  minerFee: "0.0002",
  total: "0.0103",
  balance: "1",
  minimum: "0.001",
  rate: "60000",
  value: "600",
};
const BANK = { balance: "1000", bankName: "Girokonto", bankIban: "DE89 **** 3000" };
export const PARTNER_TRADE_QUOTE: PartnerTradeQuote = {
  pair: "btceur",
  rate: "60000",
  pay: "100",
  payCurrency: "eur",
  get: "0.00166666",
  getCurrency: "btc",
};
const REFERENCE = "RF18539007547034";

const DRAFTS: { [K in ActionKind]: (currency: string, amount: string) => DraftMap[K] } = {
  buy: (currency, amount) => KINDS.buy.draft({ kind: "buy", currency, amount }, TRADE_QUOTE),
  sell: (currency, amount) => KINDS.sell.draft({ kind: "sell", currency, amount }, TRADE_QUOTE),
  send: (currency, amount) =>
    KINDS.send.draft({ kind: "send", currency, amount, address: "bc1qexampleaddress" }, SEND_QUOTE),
  withdraw: (_currency, amount) =>
    KINDS.withdraw.draft({ kind: "withdraw", amount, referenceNumber: REFERENCE }, BANK),
  "partner-buy": (currency, amount) =>
    KINDS["partner-buy"].draft({ kind: "partner-buy", currency, amount }, PARTNER_TRADE_QUOTE),
  "partner-sell": (currency, amount) =>
    KINDS["partner-sell"].draft({ kind: "partner-sell", currency, amount }, PARTNER_TRADE_QUOTE),
  "partner-withdraw": (_currency, amount) =>
    KINDS["partner-withdraw"].draft(
      { kind: "partner-withdraw", amount, referenceNumber: REFERENCE },
      { ...BANK, bankId: "7" },
    ),
};

/** A draft of `kind` for `amount` of `currency` (withdrawals: EUR whatever `currency` says). */
export function draftOf(kind: ActionKind, currency = "btc", amount = "100"): MoneyDraft {
  return DRAFTS[kind](currency, amount);
}
