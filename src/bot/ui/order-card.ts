/**
 * Every kind's quote card and sentences, in one place: the card's text and buttons, the refusal of
 * a quote, and the words of each step of the money pipeline (src/orders/pipeline.ts) for that kind.
 * Figures arrive as raw decimals and codes; they are formatted here for the user's language.
 *
 * Every card carries the same buttons with the same callback data, the ledger's action id (the
 * store's nonce, SECURITY.md, rule 8): `ord:c:<id>` Confirm, `ord:x:<id>` Cancel, and for a buy or
 * sell `ord:e:<id>` Change amount (< 64 bytes). They are answered from the store, outside any
 * conversation (features/orders.ts).
 *
 * Sentence keys are written out in full, so `grep -rn send-code-wrong src` finds where it is said.
 */
import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { EUR } from "../../currency.ts";
import { formatAmount } from "../../money.ts";
import type { ActionKind, ConfirmRefusal, MoneyAction } from "../../orders/ledger.ts";
import type { QuoteRefusal } from "../../orders/quote.ts";
import type { Translate } from "../../translate.ts";
import { sameLabel } from "./amount.ts";
import { CALLBACK } from "./callback-data.ts";
import { escapeHtml, formatTime } from "./format.ts";
import { partnerTradeCardText } from "./partner-order-card.ts";
import { withPhishingLine } from "./phishing.ts";
import { orderSummary, quoteCardText, TWIN } from "./quote-card.ts";

/** The card's buttons (callback-data.ts: `order`). */
const cardData = CALLBACK.order.data;

const money = (value: string | undefined, currency: string, locale: string) =>
  formatAmount(new Big(value ?? "0"), currency, locale);

/** The card, from what the ledger recorded (so it reads the same after a restart). */
export function cardText(t: Translate, action: MoneyAction, locale: string): string {
  switch (action.kind) {
    case "buy":
    case "sell":
      return quoteCardText(t, action, locale);
    case "send":
      return sendCardText(t, action, locale);
    case "withdraw":
    case "partner-withdraw":
      return withdrawCardText(t, action, locale);
    case "partner-buy":
    case "partner-sell":
      return partnerTradeCardText(t, action, locale);
  }
}

/** Send and withdraw cards hold addresses and account names: HTML, every value escaped. */
export const cardParseMode = (kind: ActionKind): "HTML" | undefined =>
  kind === "send" || kind === "withdraw" || kind === "partner-withdraw" ? "HTML" : undefined;

/**
 * The card as a message: `await ctx.reply(card.text, card.other)`. It confirms a money action, so
 * it carries the user's anti-phishing phrase (`phrase`: `deps.phishing.get(userId)`) when one is set.
 */
export function cardMessage(
  t: Translate,
  action: MoneyAction,
  locale: string,
  phrase: string | undefined,
): { text: string; other: { parse_mode?: "HTML"; reply_markup: InlineKeyboard } } {
  const parseMode = cardParseMode(action.kind);
  return {
    text: withPhishingLine(t, phrase, cardText(t, action, locale), { html: parseMode === "HTML" }),
    other: { ...(parseMode ? { parse_mode: parseMode } : {}), reply_markup: cardKeyboard(t, action) },
  };
}

export function cardKeyboard(t: Translate, action: MoneyAction): InlineKeyboard {
  switch (action.kind) {
    case "buy":
    case "sell":
    case "partner-buy":
    case "partner-sell":
      return new InlineKeyboard()
        .text(t("trade-button-confirm"), cardData("c", action.id))
        .row()
        .text(t("trade-button-change"), cardData("e", action.id))
        .text(t("trade-button-cancel"), cardData("x", action.id));
    case "send":
      return new InlineKeyboard()
        .text(t("send-button-confirm"), cardData("c", action.id))
        .text(t("send-button-cancel"), cardData("x", action.id));
    case "withdraw":
    case "partner-withdraw":
      return new InlineKeyboard()
        .text(t("withdraw-button-confirm"), cardData("c", action.id))
        .text(t("withdraw-button-cancel"), cardData("x", action.id));
  }
}

