/**
 * The daily digest's words (plain text): the prices the user watches with the day's change, the
 * alerts that fired and the orders that settled in the last 24 hours, and in partner mode the
 * portfolio's value and its change since the last digest. The figures are gathered by the jobs
 * (src/process/jobs/digest.ts); this only words them.
 */
import Big from "big.js";
import { formatAmount, formatChange } from "../../domain/money.ts";
import { localTime, zoneLabel } from "../../domain/time-zone.ts";
import type { Translate } from "../../domain/translate.ts";
import { clockText } from "../../notify/quiet-hours.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { describeAlert } from "./alert-text.ts";
import { changeArrow, formatPrice } from "./price-format.ts";
import { orderSummary } from "./quote-card.ts";

export interface DigestData {
  /** The user's time zone: the times of the day are theirs. */
  zone: string;
  /** Watched currencies with their EUR price and 24 h change in percent (decimal text); undefined: unavailable. */
  prices: undefined | Array<{ currency: string; name: string; price: string; change24h: string }>;
  fired: Array<{
    currency: string;
    kind: "above" | "below" | "change";
    level: string;
    price: string;
    at: number;
  }>;
  settled: MoneyAction[];
  /** Partner mode: the value in EUR now, and at the last digest when there was one. */
  portfolio?: { value: string; before?: string | undefined } | undefined;
}

export function digestText(t: Translate, data: DigestData, locale: string): string {
  const lines = [t("digest-title"), ""];
  if (data.portfolio !== undefined) {
    const value = new Big(data.portfolio.value);
    const before = data.portfolio.before === undefined ? undefined : new Big(data.portfolio.before);
    lines.push(
      before === undefined || before.eq(0)
        ? t("digest-portfolio", { value: formatAmount(value, "eur", locale) })
        : t("digest-portfolio-change", {
            value: formatAmount(value, "eur", locale),
            difference: `${value.gte(before) ? "+" : "−"}${formatAmount(value.minus(before).abs(), "eur", locale)}`,
            change: formatChange(value.minus(before).div(before).times(100), locale),
          }),
      "",
    );
  }
  lines.push(t(data.prices === undefined ? "digest-prices-unavailable" : "digest-prices"));
  for (const row of data.prices ?? []) {
    const change = new Big(row.change24h);
    lines.push(
      t("prices-line", {
        arrow: changeArrow(change),
        name: row.name,
        code: row.currency.toUpperCase(),
        price: formatPrice(new Big(row.price), locale),
        change: formatChange(change, locale),
      }),
    );
  }
  lines.push("", t("digest-fired", { count: data.fired.length }));
  for (const fired of data.fired) {
    lines.push(
      `• ${describeAlert(t, fired, locale)} · ${formatPrice(new Big(fired.price), locale)} · ${timeOfDay(data.zone, fired.at)}`,
    );
  }
  lines.push("", t("digest-settled", { count: data.settled.length }));
  for (const action of data.settled) {
    lines.push(
      `• ${orderSummary(t, action, locale)} · ${timeOfDay(data.zone, action.finishedAt ?? action.createdAt)}`,
    );
  }
  lines.push("", t("digest-hint"));
  return lines.join("\n");
}

function timeOfDay(zone: string, at: number): string {
  const local = localTime(zone, at);
  return `${clockText(local.hour * 60 + local.minute)} ${zoneLabel(zone)}`;
}
