/**
 * No raw codes, no English in German screens, no notes to ourselves.
 * Each screen is driven in both languages and its text asserted; the units below them check the
 * shared formatters every screen uses.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSafetyCommand } from "../../../src/bot/features/safety.ts";
import { createI18n } from "../../../src/bot/i18n.ts";
import { fieldLines } from "../../../src/bot/ui/fields.ts";
import { readKyc } from "../../../src/bot/ui/kyc-status.ts";
import { planLine } from "../../../src/bot/ui/plan-text.ts";
import { securityNotice } from "../../../src/bot/ui/security-notice.ts";
import { transactionItemLines } from "../../../src/bot/ui/transaction-text.ts";
import { parseTimeZone } from "../../../src/domain/time-zone.ts";
import { readTransactionItem } from "../../../src/exchange/partner-read.ts";
import type { Plan } from "../../../src/plans/book.ts";
import { Profiles } from "../../../src/session/profiles.ts";
import { openStore } from "../../../src/store/open-store.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { liveCard } from "../../orders/helpers.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
const tOf = (locale: string) => (key: string, vars?: Record<string, string | number>) =>
  i18n.t(locale, key, vars);
/** Intl writes a no-break space before "€" and "%" in German; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ").replace(/<\/?b>/g, "");
/** A code of the exchange's vocabulary (`not_required`, `fiat_withdraw`) or a pair code. */
const RAW_CODE = /\b[a-z]+_[a-z_]+\b|\bbtceur\b/;

describe("coded values are worded, in both languages (ui/fields.ts, ui/coded-values.ts)", () => {
  const user = {
    name: "Ada",
    surname: "Lovelace",
    status: "active",
    kyc_status: "passed",
    edd_status: "not_required",
    date_of_birth: "1990-11-29",
  };

  it("words a partner user's status, identity check and enhanced check, and labels the first name", () => {
    const en = plain(
      fieldLines(tOf("en"), user, "en", { labels: { name: "fields-label-first-name" } }).join("\n"),
    );
    expect(en).toContain("First name: Ada");
    expect(en).toContain("Status: active");
    expect(en).toContain("Identity check: passed");
    expect(en).toContain("Enhanced due diligence: not needed");
    expect(en).toContain("Nov 29, 1990");
    const de = plain(
      fieldLines(tOf("de"), user, "de", { labels: { name: "fields-label-first-name" } }).join("\n"),
    );
    expect(de).toContain("Vorname: Ada");
    expect(de).toContain("Status: aktiv");
    expect(de).toContain("Identitätsprüfung: bestanden");
    expect(de).toContain("Erweiterte Prüfung: nicht nötig");
    expect(de).toContain("29.11.1990");
    for (const text of [en, de]) {
      expect(text).not.toMatch(RAW_CODE);
      expect(text).not.toMatch(/: (active|passed)\b.*\n.*aktiv/);
      expect(text).not.toContain("1990-11-29");
    }
  });

  it("gives a value nobody knows a neutral word, never its code", () => {
    const item = { status: "under_review_by_compliance", state: "archived", type: "staking_reward" };
    expect(fieldLines(tOf("en"), item, "en")).toEqual([
      "<b>Status</b>: unknown",
      "<b>State</b>: unknown",
      "<b>Type</b>: other",
    ]);
    expect(fieldLines(tOf("de"), item, "de")).toEqual([
      "<b>Status</b>: unbekannt",
      "<b>Zustand</b>: unbekannt",
      "<b>Art</b>: andere",
    ]);
  });

  it("words a bank account's state, a transaction's kind, a pair and a currency", () => {
    const item = { state: "verified", type: "fiat_withdraw", pair: "btceur", currency_code: "btc" };
    expect(fieldLines(tOf("en"), item, "en")).toEqual([
      "<b>State</b>: verified",
      "<b>Type</b>: Euro withdrawal",
      "<b>Pair</b>: BTC/EUR",
      "<b>Currency</b>: BTC",
    ]);
    expect(fieldLines(tOf("de"), item, "de")).toEqual([
      "<b>Zustand</b>: verifiziert",
      "<b>Art</b>: Euro-Auszahlung",
      "<b>Paar</b>: BTC/EUR",
      "<b>Währung</b>: BTC",
    ]);
  });

  it("shows a partner transaction row (the desk's /alltx, /transactions) with its kind and the amount in its currency", () => {
    // The sandbox's partner row of a €100 buy: `amount` is the euros paid, `currency_code` the crypto.
    const buy = {
      id: 7,
      state: "success",
      transaction_type: "buy_crypto",
      created_at: "2026-11-29T10:00:00.000",
      currency_code: "btc",
      amount: "100.00",
      pair: "btceur",
      user_id: 42,
    };
    const en = plain(
      transactionItemLines(tOf("en"), readTransactionItem(buy), "en", { ids: true }).join("\n"),
    );
    expect(en).toContain("Buy");
    expect(en).toContain("€100.00 → BTC");
    expect(en).toContain("Customer number: 42");
    expect(en).not.toMatch(/Currency: btc|Amount: 100|btceur|Pair|buy_crypto/);
    const de = plain(
      transactionItemLines(tOf("de"), readTransactionItem(buy), "de", { ids: true }).join("\n"),
    );
    expect(de).toContain("Kauf");
    expect(de).toContain("100,00 € → BTC");
    expect(de).not.toMatch(/btceur|buy_crypto|2026-11-29/);
    const withdrawal = { ...buy, transaction_type: "fiat_withdraw", currency_code: "eur", amount: "50.00" };
    expect(
      plain(transactionItemLines(tOf("de"), readTransactionItem(withdrawal), "de").join("\n")),
    ).toContain("Euro-Auszahlung · 50,00 €");
  });
});