/** The Confirm and Cancel labels of every kind's card, for text typed instead of a tap. */
const CONFIRM_LABELS = ["trade-button-confirm", "send-button-confirm", "withdraw-button-confirm"] as const;
const CANCEL_LABELS = ["trade-button-cancel", "send-button-cancel", "withdraw-button-cancel"] as const;

/**
 * "c" when `text` is a card's Confirm label, "x" for its Cancel, in the user's language (compared
 * loosely, {@link sameLabel}): every choice offered as buttons is also accepted as typed text.
 */
export function typedCardVerb(t: Translate, text: string): "c" | "x" | undefined {
  if (CONFIRM_LABELS.some((key) => sameLabel(text, t(key)))) return "c";
  if (CANCEL_LABELS.some((key) => sameLabel(text, t(key)))) return "x";
  return undefined;
}

function sendCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const code = action.currency;
  const lines = [
    t("send-card-title", { code: code.toUpperCase() }),
    "",
    t("send-card-amount", { amount: money(action.amount, code, locale), value: money(q.value, EUR, locale) }),
    t("send-card-address", { address: escapeHtml(action.address ?? "") }),
    t("send-card-fee", { fee: money(q.fee, code, locale) }),
    t("send-card-miner-fee", { fee: money(q.minerFee, code, locale) }),
    t("send-card-total", { total: money(q.total, code, locale) }),
    t("send-card-balance", {
      balance: money(q.balance, code, locale),
      after: money(new Big(q.balance ?? "0").minus(q.total ?? "0").toFixed(), code, locale),
    }),
    t("send-card-minimum", { minimum: money(q.minimum, code, locale) }),
  ];
  if (q.limitLeft !== undefined) {
    const left = money(q.limitLeft, EUR, locale);
    lines.push(t(q.limitPeriod === "month" ? "send-card-limit-month" : "send-card-limit-day", { left }));
  }
  lines.push(
    "",
    t("send-card-check"),
    t("send-card-expires", { time: formatTime(action.expiresAt, locale) }),
  );
  return lines.join("\n");
}

/** Both modes' withdrawal card; a partner balance the exchange did not give is left out. */
function withdrawCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const lines = [
    t("withdraw-card-title"),
    "",
    t("withdraw-card-amount", { amount: money(action.amount, EUR, locale) }),
    t("withdraw-card-bank", {
      name: escapeHtml(q.bankName ?? ""),
      iban: escapeHtml(q.bankIban ?? ""),
    }),
    t("withdraw-card-reference", { reference: escapeHtml(action.referenceNumber ?? "") }),
  ];
  if (q.balance !== undefined) {
    lines.push(
      t("withdraw-card-balance", {
        balance: money(q.balance, EUR, locale),
        after: money(new Big(q.balance).minus(action.amount).toFixed(), EUR, locale),
      }),
    );
  }
  if (q.limitLeft !== undefined) {
    const left = money(q.limitLeft, EUR, locale);
    lines.push(
      t(q.limitPeriod === "month" ? "withdraw-card-limit-month" : "withdraw-card-limit-day", { left }),
    );
  }
  lines.push(
    "",
    action.kind === "partner-withdraw" ? t("partner-withdraw-card-check") : t("withdraw-card-check"),
    t("withdraw-card-expires", { time: formatTime(action.expiresAt, locale) }),
  );
  return lines.join("\n");
}

