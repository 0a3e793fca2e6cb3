/**
 * The quote card of partner mode's buy and sell, from what the ledger recorded (a partner
 * withdrawal's card is the account one's, order-card.ts). The partner API shows no fee in
 * advance and may leave out a minimum or a balance (exchange/partner-schemas.ts): a figure the quote
 * does not hold is not shown. So the card never states a total it cannot know: it says the amount
 * and that the exchange's fee comes on top (buy) or off (sell); only a quote that holds a fee
 * (`fee`, in EUR) shows it, with the total.
 *
 * @example
 * await ctx.reply(partnerTradeCardText(ctx.t, action, locale));
 */
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { kindOf } from "../../orders/kinds/index.ts";
import type { PartnerTradeAction } from "../../orders/kinds/partner-trade.ts";
import { formatTime } from "./format.ts";
import { formatPrice } from "./price-format.ts";

export function partnerTradeCardText(t: Translate, action: PartnerTradeAction, locale: string): string {
  const q = action.quote;
  const code = action.currency.toUpperCase();
  const money = (value: string | undefined, currency: string | undefined) =>
    formatAmount(new Big(value ?? "0"), currency ?? EUR, locale);
  const buy = kindOf(action.kind).family === "buy";
  const lines = [
    t(buy ? "trade-card-title-buy" : "trade-card-title-sell", { code }),
    "",
    t("trade-card-rate", { rate: formatPrice(new Big(q.rate ?? "0"), locale), code }),
  ];
  if (q.fee !== undefined) {
    // A fee the exchange named: the card can say the whole of it, as account mode's does.
    const fee = new Big(q.fee);
    lines.push(t("trade-card-fee", { fee: money(q.fee, EUR) }));
    if (buy) {
      lines.push(
        t("trade-card-pay", { amount: money(new Big(q.pay ?? "0").plus(fee).toFixed(), q.payCurrency) }),
      );
      lines.push(t("trade-card-get", { amount: money(q.get, q.getCurrency) }));
    } else {
      lines.push(t("partner-card-sell", { amount: money(q.pay, q.payCurrency) }));
      lines.push(
        t("trade-card-get", { amount: money(new Big(q.get ?? "0").minus(fee).toFixed(), q.getCurrency) }),
      );
    }
  } else if (buy) {
    lines.push(t("partner-card-pay-plus-fee", { amount: money(q.pay, q.payCurrency) }));
    lines.push(t("trade-card-get", { amount: money(q.get, q.getCurrency) }));
  } else {
    lines.push(t("partner-card-sell", { amount: money(q.pay, q.payCurrency) }));
    lines.push(t("partner-card-get-minus-fee", { amount: money(q.get, q.getCurrency) }));
  }
  if (q.minimum !== undefined)
    lines.push(t("trade-card-minimum", { minimum: money(q.minimum, q.minimumCurrency) }));
  if (q.balance !== undefined)
    lines.push(t("partner-card-balance", { balance: money(q.balance, q.payCurrency) }));
  lines.push("", t("trade-card-expires", { time: formatTime(action.expiresAt, locale) }));
  return lines.join("\n");
}
