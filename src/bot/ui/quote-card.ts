/**
 * The quote card's text of a buy or sell (rate, fee, what the user pays and roughly gets, minimum,
 * asset open), and the sentences of the order notices that reconciliation produces
 * (for every kind of money action). The buttons, and the cards of the other kinds: order-card.ts.
 *
 * @example
 * await ctx.reply(quoteCardText(ctx.t, action, locale));
 */
import Big from "big.js";
import { formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { type ActionKind, type ActionOf, kindOf, type MoneyAction } from "../../orders/kinds/index.ts";
import type { TradeAction } from "../../orders/kinds/trade.ts";
import type { OrderNotice } from "../../orders/reconcile.ts";
import { formatTime } from "./format.ts";
import { withPhishingLine } from "./phishing.ts";
import { formatPrice } from "./price-format.ts";

const big = (value: string | undefined) => new Big(value ?? "0");

/** The card's text, from what the ledger recorded (so it reads the same after a restart). */
export function quoteCardText(t: Translate, action: TradeAction, locale: string): string {
  const q = action.quote;
  const code = action.currency.toUpperCase();
  const money = (value: string | undefined, currency: string | undefined) =>
    formatAmount(big(value), currency ?? "eur", locale);
  const buy = kindOf(action.kind).family === "buy";
  const lines = [
    t(buy ? "trade-card-title-buy" : "trade-card-title-sell", { code }),
    "",
    t("trade-card-rate", { rate: formatPrice(big(q.rate), locale), code }),
    t("trade-card-fee", { fee: money(q.fee, "eur") }),
    t("trade-card-pay", { amount: money(q.pay, q.payCurrency) }),
    t("trade-card-get", { amount: money(q.get, q.getCurrency) }),
    t("trade-card-minimum", { minimum: money(q.minimum, q.minimumCurrency) }),
    // A buy paid from the euro balance is not a card purchase: the exchange's API reference ties
    // no limit type to it, so the card names none (the quote still checks the card-purchase
    // limit, orders/kinds/trade.ts, and a refusal says it in words).
    ...(buy ? [] : [t("trade-card-limit-none")]),
    t(buy ? "trade-card-open-buy" : "trade-card-open-sell", { code }),
    "",
    t("trade-card-expires", { time: formatTime(action.expiresAt, locale) }),
  ];
  return lines.join("\n");
}

type Summary<K extends ActionKind> = (t: Translate, action: ActionOf<K>, locale: string) => string;

const buySummary: Summary<"buy" | "partner-buy"> = (t, action, locale) =>
  t("order-summary-buy", {
    code: action.currency.toUpperCase(),
    amount: formatAmount(new Big(action.amount), "eur", locale),
  });
const sellSummary: Summary<"sell" | "partner-sell"> = (t, action, locale) =>
  t("order-summary-sell", { amount: formatAmount(new Big(action.amount), action.currency, locale) });
const withdrawSummary: Summary<"withdraw" | "partner-withdraw"> = (t, action, locale) =>
  t("order-summary-withdraw", { amount: formatAmount(new Big(action.amount), "eur", locale) });

/** Each kind's short description, for notices (partner kinds read as their account twins). */
const SUMMARIES: { [K in ActionKind]: Summary<K> } = {
  buy: buySummary,
  sell: sellSummary,
  send: (t, action, locale) =>
    t("order-summary-send", {
      amount: formatAmount(new Big(action.amount), action.currency, locale),
      address: action.address,
    }),
  withdraw: withdrawSummary,
  "partner-buy": buySummary,
  "partner-sell": sellSummary,
  "partner-withdraw": withdrawSummary,
};

/**
 * Whether a settled order's notice tells the fee the exchange reports having taken: the partner
 * kinds', whose quote could only say "plus the exchange's fee" (the partner API quotes none); the
 * account kinds' cards showed the fee already.
 */
const FEE_TOLD_WHEN_SETTLED: Record<ActionKind, boolean> = {
  buy: false,
  sell: false,
  send: false,
  withdraw: false,
  "partner-buy": true,
  "partner-sell": true,
  "partner-withdraw": true,
};

function summaryAs<K extends ActionKind>(kind: K, t: Translate, action: ActionOf<K>, locale: string) {
  return SUMMARIES[kind](t, action, locale);
}

/** A short description of any money action, for notices: "buy BTC for €100.00", "sell 0.5 ETH"… */
export function orderSummary(t: Translate, action: MoneyAction, locale: string): string {
  return summaryAs(action.kind, t, action, locale);
}

/**
 * The sentence of a reconciliation notice (plain text), with the user's anti-phishing phrase
 * (`deps.phishing.get(userId)`) when one is set: it tells of a money action.
 */
export function orderNoticeText(
  t: Translate,
  notice: OrderNotice,
  locale: string,
  phrase: string | undefined,
): string {
  return withPhishingLine(t, phrase, noticeSentence(t, notice, locale));
}

function noticeSentence(t: Translate, notice: OrderNotice, locale: string): string {
  const summary = orderSummary(t, notice.action, locale);
  switch (notice.kind) {
    case "placed":
      return t("order-notice-placed", { summary });
    case "not-placed":
      return t("order-notice-not-placed", { summary });
    case "unknown":
      return t("order-notice-unknown", { summary });
    case "settled": {
      const { feeTaken, feeTakenCurrency } = notice.action;
      // A fee of nothing is no news: "took a fee of €0.00" is not said.
      const told = feeTaken !== undefined && feeTakenCurrency !== undefined && new Big(feeTaken).gt(0);
      return told && FEE_TOLD_WHEN_SETTLED[notice.action.kind]
        ? t("order-notice-settled-fee", {
            summary,
            fee: formatAmount(new Big(feeTaken), feeTakenCurrency, locale),
          })
        : t("order-notice-settled", { summary });
    }
    case "failed":
      // The exchange's transaction says only "error": no reason to pass on.
      return t("order-notice-failed", { summary });
  }
}
