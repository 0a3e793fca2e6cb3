/**
 * The words of price alerts: one alert described, the notice a fired alert sends (the background
 * jobs send it through the delivery queue), and its buttons: Buy twice (the amount of the user's
 * last buy of that currency and the defaults), Sell (the last sell's amount, or the flow asks),
 * Set another alert, Remove. A Buy or Sell tap opens the usual quote card (features/trade.ts).
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import type { Alert, AlertKind } from "../../alerts/rules.ts";
import type { FiredAt } from "../../alerts/scheduler.ts";
import { formatAmount, formatChange, formatPercent } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { Notice } from "../../notify/notifier.ts";
import { CALLBACK } from "./callback-data.ts";
import { formatPrice } from "./price-format.ts";

const DESCRIBE_KEYS: Record<AlertKind, string> = {
  above: "alert-describe-above",
  below: "alert-describe-below",
  change: "alert-describe-change",
};
const FIRED_KEYS: Record<AlertKind, string> = {
  above: "alert-fired-above",
  below: "alert-fired-below",
  change: "alert-fired-change",
};

/** The guided /alert's choice of kind (features/alerts.ts): above, below, 24 h change. */
export function alertKindKeyboard(t: Translate, data: (kind: AlertKind) => string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("alert-guide-button-above"), data("above"))
    .text(t("alert-guide-button-below"), data("below"))
    .row()
    .text(t("alert-guide-button-change"), data("change"));
}

/** `BTC above €60,000.00`, `ETH moves ±5% in 24 h`. */
export function describeAlert(
  t: Translate,
  alert: Pick<Alert, "currency" | "kind" | "level">,
  locale: string,
): string {
  const level =
    alert.kind === "change"
      ? `±${formatPercent(new Big(alert.level), locale).replace(/^\+/, "")}`
      : formatPrice(new Big(alert.level), locale);
  return t(DESCRIBE_KEYS[alert.kind], { code: alert.currency.toUpperCase(), level });
}

/** The amounts of the user's last buy (EUR) and sell (the crypto) of the alert's currency, if any. */
export interface LastTrades {
  buy?: string;
  sell?: string;
}

/** The Buy buttons' euros when the user has not bought the currency before (and beside the last buy's). */
export const DEFAULT_BUY_AMOUNTS: readonly string[] = ["50", "100"];
/** An amount a button may carry (callback-data.ts's AMOUNT): anything else is left out. */
const BUTTON_AMOUNT = /^\d{1,13}(?:\.\d{1,18})?$/;

/** The two Buy amounts: the last buy's (when there is one) and the defaults, smallest first. */
export function buyAmounts(last: string | undefined): string[] {
  const wanted = [last, ...DEFAULT_BUY_AMOUNTS].filter(
    (amount): amount is string => amount !== undefined && BUTTON_AMOUNT.test(amount),
  );
  const distinct: string[] = [];
  for (const amount of wanted) if (!distinct.some((d) => new Big(d).eq(amount))) distinct.push(amount);
  return distinct.slice(0, 2).sort((a, b) => new Big(a).cmp(b));
}

/** A fired alert's keyboard: [Buy €a] [Buy €b] / [Sell …] [Set another alert] / [Remove]. */
export function alertKeyboard(t: Translate, alert: Alert, last: LastTrades, locale: string): InlineKeyboard {
  const code = alert.currency;
  const keyboard = new InlineKeyboard();
  for (const amount of buyAmounts(last.buy)) {
    keyboard.text(
      t("alert-buy-button", { amount: formatAmount(new Big(amount), "eur", locale) }),
      CALLBACK.alertTrade.data("buy", code, amount),
    );
  }
  keyboard.row();
  const sell = last.sell !== undefined && BUTTON_AMOUNT.test(last.sell) ? last.sell : undefined;
  keyboard.text(
    sell === undefined
      ? t("alert-sell-ask-button", { code: code.toUpperCase() })
      : t("alert-sell-button", { amount: formatAmount(new Big(sell), code, locale) }),
    CALLBACK.alertTrade.data("sell", code, sell),
  );
  keyboard.text(t("alert-another-button"), CALLBACK.alertAnother.data(code));
  keyboard.row().text(t("alert-remove-button"), CALLBACK.alertRemove.data(alert.id, "rx"));
  return keyboard;
}

/**
 * The line a fired alert held through quiet hours gets when it is delivered: the price it crossed
 * at and the price now (undefined when the feed has no price now: the notice goes as it was).
 */
export function alertHeldLine(
  t: Translate,
  locale: string,
  crossed: Big,
  now: Big | undefined,
): string | undefined {
  if (now === undefined) return undefined;
  return t("alert-held-now", { crossed: formatPrice(crossed, locale), price: formatPrice(now, locale) });
}

/**
 * The notice a fired alert sends (kind `alerts`: the user's switch in /settings applies), with
 * its buttons; `last` is what the user last bought and sold of the currency (the ledger's).
 */
export function alertNotice(alert: Alert, at: FiredAt, last: LastTrades = {}): Notice {
  return {
    userId: alert.userId,
    kind: "alerts",
    locale: alert.locale,
    price: { currency: alert.currency, crossed: at.price.toFixed() },
    render: (t, locale) => {
      const level =
        alert.kind === "change"
          ? `±${formatPercent(new Big(alert.level), locale).replace(/^\+/, "")}`
          : formatPrice(new Big(alert.level), locale);
      const text = [
        t(FIRED_KEYS[alert.kind], {
          name: at.name,
          code: alert.currency.toUpperCase(),
          level,
          price: formatPrice(at.price, locale),
          change: formatChange(at.change, locale),
        }),
        t("alert-fired-hint"),
      ].join("\n");
      return { text, other: { reply_markup: alertKeyboard(t, alert, last, locale) } };
    },
  };
}