/** Why the exchange's numbers allow no quote, in the user's language. */
export function refusalText(t: Translate, refusal: QuoteRefusal, locale: string): string {
  const v = refusal.vars;
  // A partner kind's refusal reads as its account twin's (the same figures, the same advice).
  const kind = TWIN[refusal.kind];
  const trade = kind === "buy" || kind === "sell";
  switch (refusal.reason) {
    case "closed":
      if (kind === "buy") return t("trade-refused-closed-buy", { code: v.code ?? "" });
      if (kind === "sell") return t("trade-refused-closed-sell", { code: v.code ?? "" });
      return t("send-refused-closed", { code: v.code ?? "" });
    case "minimum":
      return trade
        ? t("trade-refused-minimum", { minimum: money(v.minimum, v.currency ?? EUR, locale) })
        : t("send-refused-minimum", { minimum: money(v.minimum, v.currency ?? EUR, locale) });
    case "fee":
      return t("trade-refused-fee", { fee: money(v.fee, EUR, locale) });
    case "balance": {
      const currency = v.currency ?? EUR;
      if (kind === "send") {
        return t("send-refused-balance", {
          balance: money(v.balance, currency, locale),
          total: money(v.total, currency, locale),
          fees: money(v.fees, currency, locale),
          most: money(v.most, currency, locale),
        });
      }
      if (kind === "withdraw")
        return t("withdraw-refused-balance", { balance: money(v.balance, EUR, locale) });
      const vars = { balance: money(v.balance, currency, locale), needed: money(v.needed, currency, locale) };
      return kind === "buy" ? t("trade-refused-balance-buy", vars) : t("trade-refused-balance-sell", vars);
    }
    case "limit": {
      const left = money(v.left, EUR, locale);
      const month = v.period === "month";
      if (kind === "send") {
        const vars = { value: money(v.value, EUR, locale), left };
        return month ? t("send-refused-limit-month", vars) : t("send-refused-limit-day", vars);
      }
      if (kind === "withdraw") {
        return month
          ? t("withdraw-refused-limit-month", { left })
          : t("withdraw-refused-limit-day", { left });
      }
      return t("trade-refused-limit", { left, type: v.type ?? "", period: v.period ?? "day" });
    }
    case "bank-gone":
      return t("withdraw-bank-gone");
    case "bank-pending":
      return t("withdraw-bank-pending");
  }
}

/**
 * The sentences of one kind through the pipeline, as locale keys. `close*` are the lines a closed
 * card gets under its text (a card without them only loses its buttons).
 */
export interface OrderWords {
  /** A tap the ledger refused (answered to the tapper only). */
  refused(reason: ConfirmRefusal): string;
  /** A second tap on a card that was quoted again already. */
  expiredAgain: string;
  /** Said in the chat before the new card of an expired one. */
  requoted: string;
  /** The card's Cancel went through. */
  cancelled: string;
  /** The card's Cancel came after the order was handed to the exchange. */
  sentAlready: string;
  closePlacing?: string;
  closeCancelled?: string;
  closeExpired?: string;
  closeReplaced?: string;
  /** Answer to the Confirm tap when the order goes out at once. */
  placingTap?: string;
  /** After a successful POST; `vars` fills it. */
  placed: string;
  unknown: string;
  failed: string;
  loginNeeded: string;
  /** Whether `loginNeeded` comes with the Log in button (partner users have no login). */
  loginButton: boolean;
  /** The fresh 2FA code step (send, withdraw). */
  code?: CodeWords;
}

export interface CodeWords {
  ask: string;
  format: string;
  awaited: string;
  wrong: string;
  tooMany: string;
  late: string;
  sending: string;
}

const TRADE_WORDS: OrderWords = {
  refused: (reason) => {
    switch (reason) {
      case "unknown":
        return "trade-tap-unknown";
      case "not-yours":
        return "trade-tap-not-yours";
      case "expired":
        return "trade-tap-expired";
      case "already":
        return "trade-tap-already";
      case "cancelled":
        return "trade-tap-cancelled";
      case "replaced":
        return "trade-tap-replaced";
    }
  },
  expiredAgain: "trade-tap-expired-again",
  requoted: "trade-requoted",
  cancelled: "trade-cancelled",
  sentAlready: "trade-tap-already",
  closePlacing: "trade-card-placing",
  closeCancelled: "trade-card-cancelled",
  closeExpired: "trade-card-expired",
  closeReplaced: "trade-card-replaced",
  placingTap: "trade-tap-placing",
  placed: "trade-placed",
  unknown: "trade-unknown",
  failed: "trade-failed",
  loginNeeded: "trade-failed-login",
  loginButton: true,
};

