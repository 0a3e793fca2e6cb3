/**
 * The callback-data registry (src/bot/ui/callback-data.ts): every button's data is declared there
 * once. Here, for every entry, the longest data a feature can build (largest ids and pages, longest
 * currency codes, the flows' nonces) fits Telegram's 64 bytes, is matched by its own pattern and by
 * no other entry's, and no prefix starts another; and no feature writes data of its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../../src/bot/i18n.ts";
import {
  BANK_PICK,
  BANK_PICKED,
  BANK_REMOVE_PICKED,
  CALLBACK,
  type CallbackName,
  FLOW_BUTTONS,
  FLOW_NONCE_LENGTH,
  type FlowButtonsName,
  ORDER_CHANGE,
} from "../../../src/bot/ui/callback-data.ts";
import { AUTO_LOGOUT_CHOICES } from "../../../src/session/profiles.ts";

/** Telegram's limit on callback_data (Bot API, InlineKeyboardButton): 1-64 bytes. */
const TELEGRAM_LIMIT = 64;

/** The longest currency code the patterns take; the exchange's are 3-5 letters. */
const CODE = "z".repeat(16);
/** The longest code /transactions and /deposit keep (their own filter: 12). */
const CODE_12 = "z".repeat(12);
/** An order id (orders/ledger.ts: 12 URL-safe characters), an alert id (6 random bytes, base64url: 8). */
const ORDER_ID = "A".repeat(12);
const ALERT_ID = "_".repeat(16);
/** The largest page the patterns take (five digits; the features stop at 10,001). */
const PAGE = 99_999;
/** Bank account ids: the exchange's are numbers; the largest JavaScript keeps exactly. */
const BANK_ID = Number.MAX_SAFE_INTEGER;
const PARTNER_BANK_ID = 999_999_999_999_999;
const LONGEST_LOCALE = [...SUPPORTED_LOCALES].sort((a, b) => b.length - a.length)[0] ?? "en";
const LONGEST_MINUTES = Math.max(...AUTO_LOGOUT_CHOICES);

type Args<K extends CallbackName> = Parameters<(typeof CALLBACK)[K]["data"]>;
type Parts<K extends CallbackName> = NonNullable<ReturnType<(typeof CALLBACK)[K]["unpack"]>>;

