/**
 * The quote card of partner mode's buy and sell, from what the ledger recorded (a partner
 * withdrawal's card is the account one's, order-card.ts). The partner API shows no fee in
 * advance and may leave out a minimum or a balance (orders/partner-read.ts): a figure the quote
 * does not hold is not shown.
 *
 * @example
 * await ctx.reply(partnerTradeCardText(ctx.t, action, locale));
 */
import Big from "big.js";
import { formatAmount } from "../../money.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { formatTime } from "./format.ts";
import { formatPrice } from "./price-format.ts";

type Translate = (key: string, variables?: Record<string, string | number>) => string;

const EUR = "eur";

export function partnerTradeCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const code = action.currency.toUpperCase();
  const money = (value: string | undefined, currency: string | undefined) =>
    formatAmount(new Big(value ?? "0"), currency ?? EUR, locale);
  const lines = [
    t(action.kind === "partner-buy" ? "trade-card-title-buy" : "trade-card-title-sell", { code }),
    "",
    t("trade-card-rate", { rate: formatPrice(new Big(q.rate ?? "0"), locale), code }),
    t("trade-card-pay", { amount: money(q.pay, q.payCurrency) }),
    t("trade-card-get", { amount: money(q.get, q.getCurrency) }),
    t("partner-card-fee"),
  ];
  if (q.minimum !== undefined)
    lines.push(t("trade-card-minimum", { minimum: money(q.minimum, q.minimumCurrency) }));
  if (q.balance !== undefined)
    lines.push(t("partner-card-balance", { balance: money(q.balance, q.payCurrency) }));
  lines.push("", t("trade-card-expires", { time: formatTime(action.expiresAt, locale) }));
  return lines.join("\n");
}