describe("a verification status nobody knows (ui/kyc-status.ts)", () => {
  it("is worded, never its code", () => {
    for (const locale of ["en", "de"]) {
      const { verdict, text } = readKyc(tOf(locale), { kyc_status: "manual_review" }, "@desk");
      expect(verdict).toBe("refuse");
      expect(text).toContain("@desk");
      expect(text).not.toContain("manual_review");
    }
  });
});

describe("dates as the locale writes them (ui/plan-text.ts)", () => {
  it("writes a plan's end and last run as dates of the user's language, never ISO", () => {
    const plan = {
      id: "p1",
      userId: 1,
      currency: "btc",
      amount: "25",
      schedule: { every: "day", hour: 9 },
      zone: "Europe/Berlin",
      state: "active",
      end: { until: "2026-12-31" },
      last: { date: "2026-11-29", outcome: "reminded" },
    } as unknown as Plan;
    const de = planLine(tOf("de"), plan, undefined, "de");
    expect(de).toContain("31.12.2026");
    expect(de).toContain("29.11.2026");
    expect(de).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const en = planLine(tOf("en"), plan, undefined, "en");
    expect(en).toContain("Dec 31, 2026");
    expect(en).toContain("Nov 29, 2026");
    expect(en).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe("the own daily limit's notice names the kind in words (ui/security-notice.ts)", () => {
  it("says 'selling', 'Verkäufe', never the key 'sell'", () => {
    const event = {
      type: "limit-changed",
      limit: "sell",
      currency: "eur",
      amount: "500",
      effectiveAt: 0,
    } as const;
    const setting = { unfreezeDelayMs: 60_000 };
    const en = securityNotice(tOf("en"), event, "en", undefined, setting).text;
    expect(en).toContain("daily limit for selling is");
    const de = securityNotice(tOf("de"), event, "de", undefined, setting).text;
    expect(de).toContain("Tageslimit für Verkäufe ist");
    expect(de).not.toMatch(/für sell\b/);
    const send = { ...event, limit: "send", currency: "btc", amount: "0.1" } as const;
    expect(securityNotice(tOf("de"), send, "de", undefined, setting).text).toContain(
      "Tageslimit für das Senden von BTC",
    );
  });
});

describe("/safety understands German and English words (features/safety.ts)", () => {
  const crypto = (code: string) => code === "btc";
  it.each([
    ["cap withdraw 1,000", "en", { kind: "cap", key: "withdraw", amount: "1000" }],
    ["limit auszahlen 1.000", "de", { kind: "cap", key: "withdraw", amount: "1000" }],
    ["cap auszahlen 100", "en", { kind: "cap", key: "withdraw", amount: "100" }],
    ["limit senden btc 0,1", "de", { kind: "cap", key: "send:btc", amount: "0.1" }],
    ["cap send btc 0.1", "de", { kind: "cap", key: "send:btc", amount: "0.1" }],
    ["limit kaufen aus", "de", { kind: "cap", key: "buy", amount: undefined }],
    ["cap buy off", "en", { kind: "cap", key: "buy", amount: undefined }],
    ["limit verkaufen 200", "de", { kind: "cap", key: "sell", amount: "200" }],
    ["freigabeliste an", "de", { kind: "allowlist", on: true }],
    ["allowlist aus", "en", { kind: "allowlist", on: false }],
    ["wartezeit 12", "de", { kind: "cooling", hours: 12 }],
  ])("reads %j (%s)", (typed, locale, change) => {
    expect(parseSafetyCommand(typed, crypto, locale)).toEqual(change);
  });
});

describe("time zones by city, in German and English (time-zone.ts)", () => {
  it.each([
    ["München", "Europe/Berlin"],
    ["Munich", "Europe/Berlin"],
    ["muenchen", "Europe/Berlin"],
    ["Wien", "Europe/Vienna"],
    ["Vienna", "Europe/Vienna"],
    ["Zürich", "Europe/Zurich"],
    ["Genf", "Europe/Zurich"],
    ["Rom", "Europe/Rome"],
    ["Lissabon", "Europe/Lisbon"],
    ["Warschau", "Europe/Warsaw"],
    ["Den Haag", "Europe/Amsterdam"],
    ["Tokio", "Asia/Tokyo"],
    ["new york", "America/New_York"],
  ])("%s is %s", (typed, zone) => {
    expect(parseTimeZone(typed)).toBe(zone);
  });

  it("knows every European capital in both languages", () => {
    const capitals = [
      "Kopenhagen",
      "Brüssel",
      "Athen",
      "Prag",
      "Bukarest",
      "Belgrad",
      "Moskau",
      "Kiew",
      "Kyiv",
    ];
    for (const city of capitals) expect(parseTimeZone(city), city).toMatch(/^(Europe)\//);
  });

  it("knows no made-up city", () => {
    expect(parseTimeZone("Atlantis")).toBeUndefined();
  });
});

describe("screens in a chat, account mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("reads an amount a German user types by German rules: 1.000 is a thousand euros", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/buy btc 1.000");
    const card = await bea.waitForReply(liveCard(/kaufen: dein Angebot/));
    // A thousand euros and the fee: not one euro.
    expect(plain(card.text)).toMatch(/Du zahlst: 1\.0\d\d,\d\d €/);
    await bea.tap("✖️ Abbrechen");
    const ada = await h.loggedInUser();
    await ada.send("/buy btc 1,000");
    const english = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(english.text).toMatch(/You pay: €1,0\d\d\.\d\d/);
    await ada.tap("✖️ Cancel");
  });

  it("/safety in German: German examples with German numbers, German words understood, no English kind names", async () => {
    // Logged in, so notices the bot starts itself know the Telegram app's language too.
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/safety");
    const screen = plain((await ute.waitForReply(/Sicherheit/)).text);
    expect(screen).toContain("/safety limit auszahlen 1.000");
    expect(screen).toContain("/safety limit senden btc 0,1");
    expect(screen).toContain("/safety limit kaufen aus");
    expect(screen).toContain("Freigabeliste");
    expect(screen).not.toMatch(/Allowlist|cap withdraw|buy off|\b0\.1\b/);
    await ute.send("/safety limit auszahlen 500");
    expect((await ute.waitForReply(/Limit gesetzt/)).text).toContain("sofort");
    const notice = await ute.waitForReply(/🔐 Dein eigenes Tageslimit/);
    expect(notice.text).toContain("Tageslimit für Auszahlungen");
    expect(notice.text).not.toMatch(/für withdraw/);
    await h.telegram.waitUntilIdle({ quietMs: 100 });
    expect(ute.messages().some((m) => plain(m.text).includes("• Auszahlen: 500,00 €"))).toBe(true);
    await ute.send("/safety cap auszahlen 100");
    await ute.waitForReply(/Limit gesetzt/);
    await ute.send("/safety was");
    const usage = plain((await ute.waitForReply(/nicht verstanden/)).text);
    expect(usage).toContain("/safety freigabeliste an");
    expect(usage).not.toMatch(/cap withdraw|allowlist on/);
  });

  it("/safety in English keeps English words and numbers", async () => {
    const eve = h.user();
    await eve.send("/safety");
    const screen = (await eve.waitForReply(/Safety/)).text;
    expect(screen).toContain("/safety cap withdraw 1,000");
    expect(screen).toContain("/safety cap send btc 0.1");
  });

  it("/settings in German says 'oder aus', not 'off'", async () => {
    const ute = h.user(undefined, { languageCode: "de" });
    await ute.send("/settings was");
    const usage = (await ute.waitForReply(/nicht verstanden/)).text;
    expect(usage).toContain("(oder aus)");
    expect(usage).not.toMatch(/\boff\b|\bon\b/);
  });

  it("/limits shows every limit in euros, without a note about the exchange", async () => {
    for (const [languageCode, title] of [
      ["en", /Your limits/],
      ["de", /Deine Limits/],
    ] as const) {
      const user = await h.loggedInUser(undefined, { languageCode });
      await user.send("/limits");
      const text = plain((await user.waitForReply(title)).text);
      expect(text).not.toMatch(/\(\*\)|plain numbers|without a unit|Einheit|reine Zahlen/);
      expect(text).toMatch(
        languageCode === "en" ? /Crypto withdrawals\nToday: €/ : /Krypto-Auszahlungen\nHeute: [\d.,]+ €/,
      );
    }
  });
});

describe("time zone flow", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  async function askZone(user: FakeUser, title: RegExp) {
    await user.send("/settings");
    await user.waitForReply(title);
    await user.tap(/^🔔 (Notifications|Benachrichtigungen)/);
    await user.waitForReply((m) => m.edited && /Quiet hours|Ruhezeit/.test(m.text));
    await user.tap(/^🌙 23:00–07:00/);
  }

  it("takes München in German; an unknown city asks again, however often", async () => {
    const jan = h.user(undefined, { languageCode: "de" });
    await askZone(jan, /Einstellungen/);
    await jan.waitForReply(/Zeitzone/);
    for (const wrong of ["Atlantis", "Lemuria", "El Dorado", "Shangri-La"]) {
      await jan.send(wrong);
      const again = await jan.waitForReply(/kenne ich nicht/);
      expect(again.text).toContain("/cancel");
    }
    await jan.send("München");
    expect((await jan.waitForReply(/Zeitzone: Europe\/Berlin/)).text).toContain("UTC+01:00");
  });

  it("takes Munich and Wien from an English user", async () => {
    const eva = h.user();
    await askZone(eva, /Settings/);
    await eva.waitForReply(/Which time zone/);
    await eva.send("Munich");
    await eva.waitForReply(/Time zone: Europe\/Berlin/);
    await eva.send("/settings");
    await eva.waitForReply(/Settings/);
    await eva.tap(/^🔔 Notifications/);
    const menu = await eva.waitForReply((m) => m.edited && /Quiet hours/.test(m.text));
    await eva.tap(/🌍/, menu);
    await eva.waitForReply(/Which time zone/);
    await eva.send("Wien");
    await eva.waitForReply(/Time zone: Europe\/Vienna/);
  });
});