/** What each entry is built from: its widest arguments first, then the others it is built with. */
const BUILT: { [K in CallbackName]: Args<K>[] } = {
  login: [[]],
  alertRemove: [
    [ALERT_ID, "rx"],
    [ALERT_ID, "rm"],
    ["a", undefined],
  ],
  alertTrade: [
    ["sell", CODE, `${"9".repeat(13)}.${"9".repeat(18)}`],
    ["buy", "btc", "50"],
    ["sell", "eth", undefined],
  ],
  alertAnother: [[CODE], ["btc"]],
  home: [["alerts"], ["home"], ["buy"], ["sell"], ["tx"]],
  txExport: [["menu"], ["tm"], ["lm"], ["ty"], ["ly"], ["all"]],
  txKoinly: [["menu"], ["tm"], ["lm"], ["ty"], ["ly"], ["all"]],
  plan: [
    ["k", ORDER_ID],
    ["c", ORDER_ID],
    ["x", ORDER_ID],
    ["a", ORDER_ID],
    ["r", ORDER_ID],
    ["s", ORDER_ID],
    ["y", ORDER_ID],
    ["b", ORDER_ID],
  ],
  order: [
    ["c", "-".repeat(12)],
    ["e", ORDER_ID],
    ["x", ORDER_ID],
  ],
  tradePick: [
    ["sell", CODE],
    ["buy", "btc"],
  ],
  partnerTradePick: [
    ["sell", CODE],
    ["buy", "btc"],
  ],
  price: [[CODE], ["x"]],
  chart: [
    [CODE, "30d"],
    ["btc", "24h"],
    ["x", "7d"],
  ],
  pricesChart: [[]],
  feesPick: [["send", CODE], ["sell"], ["buy", "btc"]],
  banksAdd: [[]],
  banksRemove: [[]],
  depositQr: [
    [9_999, "abcd-_12"],
    [0, "abcdefgh"],
  ],
  depositNew: [[]],
  depositCurrency: [[CODE_12], ["btc"]],
  depositCancel: [[]],
  txPage: [
    [PAGE, CODE_12],
    [0, "*"],
  ],
  txFilter: [
    [PAGE, CODE_12],
    [0, "*"],
  ],
  txSet: [[CODE_12], ["*"]],
  partnerTxPage: [[PAGE], [0]],
  deskTxPage: [[PAGE], [0]],
  settingsLanguage: [[LONGEST_LOCALE], ["de"]],
  settingsNotify: [
    ["expiry", "on"],
    ["alerts", "off"],
    ["orders", "silent"],
    ["digest", "silent"],
  ],
  notifyMenu: [[]],
  notifyDigestHour: [[23], [0]],
  notifyQuiet: [[{ from: 1439, to: 1380 }], [undefined]],
  notifyZone: [[]],
  settingsRemember: [[true], [false]],
  settingsAutoLogout: [[LONGEST_MINUTES], [0]],
  settingsPhraseSet: [[]],
  settingsPhraseRemove: [[]],
  language: [[LONGEST_LOCALE], ["en"]],
  profileField: [["address"], ["name"], ["surname"], ["phone"]],
  partnerBankAdd: [[]],
  partnerBankView: [[PARTNER_BANK_ID], [1]],
  partnerBankRemove: [[PARTNER_BANK_ID], [1]],
  partnerBankRemoveSure: [[PARTNER_BANK_ID], [1]],
  partnerBankKeep: [[]],
  addressesAdd: [[]],
  addressRemove: [["_".repeat(8)], ["abcdefgh"]],
  safetyShow: [[]],
  safetyAllowlist: [[true], [false]],
  safetyCooling: [[72], [1]],
  safetyCapPick: [[]],
  alertNew: [[]],
  planNew: [[]],
  notifyQuietPick: [[]],
  freeze: [[]],
};

/** Each entry's typed parts turned back into the arguments it packs: the round trip of every prefix. */
const REPACK: { [K in CallbackName]: (parts: Parts<K>) => Args<K> } = {
  login: () => [],
  alertRemove: (p) => [p.id, p.from],
  alertTrade: (p) => [p.side, p.code, p.amount],
  alertAnother: (p) => [p.code],
  home: (p) => [p.action],
  txExport: (p) => [p.range],
  txKoinly: (p) => [p.range],
  plan: (p) => [p.verb === "p" ? "a" : p.verb, p.id],
  order: (p) => [p.verb, p.id],
  tradePick: (p) => [p.side, p.code],
  partnerTradePick: (p) => [p.side, p.code],
  price: (p) => [p.code],
  chart: (p) => [p.code, p.range],
  pricesChart: () => [],
  feesPick: (p) => [p.type, p.code],
  banksAdd: () => [],
  banksRemove: () => [],
  depositQr: (p) => [p.index, p.fingerprint],
  depositNew: () => [],
  depositCurrency: (p) => [p.code],
  depositCancel: () => [],
  txPage: (p) => [p.page, p.tag],
  txFilter: (p) => [p.page, p.tag],
  txSet: (p) => [p.tag],
  partnerTxPage: (p) => [p.page],
  deskTxPage: (p) => [p.page],
  settingsLanguage: (p) => [p.locale],
  settingsNotify: (p) => [p.kind, p.mode],
  notifyMenu: () => [],
  notifyDigestHour: (p) => [p.hour],
  notifyQuiet: (p) => [p.hours],
  notifyZone: () => [],
  settingsRemember: (p) => [p.on],
  settingsAutoLogout: (p) => [p.minutes],
  settingsPhraseSet: () => [],
  settingsPhraseRemove: () => [],
  language: (p) => [p.locale],
  profileField: (p) => [p.field],
  partnerBankAdd: () => [],
  partnerBankView: (p) => [p.id],
  partnerBankRemove: (p) => [p.id],
  partnerBankRemoveSure: (p) => [p.id],
  partnerBankKeep: () => [],
  addressesAdd: () => [],
  addressRemove: (p) => [p.id],
  safetyShow: () => [],
  safetyAllowlist: (p) => [p.on],
  safetyCooling: (p) => [p.hours],
  safetyCapPick: () => [],
  alertNew: () => [],
  planNew: () => [],
  notifyQuietPick: () => [],
  freeze: () => [],
};

