/**
 * The words of price alerts: one alert described, the notice a fired alert sends (the background
 * jobs send it through the delivery queue), and the remove button's callback data.
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import type { Alert, AlertKind } from "../../alerts/rules.ts";
import type { FiredAt } from "../../alerts/scheduler.ts";
import { formatChange, formatPercent } from "../../money.ts";
import type { Notice } from "../../notify/notifier.ts";
import type { Translate } from "../../translate.ts";
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

/** The notice a fired alert sends (kind `alerts`: the user's switch in /settings applies). */
export function alertNotice(alert: Alert, at: FiredAt): Notice {
  return {
    userId: alert.userId,
    kind: "alerts",
    locale: alert.locale,
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
      const keyboard = new InlineKeyboard().text(
        t("alert-remove-button"),
        CALLBACK.alertRemove.data(alert.id, "rx"),
      );
      return { text, other: { reply_markup: keyboard } };
    },
  };
}
