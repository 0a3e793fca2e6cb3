/**
 * Every button's callback data, declared once: a name, its prefix, how its data is built and the
 * pattern that matches it. Features, flows and keyboards build and match data only through here,
 * so two features cannot pick overlapping prefixes unnoticed, and test/bot/ui/callback-data.test.ts
 * builds the longest data of every entry (largest ids and pages, longest codes) against Telegram's
 * 64-byte limit and every other entry's pattern.
 *
 * Data reads `<prefix><rest>`; a prefix ends with ":" unless the entry is one fixed string. The
 * buttons of a running flow (`FLOW_BUTTONS`) read `<prefix><nonce>:<action>` (flows/wait.ts,
 * `flowButtons`): the nonce ties a tap to the run that showed it (SECURITY.md, rule 8).
 *
 * @example
 * keyboard.text(t("price-button"), CALLBACK.price.data("btc"));
 * composer.callbackQuery(CALLBACK.price.pattern, (ctx) => show(ctx, ctx.match[1]));
 */

import type { FeeType } from "../../exchange/schemas.ts";
import type { ChartRange } from "../../market/history.ts";

/** One kind of callback data: `data(...)` builds it, `pattern` matches every data it can build. */
export interface CallbackEntry<A extends unknown[]> {
  readonly prefix: string;
  readonly pattern: RegExp;
  readonly data: (...args: A) => string;
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Data `prefix` followed by what `rest` (a regular expression's source) matches. */
function entry<A extends unknown[]>(
  prefix: string,
  rest: string,
  data: (...args: A) => string,
): CallbackEntry<A> {
  return {
    prefix,
    pattern: new RegExp(`^${literally(prefix)}${rest}$`),
    data: (...args) => prefix + data(...args),
  };
}

/** Data that is one fixed string. */
function fixed(data: string): CallbackEntry<[]> {
  return entry(data, "", () => "");
}

/** A currency code as the exchange lists it (lower case). */
const CODE = "[a-z0-9]{1,16}";
/** An order's id in the ledger (orders/ledger.ts: 12 random URL-safe characters). */
const ORDER_ID = "[A-Za-z0-9_-]{12}";
/** An amount a button carries (a decimal as money.ts writes it: dot, no exponent). */
const AMOUNT = "\\d{1,13}(?:\\.\\d{1,18})?";
/** A page of a paged list (paged-fields.ts and /transactions stop well before five digits). */
const PAGE = "(\\d{1,5})";

export type TradeSide = "buy" | "sell";
export type NotificationKind = "alerts" | "orders" | "expiry" | "digest";
export type NotificationMode = "on" | "silent" | "off";
const MODE_CODES: Record<NotificationMode, string> = { on: "1", silent: "s", off: "0" };
export type HomeAction = "home" | "buy" | "sell" | "alerts" | "tx";
/** A statement's range: this month, last month, this year, last year, everything. */
export type ExportRange = "tm" | "lm" | "ty" | "ly" | "all";
export type ProfileField = "name" | "surname" | "phone" | "address";

export const CALLBACK = {
  /** /addresses: add one; remove the saved address [1]. */
  addressesAdd: fixed("adr:add"),
  addressRemove: entry("adr:rm:", "([A-Za-z0-9_-]{8})", (id: string) => id),
  /** /safety (from /settings too): the screen; the allowlist [1] on/off; the cooling-off [1] hours. */
  safetyShow: fixed("sf:show"),
  safetyAllowlist: entry("sf:al:", "([01])", (on: boolean) => (on ? "1" : "0")),
  safetyCooling: entry("sf:h:", "(\\d{1,2})", (hours: number) => String(hours)),
  /** /safety: set a daily cap step by step (which cap, then the amount or off). */
  safetyCapPick: fixed("sf:cap"),
  /** The Log in button (keyboards.ts). */
  login: fixed("login"),
  /** Remove an alert: [1] `rm` from /alerts, `rx` from the alert's own message; [2] its id. */
  alertRemove: entry(
    "alert:",
    "(rm|rx):([A-Za-z0-9_-]{1,16})",
    (id: string, from: "rm" | "rx" = "rm") => `${from}:${id}`,
  ),
  /**
   * A fired alert's Buy and Sell (alert-text.ts): [1] the side, [2] the code, [3] the amount (none:
   * the flow asks for it). Both modes answer it with their own kinds (features/trade.ts, partner/trade.ts).
   */
  alertTrade: entry(
    "aq:",
    `(buy|sell):(${CODE})(?::(${AMOUNT}))?`,
    (side: TradeSide, code: string, amount?: string) =>
      amount === undefined ? `${side}:${code}` : `${side}:${code}:${amount}`,
  ),
  /** /alerts: a new alert step by step (currency, above / below / change, the level). */
  alertNew: fixed("anew"),
  /** A fired alert's "Set another alert" for the currency [1] (features/alerts.ts). */
  alertAnother: entry("an:", `(${CODE})`, (code: string) => code),
  /** The home card's buttons (flows/home.ts): [1] what the tapping feature does. */
  home: entry("go:", "(home|buy|sell|alerts|tx)", (action: HomeAction) => action),
  /** /transactions' Export (both modes): [1] the range, `menu` for the choice of ranges. */
  txExport: entry("tx:x:", "(menu|tm|lm|ty|ly|all)", (range: ExportRange | "menu") => range),
  /** The tax tool's file (ui/koinly-csv.ts): its ranges, then the file of the one picked. */
  txKoinly: entry("tx:k:", "(menu|tm|lm|ty|ly|all)", (range: ExportRange | "menu") => range),
  /**
   * A recurring plan's buttons (features/recurring.ts): [1] c confirm or x cancel its card, a pause,
   * r resume (p: pause or resume, on buttons shown before the two were told apart), s skip the next
   * run once (or undo), k stop it (asks first), y yes, stop it for good, b keep it after all; [2] the
   * plan's id.
   */
  plan: entry(
    "pl:",
    `([cxparskyb]):(${ORDER_ID})`,
    (verb: "c" | "x" | "a" | "r" | "s" | "k" | "y" | "b", id: string) => `${verb}:${id}`,
  ),
  /** /recurring: a new plan step by step (features/recurring.ts, flows/plan-steps.ts). */
  planNew: fixed("rc:new"),
  /** A quote card's buttons: [1] c confirm, e change amount, x cancel; [2] the action id. */
  order: entry("ord:", `([cex]):(${ORDER_ID})`, (verb: "c" | "e" | "x", id: string) => `${verb}:${id}`),
  /** A currency picked for /buy or /sell: [1] the side, [2] the code. */
  tradePick: entry("trade:p:", `(buy|sell):(${CODE})`, (side: TradeSide, code: string) => `${side}:${code}`),
  /** The same in partner mode. */
  partnerTradePick: entry(
    "ptrade:p:",
    `(buy|sell):(${CODE})`,
    (side: TradeSide, code: string) => `${side}:${code}`,
  ),
  /** A currency picked for /price: [1] the code. */
  price: entry("price:", `(${CODE})`, (code: string) => code),
  /** A price chart's span, tapped under the picture: [1] the code, [2] the span (market/history.ts). */
  chart: entry("chart:", `(${CODE}):(24h|7d|30d)`, (code: string, range: ChartRange) => `${code}:${range}`),
  /** The /prices list's button: the top currencies in one chart. */
  pricesChart: fixed("topchart"),
  /** /fees: [1] the type, [2] the currency when picked. */
  feesPick: entry("fees:pick:", `(buy|sell|send)(?::(${CODE}))?`, (type: FeeType, code?: string) =>
    code === undefined ? type : `${type}:${code}`,
  ),
  banksAdd: fixed("banks:add"),
  banksRemove: fixed("banks:remove"),
  /** /deposit: show the QR of the [1]th address whose fingerprint is [2]. */
  depositQr: entry(
    "dep:qr:",
    "(\\d+):([\\w-]{8})",
    (index: number, fingerprint: string) => `${index}:${fingerprint}`,
  ),
  depositNew: fixed("dep:new"),
  /** The new-address flow's currency picker: [1] the code. */
  depositCurrency: entry("dep:cur:", "([a-z0-9]+)", (code: string) => code),
  depositCancel: fixed("dep:cancel"),
  /** /transactions: [1] the page, [2] the currency filter (`*`: none). */
  txPage: entry("tx:p:", `${PAGE}:([a-z0-9]{1,12}|\\*)`, (page: number, tag: string) => `${page}:${tag}`),
  /** /transactions' filter button, on page [1] with filter [2]. */
  txFilter: entry("tx:f:", `${PAGE}:([a-z0-9]{1,12}|\\*)`, (page: number, tag: string) => `${page}:${tag}`),
  /** /transactions' filter picked: [1] the currency (`*`: all). */
  txSet: entry("tx:s:", "([a-z0-9]{1,12}|\\*)", (tag: string) => tag),
  /** Partner /transactions: [1] the page. */
  partnerTxPage: entry("ptx:", PAGE, (page: number) => String(page)),
  /** The operator desk's /alltx: [1] the page. */
  deskTxPage: entry("atx:", PAGE, (page: number) => String(page)),
  /** /settings: [1] the language. */
  settingsLanguage: entry("set:lang:", "([a-z]{2})", (locale: string) => locale),
  /** /settings → notifications: notices of kind [1] set to [2] (1 on, s silent, 0 off). */
  settingsNotify: entry(
    "set:n:",
    "(alerts|orders|expiry|digest):([01s])",
    (kind: NotificationKind, mode: NotificationMode) => `${kind}:${MODE_CODES[mode]}`,
  ),
  /** /settings: the notifications menu. */
  notifyMenu: fixed("set:nm"),
  /** Notifications: the digest at local hour [1]. */
  notifyDigestHour: entry("set:dh:", "(\\d{1,2})", (hour: number) => String(hour)),
  /** Notifications: quiet hours off, or from minute [1] to minute [2] of the local day. */
  notifyQuiet: entry("set:qh:", "(?:off|(\\d{1,4})-(\\d{1,4}))", (hours?: { from: number; to: number }) =>
    hours === undefined ? "off" : `${hours.from}-${hours.to}`,
  ),
  /** Notifications: quiet hours of one's own choosing, asked hour by hour. */
  notifyQuietPick: fixed("set:qp"),
  /** Notifications: change the time zone (asks for it). */
  notifyZone: fixed("set:tz"),
  /** /settings: remember the password, [1] 1 on, 0 off. */
  settingsRemember: entry("set:pw:", "([01])", (on: boolean) => (on ? "1" : "0")),
  /** /settings: log out after [1] minutes (0: never). */
  settingsAutoLogout: entry("set:al:", "(\\d{1,3})", (minutes: number) => String(minutes)),
  settingsPhraseSet: fixed("set:ph:how"),
  settingsPhraseRemove: fixed("set:ph:0"),
  /** /language: [1] the locale. */
  language: entry("language:", "(\\w+)", (locale: string) => locale),
  /** Partner /profile: change field [1]. */
  profileField: entry("pf:", "(name|surname|phone|address)", (field: ProfileField) => field),
  partnerBankAdd: fixed("pb:add"),
  /** Partner /banks: show, remove, really remove the bank account [1]. */
  partnerBankView: entry("pb:v:", "(\\d{1,15})", (id: number) => String(id)),
  partnerBankRemove: entry("pb:r:", "(\\d{1,15})", (id: number) => String(id)),
  partnerBankRemoveSure: entry("pb:rr:", "(\\d{1,15})", (id: number) => String(id)),
  partnerBankKeep: fixed("pb:k"),
  /** A security notice's Freeze (features/freeze.ts): every money action stops, no code asked. */
  freeze: fixed("frz"),
} as const;

export type CallbackName = keyof typeof CALLBACK;

/** The Change amount button alone (buy and sell cards): [1] the action id. */
export const ORDER_CHANGE = new RegExp(`^${literally(CALLBACK.order.prefix)}e:(${ORDER_ID})$`);

/**
 * A running flow's buttons: `own(nonce)` starts this run's data, each action is what follows it,
 * `pattern` matches the flow's data of any run (a stale button of a run that is over included).
 */
export interface FlowButtons<Actions extends Record<string, (...args: never[]) => string>> {
  readonly prefix: string;
  readonly pattern: RegExp;
  readonly own: (nonce: string) => string;
  readonly actions: Actions;
}

/** A flow's nonce (flows/wait.ts `flowNonce`: eight base-36 digits). */
export const FLOW_NONCE_LENGTH = 8;

function flow<Actions extends Record<string, (...args: never[]) => string>>(
  name: string,
  actions: Actions,
): FlowButtons<Actions> {
  const prefix = `${name}:`;
  return {
    prefix,
    pattern: new RegExp(`^${literally(prefix)}`),
    own: (nonce) => `${prefix}${nonce}:`,
    actions,
  };
}

/** A bank account picked in /withdraw and partner /withdraw (flows/bank-pick.ts): verified `b`, pending `p`. */
export const BANK_PICK = {
  bank: (id: number, verified: boolean) => `${verified ? "b" : "p"}:${id}`,
};
/** Matches a {@link BANK_PICK} action at the end of a flow's data: [1] the bank account's id. */
export const BANK_PICKED = /:[bp]:(\d+)$/;

export const FLOW_BUTTONS = {
  send: flow("snd", {
    currency: (code: string) => `cur:${code}`,
    /** A saved address (safety/saved-addresses.ts: 8 URL-safe characters). */
    saved: (id: string) => `a:${id}`,
    save: () => "save",
    once: () => "once",
  }),
  withdraw: flow("wd", BANK_PICK),
  partnerWithdraw: flow("pwd", BANK_PICK),
  banks: flow("bk", {
    add: () => "add",
    no: () => "no",
    remove: (id: number) => `rm:${id}`,
    removeSure: (id: number) => `rmok:${id}`,
  }),
  signup: flow("signup", { agree: () => "agree", decline: () => "decline" }),
  /** /addresses add: the currency. */
  addresses: flow("adf", { currency: (code: string) => `cur:${code}` }),
  /** A new recurring plan, step by step (flows/plan-steps.ts). */
  recurring: flow("rcf", {
    currency: (code: string) => `cur:${code}`,
    every: (every: "day" | "week" | "month") => `e:${every}`,
    weekday: (weekday: number) => `w:${weekday}`,
    day: (day: number | "last") => `d:${day}`,
    hour: (hour: number) => `h:${hour}`,
    end: (end: "none" | "runs" | "until") => `end:${end}`,
  }),
  /** A new price alert, step by step (features/alerts.ts). */
  alert: flow("alf", {
    currency: (code: string) => `cur:${code}`,
    kind: (kind: "above" | "below" | "change") => `k:${kind}`,
  }),
  /** A daily cap of /safety, step by step: which cap (`send` asks the crypto), then amount or off. */
  safetyCap: flow("scf", {
    cap: (cap: "withdraw" | "buy" | "sell" | "send") => `c:${cap}`,
    off: () => "off",
  }),
  /** Quiet hours of one's own choosing: from, to (whole hours), or none. */
  quiet: flow("qhf", {
    from: (hour: number) => `f:${hour}`,
    to: (hour: number) => `t:${hour}`,
    off: () => "off",
  }),
} as const;

export type FlowButtonsName = keyof typeof FLOW_BUTTONS;

/** Matches the end of a /banks remove-flow tap on a bank account: [1] its id (`remove`, not `removeSure`). */
export const BANK_REMOVE_PICKED = /:rm:(\d+)$/;