/** A nonce as long as flowNonce makes them, and each flow's actions with their widest arguments. */
const NONCE = "z".repeat(FLOW_NONCE_LENGTH);
const FLOW_ACTIONS: { [K in FlowButtonsName]: string[] } = {
  send: [
    FLOW_BUTTONS.send.actions.currency(CODE),
    FLOW_BUTTONS.send.actions.currency("btc"),
    FLOW_BUTTONS.send.actions.saved("_".repeat(8)),
    FLOW_BUTTONS.send.actions.save(),
    FLOW_BUTTONS.send.actions.once(),
  ],
  addresses: [FLOW_BUTTONS.addresses.actions.currency(CODE), FLOW_BUTTONS.addresses.actions.currency("btc")],
  withdraw: [BANK_PICK.bank(BANK_ID, false), BANK_PICK.bank(1, true)],
  partnerWithdraw: [BANK_PICK.bank(BANK_ID, true), BANK_PICK.bank(1, false)],
  banks: [
    FLOW_BUTTONS.banks.actions.removeSure(BANK_ID),
    FLOW_BUTTONS.banks.actions.remove(BANK_ID),
    FLOW_BUTTONS.banks.actions.add(),
    FLOW_BUTTONS.banks.actions.no(),
  ],
  signup: [FLOW_BUTTONS.signup.actions.decline(), FLOW_BUTTONS.signup.actions.agree()],
  recurring: [
    FLOW_BUTTONS.recurring.actions.currency(CODE),
    FLOW_BUTTONS.recurring.actions.every("month"),
    FLOW_BUTTONS.recurring.actions.weekday(6),
    FLOW_BUTTONS.recurring.actions.day("last"),
    FLOW_BUTTONS.recurring.actions.day(28),
    FLOW_BUTTONS.recurring.actions.hour(23),
    FLOW_BUTTONS.recurring.actions.end("until"),
  ],
  alert: [FLOW_BUTTONS.alert.actions.currency(CODE), FLOW_BUTTONS.alert.actions.kind("change")],
  safetyCap: [FLOW_BUTTONS.safetyCap.actions.cap("withdraw"), FLOW_BUTTONS.safetyCap.actions.off()],
  quiet: [
    FLOW_BUTTONS.quiet.actions.from(23),
    FLOW_BUTTONS.quiet.actions.to(0),
    FLOW_BUTTONS.quiet.actions.off(),
  ],
};

interface Built {
  owner: string;
  data: string;
}

const names = Object.keys(CALLBACK) as CallbackName[];
const flowNames = Object.keys(FLOW_BUTTONS) as FlowButtonsName[];

function built(): Built[] {
  const out: Built[] = [];
  for (const name of names) {
    const data = CALLBACK[name].data as (...args: unknown[]) => string;
    for (const args of BUILT[name] as unknown[][]) out.push({ owner: name, data: data(...args) });
  }
  for (const name of flowNames)
    for (const action of FLOW_ACTIONS[name])
      out.push({ owner: `flow ${name}`, data: FLOW_BUTTONS[name].own(NONCE) + action });
  return out;
}

