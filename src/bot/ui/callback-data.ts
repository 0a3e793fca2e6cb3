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
 * composer.callbackQuery(CALLBACK.price.pattern, (ctx) => show(ctx, CALLBACK.price.read(ctx).code));
 */

import { FEE_TYPES, type FeeType } from "../../exchange/schemas.ts";
import type { ChartRange } from "../../market/history.ts";

/**
 * One kind of callback data: `data(...)` packs it, `pattern` matches every data it can pack, and
 * `unpack` / `read` give its parts back as a typed object, checked (undefined when the data is not
 * this entry's): the one place that knows which group of the pattern is which.
 */
export interface CallbackEntry<A extends unknown[], T> {
  readonly prefix: string;
  readonly pattern: RegExp;
  readonly data: (...args: A) => string;
  readonly unpack: (data: string) => T | undefined;
  /**
   * The parts of the data a handler was registered for (`callbackQuery(entry.pattern, …)`): it
   * throws only when the handler was registered with another entry's pattern, a programming error.
   */
  readonly read: (ctx: { readonly match?: string | RegExpMatchArray | undefined }) => T;
}

/** The groups of a match, [1] the first: what an entry's `parts` turns into its typed object. */
type Groups = readonly (string | undefined)[];

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Data `prefix` followed by what `rest` (a regular expression's source) matches. */
function entry<A extends unknown[], T>(
  prefix: string,
  rest: string,
  data: (...args: A) => string,
  parts: (groups: Groups) => T | undefined,
): CallbackEntry<A, T> {
  const pattern = new RegExp(`^${literally(prefix)}${rest}$`);
  const unpack = (tapped: string): T | undefined => {
    const match = pattern.exec(tapped);
    return match === null ? undefined : parts(match);
  };
  return {
    prefix,
    pattern,
    data: (...args) => prefix + data(...args),
    unpack,
    read: (ctx) => {
      const tapped = typeof ctx.match === "object" ? ctx.match[0] : ctx.match;
      const read = tapped === undefined ? undefined : unpack(tapped);
      if (read === undefined) throw new Error(`callback data "${tapped}" is not ${prefix}…`);
      return read;
    },
  };
}

/** Data that is one fixed string. */
function fixed(data: string): CallbackEntry<[], Record<string, never>> {
  return entry(
    data,
    "",
    () => "",
    () => ({}),
  );
}

/** A group the pattern always fills (an optional group is read as `string | undefined`). */
const text = (group: string | undefined): string => group ?? "";
const int = (group: string | undefined): number => Number(group);
/** A group that is one of `values` (the pattern's alternatives), checked. */
function oneOf<const V extends string>(values: readonly V[], group: string | undefined): V | undefined {
  return values.find((value) => value === group);
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
const SIDES: readonly TradeSide[] = ["buy", "sell"];
export type NotificationKind = "alerts" | "orders" | "expiry" | "digest";
const NOTIFICATION_KINDS: readonly NotificationKind[] = ["alerts", "orders", "expiry", "digest"];
export type NotificationMode = "on" | "silent" | "off";
const MODE_CODES: Record<NotificationMode, string> = { on: "1", silent: "s", off: "0" };
const MODES_BY_CODE: Readonly<Record<string, NotificationMode>> = { "1": "on", s: "silent", "0": "off" };
export type HomeAction = "home" | "buy" | "sell" | "alerts" | "tx";
const HOME_ACTIONS: readonly HomeAction[] = ["home", "buy", "sell", "alerts", "tx"];
/** A statement's range: this month, last month, this year, last year, everything. */
export type ExportRange = "tm" | "lm" | "ty" | "ly" | "all";
const EXPORT_CHOICES: readonly (ExportRange | "menu")[] = ["menu", "tm", "lm", "ty", "ly", "all"];
export type ProfileField = "name" | "surname" | "phone" | "address";
const PROFILE_FIELDS: readonly ProfileField[] = ["name", "surname", "phone", "address"];
/**
 * A recurring plan's verbs: c confirm or x cancel its card, a pause, r resume (p: pause or resume,
 * on buttons shown before the two were told apart, read only), s skip the next run once (or undo),
 * k stop it (asks first), y yes, stop it for good, b keep it after all.
 */
export type PlanVerb = "c" | "x" | "a" | "r" | "s" | "k" | "y" | "b";
const PLAN_VERBS_READ: readonly (PlanVerb | "p")[] = ["c", "x", "p", "a", "r", "s", "k", "y", "b"];
export type OrderVerb = "c" | "e" | "x";
const ORDER_VERBS: readonly OrderVerb[] = ["c", "e", "x"];
const CHART_SPANS: readonly ChartRange[] = ["24h", "7d", "30d"];

/** A side and a currency picked for /buy or /sell, in either mode. */
const tradePick = (prefix: string) =>
  entry(
    prefix,
    `(buy|sell):(${CODE})`,
    (side: TradeSide, code: string) => `${side}:${code}`,
    (g) => {
      const side = oneOf(SIDES, g[1]);
      return side && { side, code: text(g[2]) };
    },
  );
/** A statement's range, or `menu` for the choice of ranges. */
const exportRange = (prefix: string) =>
  entry(
    prefix,
    "(menu|tm|lm|ty|ly|all)",
    (range: ExportRange | "menu") => range,
    (g) => {
      const range = oneOf(EXPORT_CHOICES, g[1]);
      return range && { range };
    },
  );
/** A page of a list and its currency filter (`*`: none). */
const pageAndTag = (prefix: string) =>
  entry(
    prefix,
    `${PAGE}:([a-z0-9]{1,12}|\\*)`,
    (page: number, tag: string) => `${page}:${tag}`,
    (g) => ({ page: int(g[1]), tag: text(g[2]) }),
  );
const page = (prefix: string) =>
  entry(
    prefix,
    PAGE,
    (page: number) => String(page),
    (g) => ({ page: int(g[1]) }),
  );
const partnerBank = (prefix: string) =>
  entry(
    prefix,
    "(\\d{1,15})",
    (id: number) => String(id),
    (g) => ({ id: int(g[1]) }),
  );
const onOff = (prefix: string) =>
  entry(
    prefix,
    "([01])",
    (on: boolean) => (on ? "1" : "0"),
    (g) => ({ on: g[1] === "1" }),
  );

export const CALLBACK = {
  /** /addresses: add one; remove the saved address `id`. */
  addressesAdd: fixed("adr:add"),
  addressRemove: entry(
    "adr:rm:",
    "([A-Za-z0-9_-]{8})",
    (id: string) => id,
    (g) => ({ id: text(g[1]) }),
  ),
  /** /safety (from /settings too): the screen; the allowlist on/off; the cooling-off hours. */
  safetyShow: fixed("sf:show"),
  safetyAllowlist: onOff("sf:al:"),
  safetyCooling: entry(
    "sf:h:",
    "(\\d{1,2})",
    (hours: number) => String(hours),
    (g) => ({ hours: int(g[1]) }),
  ),
  /** /safety: set a daily cap step by step (which cap, then the amount or off). */
  safetyCapPick: fixed("sf:cap"),
  /** The Log in button (keyboards.ts). */
  login: fixed("login"),
  /** Remove an alert `id`, `from` `rm` /alerts or `rx` the alert's own message. */
  alertRemove: entry(
    "alert:",
    "(rm|rx):([A-Za-z0-9_-]{1,16})",
    (id: string, from: "rm" | "rx" = "rm") => `${from}:${id}`,
    (g) => {
      const from = oneOf(["rm", "rx"], g[1]);
      return from && { from, id: text(g[2]) };
    },
  ),
  /**
   * A fired alert's Buy and Sell (alert-text.ts): the side, the code, the amount (none: the flow
   * asks for it). Both modes answer it with their own kinds (features/trade.ts, partner/trade.ts).
   */
  alertTrade: entry(
    "aq:",
    `(buy|sell):(${CODE})(?::(${AMOUNT}))?`,
    (side: TradeSide, code: string, amount?: string) =>
      amount === undefined ? `${side}:${code}` : `${side}:${code}:${amount}`,
    (g): { side: TradeSide; code: string; amount?: string } | undefined => {
      const side = oneOf(SIDES, g[1]);
      if (side === undefined) return undefined;
      return g[3] === undefined ? { side, code: text(g[2]) } : { side, code: text(g[2]), amount: g[3] };
    },
  ),
  /** /alerts: a new alert step by step (currency, above / below / change, the level). */
  alertNew: fixed("anew"),
  /** A fired alert's "Set another alert" for the currency `code` (features/alerts.ts). */
  alertAnother: entry(
    "an:",
    `(${CODE})`,
    (code: string) => code,
    (g) => ({ code: text(g[1]) }),
  ),
  /** The home card's buttons (flows/home.ts): what the tapping feature does. */
  home: entry(
    "go:",
    "(home|buy|sell|alerts|tx)",
    (action: HomeAction) => action,
    (g) => {
      const action = oneOf(HOME_ACTIONS, g[1]);
      return action && { action };
    },
  ),
  /** /transactions' Export (both modes): the range, `menu` for the choice of ranges. */
  txExport: exportRange("tx:x:"),
  /** The tax tool's file (ui/koinly-csv.ts): its ranges, then the file of the one picked. */
  txKoinly: exportRange("tx:k:"),
  /** A recurring plan's buttons (features/recurring.ts): the verb ({@link PlanVerb}), the plan's id. */
  plan: entry(
    "pl:",
    `([cxparskyb]):(${ORDER_ID})`,
    (verb: PlanVerb, id: string) => `${verb}:${id}`,
    (g) => {
      const verb = oneOf(PLAN_VERBS_READ, g[1]);
      return verb && { verb, id: text(g[2]) };
    },
  ),
  /** /recurring: a new plan step by step (features/recurring.ts, flows/plan-steps.ts). */
  planNew: fixed("rc:new"),
  /** A quote card's buttons: c confirm, e change amount, x cancel; the action id. */
  order: entry(
    "ord:",
    `([cex]):(${ORDER_ID})`,
    (verb: OrderVerb, id: string) => `${verb}:${id}`,
    (g) => {
      const verb = oneOf(ORDER_VERBS, g[1]);
      return verb && { verb, id: text(g[2]) };
    },
  ),
  /** A currency picked for /buy or /sell: the side, the code. */
  tradePick: tradePick("trade:p:"),
  /** The same in partner mode. */
  partnerTradePick: tradePick("ptrade:p:"),
  /** A currency picked for /price: the code. */
  price: entry(
    "price:",
    `(${CODE})`,
    (code: string) => code,
    (g) => ({ code: text(g[1]) }),
  ),
  /** A price chart's span, tapped under the picture: the code, the span (market/history.ts). */
  chart: entry(
    "chart:",
    `(${CODE}):(24h|7d|30d)`,
    (code: string, range: ChartRange) => `${code}:${range}`,
    (g) => {
      const range = oneOf(CHART_SPANS, g[2]);
      return range && { code: text(g[1]), range };
    },
  ),
  /** The /prices list's button: the top currencies in one chart. */
  pricesChart: fixed("topchart"),
  /** /fees: the type, the currency when picked. */
  feesPick: entry(
    "fees:pick:",
    `(buy|sell|send)(?::(${CODE}))?`,
    (type: FeeType, code?: string) => (code === undefined ? type : `${type}:${code}`),
    (g): { type: FeeType; code?: string } | undefined => {
      const type = oneOf(FEE_TYPES, g[1]);
      if (type === undefined) return undefined;
      return g[2] === undefined ? { type } : { type, code: g[2] };
    },
  ),
  banksAdd: fixed("banks:add"),
  banksRemove: fixed("banks:remove"),
  /** /deposit: show the QR of the `index`th address whose fingerprint is `fingerprint`. */
  depositQr: entry(
    "dep:qr:",
    "(\\d+):([\\w-]{8})",
    (index: number, fingerprint: string) => `${index}:${fingerprint}`,
    (g) => ({ index: int(g[1]), fingerprint: text(g[2]) }),
  ),
  depositNew: fixed("dep:new"),
  /** The new-address flow's currency picker: the code. */
  depositCurrency: entry(
    "dep:cur:",
    "([a-z0-9]+)",
    (code: string) => code,
    (g) => ({ code: text(g[1]) }),
  ),
  depositCancel: fixed("dep:cancel"),
  /** /transactions: the page, the currency filter (`*`: none). */
  txPage: pageAndTag("tx:p:"),
  /** /transactions' filter button, on page `page` with filter `tag`. */
  txFilter: pageAndTag("tx:f:"),
  /** /transactions' filter picked: the currency (`*`: all). */
  txSet: entry(
    "tx:s:",
    "([a-z0-9]{1,12}|\\*)",
    (tag: string) => tag,
    (g) => ({ tag: text(g[1]) }),
  ),
  /** Partner /transactions: the page. */
  partnerTxPage: page("ptx:"),
  /** The operator desk's /alltx: the page. */
  deskTxPage: page("atx:"),
  /** /settings: the language. */
  settingsLanguage: entry(
    "set:lang:",
    "([a-z]{2})",
    (locale: string) => locale,
    (g) => ({ locale: text(g[1]) }),
  ),
  /** /settings → notifications: notices of `kind` set to `mode` (data: 1 on, s silent, 0 off). */
  settingsNotify: entry(
    "set:n:",
    "(alerts|orders|expiry|digest):([01s])",
    (kind: NotificationKind, mode: NotificationMode) => `${kind}:${MODE_CODES[mode]}`,
    (g) => {
      const kind = oneOf(NOTIFICATION_KINDS, g[1]);
      const mode = MODES_BY_CODE[text(g[2])];
      return kind && mode && { kind, mode };
    },
  ),
  /** /settings: the notifications menu. */
  notifyMenu: fixed("set:nm"),
  /** Notifications: the digest at local `hour`. */
  notifyDigestHour: entry(
    "set:dh:",
    "(\\d{1,2})",
    (hour: number) => String(hour),
    (g) => ({ hour: int(g[1]) }),
  ),
  /** Notifications: quiet hours off (`hours` undefined), or from minute to minute of the local day. */
  notifyQuiet: entry(
    "set:qh:",
    "(?:off|(\\d{1,4})-(\\d{1,4}))",
    (hours?: { from: number; to: number }) => (hours === undefined ? "off" : `${hours.from}-${hours.to}`),
    (g): { hours: { from: number; to: number } | undefined } =>
      g[1] === undefined ? { hours: undefined } : { hours: { from: int(g[1]), to: int(g[2]) } },
  ),
  /** Notifications: quiet hours of one's own choosing, asked hour by hour. */
  notifyQuietPick: fixed("set:qp"),
  /** Notifications: change the time zone (asks for it). */
  notifyZone: fixed("set:tz"),
  /** /settings: remember the password, on or off (data 1, 0). */
  settingsRemember: onOff("set:pw:"),
  /** /settings: log out after `minutes` (0: never). */
  settingsAutoLogout: entry(
    "set:al:",
    "(\\d{1,3})",
    (minutes: number) => String(minutes),
    (g) => ({ minutes: int(g[1]) }),
  ),
  settingsPhraseSet: fixed("set:ph:how"),
  settingsPhraseRemove: fixed("set:ph:0"),
  /** /language: the locale. */
  language: entry(
    "language:",
    "(\\w+)",
    (locale: string) => locale,
    (g) => ({ locale: text(g[1]) }),
  ),
  /** Partner /profile: change `field`. */
  profileField: entry(
    "pf:",
    "(name|surname|phone|address)",
    (field: ProfileField) => field,
    (g) => {
      const field = oneOf(PROFILE_FIELDS, g[1]);
      return field && { field };
    },
  ),
  partnerBankAdd: fixed("pb:add"),
  /** Partner /banks: show, remove, really remove the bank account `id`. */
  partnerBankView: partnerBank("pb:v:"),
  partnerBankRemove: partnerBank("pb:r:"),
  partnerBankRemoveSure: partnerBank("pb:rr:"),
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
