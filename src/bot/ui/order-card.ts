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
import { EUR } from "../../domain/currency.ts";
import { formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import {
  ACTION_KINDS,
  type ActionKind,
  type ActionOf,
  kindOf,
  type MoneyAction,
} from "../../orders/kinds/index.ts";
import type { CardWords } from "../../orders/kinds/kind.ts";
import type { PartnerWithdrawAction } from "../../orders/kinds/partner-withdraw.ts";
import type { SendAction } from "../../orders/kinds/send.ts";
import type { WithdrawAction } from "../../orders/kinds/withdraw.ts";
import type { ConfirmRefusal } from "../../orders/ledger.ts";
import { limitCurrency } from "../../orders/limit-left.ts";
import type { QuoteRefusal } from "../../orders/quote.ts";
import { sameLabel } from "./amount.ts";
import { CALLBACK } from "./callback-data.ts";
import { escapeHtml, formatMoment, formatTime } from "./format.ts";
import { partnerTradeCardText } from "./partner-order-card.ts";
import { withPhishingLine } from "./phishing.ts";
import { orderSummary, quoteCardText } from "./quote-card.ts";
import { userText } from "./user-text.ts";

/** The card's buttons (callback-data.ts: `order`). */
const cardData = CALLBACK.order.data;

const money = (value: string | undefined, currency: string, locale: string) =>
  formatAmount(new Big(value ?? "0"), currency, locale);

/** The card's buttons, as locale keys; Change amount only where the amount can be typed again (buy, sell). */
interface CardButtons {
  confirm: string;
  cancel: string;
  change?: string;
}

const TRADE_BUTTONS: CardButtons = {
  confirm: "trade-button-confirm",
  change: "trade-button-change",
  cancel: "trade-button-cancel",
};
const WITHDRAW_BUTTONS: CardButtons = {
  confirm: "withdraw-button-confirm",
  cancel: "withdraw-button-cancel",
};

/**
 * What the bot shows of one kind (its sentences: {@link ORDER_WORDS}); a kind without its card
 * does not compile ({@link CARDS}).
 */
interface KindCard<K extends ActionKind> {
  /** The card holds addresses or account names: HTML, every value escaped. */
  html: boolean;
  text(t: Translate, action: ActionOf<K>, locale: string): string;
  buttons: CardButtons;
  /** The variables of the kind's outcome sentences (`placed`, `unknown`): what was ordered. */
  outcome(t: Translate, action: ActionOf<K>, locale: string): Record<string, string>;
}

const summaryVars = (t: Translate, action: MoneyAction, locale: string) => ({
  summary: orderSummary(t, action, locale),
});
const withdrawVars = (_t: Translate, action: WithdrawAction | PartnerWithdrawAction, locale: string) => ({
  amount: money(action.amount, EUR, locale),
  bank: escapeHtml(`${action.quote.bankName} · ${action.quote.bankIban}`),
});

/** The card, from what the ledger recorded (so it reads the same after a restart). */
export function cardText(t: Translate, action: MoneyAction, locale: string): string {
  return cardTextAs(action.kind, t, action, locale);
}

function cardTextAs<K extends ActionKind>(kind: K, t: Translate, action: ActionOf<K>, locale: string) {
  const card: KindCard<K> = CARDS[kind];
  return card.text(t, action, locale);
}

/** Send and withdraw cards hold addresses and account names: HTML, every value escaped. */
export const cardParseMode = (kind: ActionKind): "HTML" | undefined =>
  CARDS[kind].html ? "HTML" : undefined;

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
  const { confirm, change, cancel } = CARDS[action.kind].buttons;
  const keyboard = new InlineKeyboard().text(t(confirm), cardData("c", action.id));
  if (change !== undefined) keyboard.row().text(t(change), cardData("e", action.id));
  return keyboard.text(t(cancel), cardData("x", action.id));
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

function sendCardText(t: Translate, action: SendAction, locale: string): string {
  const q = action.quote;
  const code = action.currency;
  const lines = [
    t("send-card-title", { code: code.toUpperCase() }),
    "",
    t("send-card-amount", { amount: money(action.amount, code, locale), value: money(q.value, EUR, locale) }),
    t("send-card-address", { address: escapeHtml(action.address) }),
    t("send-card-fee", { fee: money(q.fee, code, locale) }),
    t("send-card-miner-fee", { fee: money(q.minerFee, code, locale) }),
    t("send-card-total", { total: money(q.total, code, locale) }),
    t("send-card-balance", {
      balance: money(q.balance, code, locale),
      after: money(new Big(q.balance).minus(q.total).toFixed(), code, locale),
    }),
    t("send-card-minimum", { minimum: money(q.minimum, code, locale) }),
  ];
  if (q.limitLeft !== undefined) {
    const left = money(q.limitLeft, limitCurrency(q.limitType), locale);
    lines.push(t(q.limitPeriod === "month" ? "send-card-limit-month" : "send-card-limit-day", { left }));
  }
  lines.push(
    "",
    t("send-card-check"),
    t("send-card-expires", { time: formatTime(action.expiresAt, locale) }),
  );
  return lines.join("\n");
}

/**
 * Both modes' withdrawal card, ending in its `check` line; a partner balance the exchange did not
 * give is left out.
 */
function withdrawCardText(
  t: Translate,
  action: WithdrawAction | PartnerWithdrawAction,
  locale: string,
  check: string,
): string {
  const q = action.quote;
  const lines = [
    t("withdraw-card-title"),
    "",
    t("withdraw-card-amount", { amount: money(action.amount, EUR, locale) }),
    t("withdraw-card-bank", {
      name: escapeHtml(userText(q.bankName)),
      iban: escapeHtml(q.bankIban),
    }),
    t("withdraw-card-reference", { reference: escapeHtml(action.referenceNumber) }),
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
    const left = money(q.limitLeft, limitCurrency(q.limitType), locale);
    lines.push(
      t(q.limitPeriod === "month" ? "withdraw-card-limit-month" : "withdraw-card-limit-day", { left }),
    );
  }
  lines.push("", t(check), t("withdraw-card-expires", { time: formatTime(action.expiresAt, locale) }));
  return lines.join("\n");
}

/** Why the exchange's numbers allow no quote, in the user's language. */
export function refusalText(t: Translate, refusal: QuoteRefusal, locale: string): string {
  const v = refusal.vars;
  // Worded by what the kind does: a partner kind's refusal reads as its account twin's.
  const { family, api } = kindOf(refusal.kind);
  const trade = family === "buy" || family === "sell";
  switch (refusal.reason) {
    case "closed":
      if (family === "buy") return t("trade-refused-closed-buy", { code: v.code ?? "" });
      if (family === "sell") return t("trade-refused-closed-sell", { code: v.code ?? "" });
      return t("send-refused-closed", { code: v.code ?? "" });
    case "minimum":
      return trade
        ? t("trade-refused-minimum", { minimum: money(v.minimum, v.currency ?? EUR, locale) })
        : t("send-refused-minimum", { minimum: money(v.minimum, v.currency ?? EUR, locale) });
    case "fee":
      return t("trade-refused-fee", { fee: money(v.fee, EUR, locale) });
    case "balance": {
      const currency = v.currency ?? EUR;
      if (family === "send") {
        return t("send-refused-balance", {
          balance: money(v.balance, currency, locale),
          total: money(v.total, currency, locale),
          fees: money(v.fees, currency, locale),
          most: money(v.most, currency, locale),
        });
      }
      if (family === "withdraw")
        return t("withdraw-refused-balance", { balance: money(v.balance, EUR, locale) });
      const vars = { balance: money(v.balance, currency, locale), needed: money(v.needed, currency, locale) };
      return family === "buy" ? t("trade-refused-balance-buy", vars) : t("trade-refused-balance-sell", vars);
    }
    case "limit": {
      const left = money(v.left, limitCurrency(v.type), locale);
      const month = v.period === "month";
      if (family === "send") {
        const vars = { value: money(v.value, EUR, locale), left };
        return month ? t("send-refused-limit-month", vars) : t("send-refused-limit-day", vars);
      }
      if (family === "withdraw") {
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
    case "address-unsaved":
      return t("safety-refused-unsaved", { code: (v.currency ?? "").toUpperCase() });
    case "address-cooling":
      return t("safety-refused-address-cooling", { time: formatMoment(Number(v.at), locale) });
    case "bank-cooling":
      return t("safety-refused-bank-cooling", { time: formatMoment(Number(v.at), locale) });
    case "own-limit":
      return t("safety-refused-own-limit", {
        cap: money(v.cap, v.currency ?? EUR, locale),
        left: money(v.left, v.currency ?? EUR, locale),
      });
    case "frozen":
      // Worded by what the kind does (its family) and by who can unfreeze (its API's mode).
      return t("freeze-refused", { family, mode: api });
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

/**
 * Every kind's card and buttons: one entry per kind of the orders' registry
 * (orders/kinds/index.ts), so a new kind is a compile error here until it has its card.
 */
const CARDS: { [K in ActionKind]: KindCard<K> } = {
  buy: {
    html: false,
    text: quoteCardText,
    buttons: TRADE_BUTTONS,
    outcome: summaryVars,
  },
  sell: {
    html: false,
    text: quoteCardText,
    buttons: TRADE_BUTTONS,
    outcome: summaryVars,
  },
  send: {
    html: true,
    text: sendCardText,
    buttons: { confirm: "send-button-confirm", cancel: "send-button-cancel" },
    outcome: (_t, action, locale) => ({
      amount: money(action.amount, action.currency, locale),
      address: escapeHtml(action.address),
    }),
  },
  withdraw: {
    html: true,
    text: (t, action, locale) => withdrawCardText(t, action, locale, "withdraw-card-check"),
    buttons: WITHDRAW_BUTTONS,
    outcome: withdrawVars,
  },
  "partner-buy": {
    html: false,
    text: partnerTradeCardText,
    buttons: TRADE_BUTTONS,
    outcome: summaryVars,
  },
  "partner-sell": {
    html: false,
    text: partnerTradeCardText,
    buttons: TRADE_BUTTONS,
    outcome: summaryVars,
  },
  "partner-withdraw": {
    html: true,
    text: (t, action, locale) => withdrawCardText(t, action, locale, "partner-withdraw-card-check"),
    buttons: WITHDRAW_BUTTONS,
    outcome: withdrawVars,
  },
};

/** Each kind's sentences, under the key its descriptor names (`words`): kinds that read alike share them. */
const WORDS: Record<CardWords, OrderWords> = {
  trade: TRADE_WORDS,
  send: SEND_WORDS,
  withdraw: WITHDRAW_WORDS,
  "partner-trade": PARTNER_TRADE_WORDS,
  "partner-withdraw": PARTNER_WITHDRAW_WORDS,
};

/** Every kind's sentences (a complete table: each descriptor names a key of {@link WORDS}). */
export const ORDER_WORDS = Object.fromEntries(
  ACTION_KINDS.map((kind) => [kind, WORDS[kindOf(kind).words]]),
) as Readonly<Record<ActionKind, OrderWords>>;

/**
 * A kind's sentences; a tap on an action the ledger does not know (no kind to read) hears a
 * trade's, the words every card's unknown tap has always had.
 */
export function wordsOf(kind: ActionKind | undefined): OrderWords {
  return kind === undefined ? TRADE_WORDS : ORDER_WORDS[kind];
}

/** The variables of a kind's outcome sentences (`placed`, `unknown`): what was ordered. */
export function outcomeVars(t: Translate, action: MoneyAction, locale: string): Record<string, string> {
  return outcomeAs(action.kind, t, action, locale);
}

function outcomeAs<K extends ActionKind>(kind: K, t: Translate, action: ActionOf<K>, locale: string) {
  const card: KindCard<K> = CARDS[kind];
  return card.outcome(t, action, locale);
}