/** Every pattern, by owner (the flows' patterns match any data of the flow, stale runs included). */
const patterns: { owner: string; prefix: string; pattern: RegExp }[] = [
  ...names.map((name) => ({ owner: name, prefix: CALLBACK[name].prefix, pattern: CALLBACK[name].pattern })),
  ...flowNames.map((name) => ({
    owner: `flow ${name}`,
    prefix: FLOW_BUTTONS[name].prefix,
    pattern: FLOW_BUTTONS[name].pattern,
  })),
];

describe("the callback-data registry", () => {
  it("fits Telegram's 64 bytes with the longest data every entry can build", () => {
    const over = built()
      .filter(({ data }) => Buffer.byteLength(data, "utf8") > TELEGRAM_LIMIT)
      .map(({ owner, data }) => `${owner}: ${data} (${Buffer.byteLength(data)} bytes)`);
    expect(over).toEqual([]);
    // The widest data has room to spare: the longest is named so a change that eats it shows here.
    const longest = Math.max(...built().map(({ data }) => Buffer.byteLength(data)));
    expect(longest).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(longest).toBeGreaterThan(20);
  });

  it("matches every data an entry builds with that entry's own pattern, starting with its prefix", () => {
    for (const { owner, data } of built()) {
      const own = patterns.find((p) => p.owner === owner);
      expect(own?.pattern.test(data), `${owner}: ${data}`).toBe(true);
      expect(data.startsWith(own?.prefix ?? "\u0000"), `${owner}: ${data}`).toBe(true);
    }
  });

  it("no two entries overlap: no other pattern matches an entry's data, no prefix starts another", () => {
    const crossed = built().flatMap(({ owner, data }) =>
      patterns
        .filter((p) => p.owner !== owner && p.pattern.test(data))
        .map((p) => `${p.owner} takes ${owner}'s ${data}`),
    );
    expect(crossed).toEqual([]);
    const prefixes = patterns.flatMap((a) =>
      patterns
        .filter((b) => a !== b && b.prefix.startsWith(a.prefix))
        .map((b) => `${a.prefix} starts ${b.prefix}`),
    );
    expect(prefixes).toEqual([]);
    expect(new Set(patterns.map((p) => p.prefix)).size).toBe(patterns.length);
  });

  it("reads back what it built: the patterns' groups are the arguments", () => {
    expect(CALLBACK.order.pattern.exec(CALLBACK.order.data("e", ORDER_ID))?.slice(1)).toEqual([
      "e",
      ORDER_ID,
    ]);
    expect(ORDER_CHANGE.exec(CALLBACK.order.data("e", ORDER_ID))?.[1]).toBe(ORDER_ID);
    expect(ORDER_CHANGE.test(CALLBACK.order.data("c", ORDER_ID))).toBe(false);
    expect(CALLBACK.txPage.pattern.exec(CALLBACK.txPage.data(PAGE, "*"))?.slice(1)).toEqual([
      String(PAGE),
      "*",
    ]);
    expect(CALLBACK.feesPick.pattern.exec(CALLBACK.feesPick.data("buy"))?.slice(1)).toEqual([
      "buy",
      undefined,
    ]);
    // Menus sent before the modes carry 1 and 0: they still read as on and off.
    expect(CALLBACK.settingsNotify.data("alerts", "off")).toBe("set:n:alerts:0");
    expect(CALLBACK.settingsNotify.data("alerts", "on")).toBe("set:n:alerts:1");
    expect(
      CALLBACK.notifyQuiet.pattern.exec(CALLBACK.notifyQuiet.data({ from: 1320, to: 420 }))?.slice(1),
    ).toEqual(["1320", "420"]);
    const own = FLOW_BUTTONS.withdraw.own(NONCE);
    expect(BANK_PICKED.exec(own + BANK_PICK.bank(BANK_ID, false))?.[1]).toBe(String(BANK_ID));
    const banks = FLOW_BUTTONS.banks.own(NONCE);
    expect(BANK_REMOVE_PICKED.exec(banks + FLOW_BUTTONS.banks.actions.remove(42))?.[1]).toBe("42");
    expect(BANK_REMOVE_PICKED.test(banks + FLOW_BUTTONS.banks.actions.removeSure(42))).toBe(false);
  });
});