describe("screens in a chat, partner mode", () => {
  const OPERATOR = 777_002;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner", partner: { operatorIds: [OPERATOR] } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("/me and the desk's /user word the status, the identity checks and the first name", async () => {
    const customer = await h.partnerUser(undefined, { languageCode: "de", eur: "0", bankAccount: false });
    h.sandbox.faults.setPartnerUserStatus(customer.partnerUserId, { edd_status: "not_required" });
    await customer.send("/me");
    const me = plain((await customer.waitForReply(/Dein Profil/)).text);
    expect(me).toContain("Vorname:");
    expect(me).toContain("Status: aktiv");
    expect(me).toContain("Identitätsprüfung: bestanden");
    expect(me).toContain("Erweiterte Prüfung: nicht nötig");
    expect(me).not.toMatch(/\bactive\b|\bpassed\b|not_required|\bName:/);

    const operator = h.user(OPERATOR);
    await operator.send(`/user ${customer.partnerUserId}`);
    const desk = plain((await operator.waitForReply(/Partner user/)).text);
    expect(desk).toContain("First name:");
    expect(desk).toContain("Status: active");
    expect(desk).toContain("Identity check: passed");
    expect(desk).toContain("Enhanced due diligence: not needed");
    expect(desk).not.toMatch(/not_required/);
  });

  it("/alltx shows each row's kind and amount in its currency, never the exchange's codes", async () => {
    const customer = await h.partnerUser(undefined, { eur: "0", bankAccount: false });
    h.sandbox.deposit({ amount: new Big(11), accountId: customer.partnerUserId });
    const operator = h.user(OPERATOR);
    await operator.send("/alltx");
    const page = plain((await operator.waitForReply(/Every user's transactions/)).text);
    expect(page).toContain("Euro deposit");
    expect(page).toContain("€11.00");
    expect(page).not.toMatch(/fiat_deposit|Currency: eur|Amount: 11\b/);
  });
});
