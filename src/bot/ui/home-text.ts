/**
 * The home card (/start when logged in, /home, its 🏠 menu entry): the total balance when it can
 * be read, the day's change of the currencies the user holds or watches, the open orders, and
 * buttons to the main actions. Words only: flows/home.ts gathers what it shows.
 *
 * @example
 * const { text, keyboard } = homeCard(ctx.t, view, locale);
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { formatAmount, formatChange } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { CALLBACK } from "./callback-data.ts";
import { formatPrice } from "./price-format.ts";
import { orderSummary } from "./quote-card.ts";
import { userText } from "./user-text.ts";

/** A currency's line: its price now and its 24 h change. */
export interface HomeMove {
  currency: string;
  price: string;
  change24h: string;
}

export interface HomeView {
  /** Who is served: the e-mail of the session (account mode), or the partner user's name. */
  who: string;
  /** EUR, when the exchange said. */
  total?: Big;
  /** Held or watched currencies with a price; `undefined`: the market could not be read. */
  moves?: readonly HomeMove[];
  open: readonly MoneyAction[];
}

/** At most this many currency lines; the rest are in /prices. */
export const HOME_MOVES = 6;
/** At most this many open orders named; the count says the rest. */
const HOME_ORDERS = 3;

export function homeCard(
  t: Translate,
  view: HomeView,
  locale: string,
  /** Whether this mode has price alerts (its button). */
  options: { alerts: boolean } = { alerts: true },
): { text: string; keyboard: InlineKeyboard } {
  const lines = [t("home-title", { who: userText(view.who) }), ""];
  lines.push(
    view.total === undefined
      ? t("home-total-unknown")
      : t("home-total", { amount: formatAmount(view.total, "eur", locale) }),
  );
  lines.push("");
  if (view.moves === undefined) lines.push(t("home-moves-unknown"));
  else if (view.moves.length === 0) lines.push(t("home-moves-none"));
  else {
    lines.push(t("home-moves-title"));
    for (const move of view.moves.slice(0, HOME_MOVES)) {
      lines.push(
        t("home-move", {
          code: move.currency.toUpperCase(),
          price: formatPrice(new Big(move.price), locale),
          change: formatChange(new Big(move.change24h || "0"), locale),
        }),
      );
    }
  }
  lines.push("");
  if (view.open.length === 0) lines.push(t("home-orders-none"));
  else {
    lines.push(t("home-orders-title", { count: view.open.length }));
    for (const action of view.open.slice(0, HOME_ORDERS)) {
      lines.push(`• ${orderSummary(t, action, locale)}`);
    }
  }
  const keyboard = new InlineKeyboard()
    .text(t("home-button-buy"), CALLBACK.home.data("buy"))
    .text(t("home-button-sell"), CALLBACK.home.data("sell"))
    .row();
  if (options.alerts) keyboard.text(t("home-button-alerts"), CALLBACK.home.data("alerts"));
  keyboard
    .text(t("home-button-transactions"), CALLBACK.home.data("tx"))
    .row()
    .text(t("home-button-refresh"), CALLBACK.home.data("home"));
  return { text: lines.join("\n"), keyboard };
}