describe("each prefix's typed helper", () => {
  it("unpacks every data it packs into parts that pack the same data again, byte for byte", () => {
    for (const name of names) {
      const entry = CALLBACK[name] as unknown as {
        data: (...args: unknown[]) => string;
        unpack: (data: string) => object | undefined;
        read: (ctx: { match: RegExpMatchArray | string | undefined }) => object;
        pattern: RegExp;
      };
      const repack = REPACK[name] as (parts: object) => unknown[];
      for (const args of BUILT[name] as unknown[][]) {
        const data = entry.data(...args);
        const parts = entry.unpack(data);
        expect(parts, `${name}: ${data}`).toBeDefined();
        expect(entry.data(...repack(parts ?? {})), `${name}: ${data}`).toBe(data);
        // A handler's ctx.match is its pattern's match: read gives the same parts.
        expect(entry.read({ match: entry.pattern.exec(data) ?? undefined })).toEqual(parts);
      }
    }
  });

  it("gives the typed parts a handler reads", () => {
    expect(CALLBACK.order.unpack(CALLBACK.order.data("e", ORDER_ID))).toEqual({ verb: "e", id: ORDER_ID });
    expect(CALLBACK.alertTrade.unpack("aq:sell:eth")).toEqual({ side: "sell", code: "eth" });
    expect(CALLBACK.alertTrade.unpack("aq:buy:btc:50")).toEqual({ side: "buy", code: "btc", amount: "50" });
    expect(CALLBACK.txPage.unpack("tx:p:3:*")).toEqual({ page: 3, tag: "*" });
    expect(CALLBACK.feesPick.unpack("fees:pick:buy")).toEqual({ type: "buy" });
    expect(CALLBACK.settingsNotify.unpack("set:n:alerts:s")).toEqual({ kind: "alerts", mode: "silent" });
    expect(CALLBACK.notifyQuiet.unpack("set:qh:off")).toEqual({ hours: undefined });
    expect(CALLBACK.notifyQuiet.unpack("set:qh:1320-420")).toEqual({ hours: { from: 1320, to: 420 } });
    expect(CALLBACK.safetyAllowlist.unpack("sf:al:0")).toEqual({ on: false });
    // A plan's old combined pause-or-resume button still reads.
    expect(CALLBACK.plan.unpack(`pl:p:${ORDER_ID}`)).toEqual({ verb: "p", id: ORDER_ID });
  });

  it("reads no other entry's data, and refuses a handler registered with another pattern", () => {
    for (const { owner, data } of built()) {
      for (const name of names.filter((n) => n !== owner)) {
        expect(CALLBACK[name].unpack(data), `${name} read ${owner}'s ${data}`).toBeUndefined();
      }
    }
    expect(() =>
      CALLBACK.price.read({ match: CALLBACK.order.pattern.exec(`ord:c:${ORDER_ID}`) ?? undefined }),
    ).toThrow();
  });
});

describe("callback data outside the registry", () => {
  const BOT = fileURLToPath(new URL("../../../src/bot", import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(join(dir, entry.name))
        : entry.name.endsWith(".ts")
          ? [join(dir, entry.name)]
          : [],
    );

  it("is written nowhere: no feature matches a literal pattern or builds `prefix:` data by hand", () => {
    const handWritten = files(BOT)
      .filter((file) => !file.endsWith("callback-data.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ line, where: `${file.slice(BOT.length + 1)}:${index + 1}` }))
          .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line))
          .filter(
            ({ line }) =>
              /callbackQuery\(\s*["'`/]/.test(line) ||
              /\.text\([^)]*,\s*["'`][a-z]+:/.test(line) ||
              /taps:\s*\//.test(line),
          )
          .map(({ where, line }) => `${where}: ${line.trim()}`),
      );
    expect(handWritten).toEqual([]);
  });
});