const SEND_WORDS: OrderWords = {
  refused: (reason) => (reason === "replaced" ? "send-replaced" : "send-button-stale"),
  expiredAgain: "send-button-stale",
  requoted: "send-quote-expired",
  cancelled: "send-cancelled",
  sentAlready: "send-sent-already",
  placed: "send-placed",
  unknown: "send-unknown",
  failed: "send-failed",
  loginNeeded: "send-login-needed",
  loginButton: true,
  code: {
    ask: "send-code-ask",
    format: "send-code-format",
    awaited: "send-code-awaited",
    wrong: "send-code-wrong",
    tooMany: "send-code-too-many",
    late: "send-code-late",
    sending: "send-sending",
  },
};

const WITHDRAW_WORDS: OrderWords = {
  refused: (reason) => (reason === "replaced" ? "withdraw-replaced" : "withdraw-button-stale"),
  expiredAgain: "withdraw-button-stale",
  requoted: "withdraw-quote-expired",
  cancelled: "withdraw-cancelled",
  sentAlready: "withdraw-sent-already",
  placed: "withdraw-placed",
  unknown: "withdraw-unknown",
  failed: "withdraw-failed",
  loginNeeded: "withdraw-login-needed",
  loginButton: true,
  code: {
    ask: "withdraw-code-ask",
    format: "withdraw-code-format",
    awaited: "withdraw-code-awaited",
    wrong: "withdraw-code-wrong",
    tooMany: "withdraw-code-too-many",
    late: "withdraw-code-late",
    sending: "withdraw-sending",
  },
};

/** Partner users have no session to renew: "not signed up" instead of "log in again". */
const PARTNER_TRADE_WORDS: OrderWords = {
  ...TRADE_WORDS,
  unknown: "partner-trade-unknown",
  loginNeeded: "partner-order-not-signed-up",
  loginButton: false,
};

/** The secret after Confirm is the user's PIN, checked by the bot (orders/place.ts), not a 2FA code. */
const PARTNER_WITHDRAW_WORDS: OrderWords = {
  ...WITHDRAW_WORDS,
  loginNeeded: "partner-order-not-signed-up",
  loginButton: false,
  code: {
    ask: "partner-pin-ask",
    format: "partner-pin-format",
    awaited: "partner-pin-awaited",
    wrong: "partner-pin-wrong",
    tooMany: "partner-pin-locked",
    late: "partner-pin-late",
    sending: "partner-pin-checking",
  },
};

export const ORDER_WORDS: Record<ActionKind, OrderWords> = {
  buy: TRADE_WORDS,
  sell: TRADE_WORDS,
  send: SEND_WORDS,
  withdraw: WITHDRAW_WORDS,
  "partner-buy": PARTNER_TRADE_WORDS,
  "partner-sell": PARTNER_TRADE_WORDS,
  "partner-withdraw": PARTNER_WITHDRAW_WORDS,
};

/** The variables of a kind's outcome sentences (`placed`, `unknown`): what was ordered. */
export function outcomeVars(t: Translate, action: MoneyAction, locale: string): Record<string, string> {
  switch (TWIN[action.kind]) {
    case "buy":
    case "sell":
      return { summary: orderSummary(t, action, locale) };
    case "send":
      return {
        amount: money(action.amount, action.currency, locale),
        address: escapeHtml(action.address ?? ""),
      };
    case "withdraw":
      return {
        amount: money(action.amount, EUR, locale),
        bank: escapeHtml(`${action.quote.bankName ?? ""} · ${action.quote.bankIban ?? ""}`),
      };
  }
}
