/**
 * /fees's sentences and buttons: the fee of a request as the exchange computed it, and the
 * question for what is still missing (type, currency, amount).
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { EUR } from "../../domain/currency.ts";
import { formatAmount, formatNumber } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { CALLBACK } from "./callback-data.ts";
import { type CurrencyChoice, currencyKeyboard } from "./currency-choice.ts";
import { FEE_BUTTON_KEYS, FEE_TYPES, type Step } from "./fee-input.ts";
import { formatPrice } from "./price-format.ts";

/** The answer, JSON-safe: decimals as strings. */
export type FeeQuote =
  | { type: "buy" | "sell"; unit: string; amount: string; eur: string; fee: string; rate?: string }
  | { type: "send"; currency: string; fee: string; minerFee: string; minimum: string; amount?: string };

export function quoteText(t: Translate, result: FeeQuote, locale: string): string {
  if (result.type === "send") {
    const code = result.currency;
    const fee = new Big(result.fee);
    const minerFee = new Big(result.minerFee);
    const minimum = new Big(result.minimum);
    const total = fee.plus(minerFee);
    const lines = [
      t("fees-send-title", { code: code.toUpperCase() }),
      "",
      t("fees-send-fee", { fee: formatAmount(fee, code, locale) }),
      t("fees-send-miner-fee", { fee: formatAmount(minerFee, code, locale) }),
      t("fees-send-total", { fee: formatAmount(total, code, locale) }),
      t("fees-send-minimum", { minimum: formatAmount(minimum, code, locale) }),
    ];
    if (result.amount !== undefined) {
      const amount = new Big(result.amount);
      lines.push("");
      lines.push(
        amount.lt(minimum)
          ? t("fees-send-below-minimum", {
              amount: formatAmount(amount, code, locale),
              minimum: formatAmount(minimum, code, locale),
            })
          : t("fees-send-amount", {
              amount: formatAmount(amount, code, locale),
              fee: formatAmount(total, code, locale),
            }),
      );
    }
    return lines.join("\n");
  }
  const eur = new Big(result.eur);
  const fee = new Big(result.fee);
  const eurText = formatAmount(eur, EUR, locale);
  const lines = [
    t(result.type === "buy" ? "fees-buy-title" : "fees-sell-title"),
    "",
    result.rate === undefined
      ? t("fees-amount", { amount: eurText })
      : t("fees-amount-converted", {
          amount: formatAmount(new Big(result.amount), result.unit, locale),
          eur: eurText,
        }),
    t("fees-fee", {
      fee: formatAmount(fee, EUR, locale),
      percent: formatNumber(eur.gt(0) ? fee.div(eur).times(100) : new Big(0), locale, 2),
    }),
  ];
  if (result.rate !== undefined) {
    lines.push("");
    lines.push(
      t("fees-estimate", {
        rate: formatPrice(new Big(result.rate), locale),
        code: result.unit.toUpperCase(),
      }),
    );
  }
  return lines.join("\n");
}

export function askText(t: Translate, step: Extract<Step, { kind: "ask" }>, locale: string): string {
  const { type, currency } = step.request;
  if (step.ask === "type") return t("fees-usage");
  if (step.ask === "currency")
    return t(type === "send" ? "fees-ask-currency-send" : "fees-ask-currency-sell");
  if (type === "buy" && currency === undefined) return t("fees-ask-amount-buy");
  const unit = currency ?? EUR;
  const example = unit === EUR ? "100" : formatNumber(new Big("0.01"), locale);
  return t("fees-ask-amount", { code: unit.toUpperCase(), example });
}

export function askKeyboard(
  t: Translate,
  step: Extract<Step, { kind: "ask" }>,
  currencies: readonly CurrencyChoice[],
): InlineKeyboard | undefined {
  if (step.ask === "type") return typeKeyboard(t);
  const type = step.request.type;
  if (step.ask === "currency" && type !== undefined)
    return currencyKeyboard(currencies, (code) => CALLBACK.feesPick.data(type, code));
  return undefined;
}

export function typeKeyboard(t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const type of FEE_TYPES) keyboard.text(t(FEE_BUTTON_KEYS[type]), CALLBACK.feesPick.data(type));
  return keyboard;
}
