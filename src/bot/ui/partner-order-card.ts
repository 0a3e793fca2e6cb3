/**
 * The quote cards of partner mode's kinds (partner-buy, partner-sell, partner-withdraw), from what
 * the ledger recorded. The partner API shows no fee in advance and may leave out a minimum or a
 * balance (orders/partner-read.ts): a figure the quote does not hold is not shown.
 *
 * @example
 * await ctx.reply(partnerTradeCardText(ctx.t, action, locale));
 */
import Big from "big.js";
import { formatAmount } from "../../money.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { escapeHtml, formatTime } from "./format.ts";
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

/** HTML, like the account withdrawal card: account names are escaped. */
export function partnerWithdrawCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const money = (value: string) => formatAmount(new Big(value), EUR, locale);
  const lines = [
    t("withdraw-card-title"),
    "",
    t("withdraw-card-amount", { amount: money(action.amount) }),
    t("withdraw-card-bank", { name: escapeHtml(q.bankName ?? ""), iban: escapeHtml(q.bankIban ?? "") }),
    t("withdraw-card-reference", { reference: escapeHtml(action.referenceNumber ?? "") }),
  ];
  if (q.balance !== undefined) {
    const after = new Big(q.balance).minus(action.amount).toFixed();
    lines.push(t("withdraw-card-balance", { balance: money(q.balance), after: money(after) }));
  }
  if (q.limitLeft !== undefined) {
    const left = money(q.limitLeft);
    lines.push(
      t(q.limitPeriod === "month" ? "withdraw-card-limit-month" : "withdraw-card-limit-day", { left }),
    );
  }
  lines.push(
    "",
    t("partner-withdraw-card-check"),
    t("withdraw-card-expires", { time: formatTime(action.expiresAt, locale) }),
  );
  return lines.join("\n");
}
