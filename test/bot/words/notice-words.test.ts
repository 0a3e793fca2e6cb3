/**
 * A price alert at exactly its level, an alert held
 * through quiet hours, the notification modes' icons, times in the user's zone, a plan's last run.
 */
import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../../src/alerts/rules.ts";
import { createI18n } from "../../../src/bot/i18n.ts";
import { alertHeldLine, alertNotice } from "../../../src/bot/ui/alert-text.ts";
import { formatDate, formatDateTime, formatMoment, formatTime } from "../../../src/bot/ui/format.ts";
import { notificationsKeyboard } from "../../../src/bot/ui/notifications-menu.ts";
import { planCardText, planEventText, planLine } from "../../../src/bot/ui/plan-text.ts";
import { withReaderZone } from "../../../src/domain/reader-zone.ts";
import type { Plan } from "../../../src/plans/book.ts";
import { DEFAULT_PROFILE, Profiles } from "../../../src/session/profiles.ts";
import { openStore } from "../../../src/store/open-store.ts";

const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
const tOf = (locale: string) => (key: string, vars?: Record<string, string | number>) =>
  i18n.t(locale, key, vars);
const NBSP = "\u00a0";
// 2026-11-27 06:53 UTC: 07:53 in Berlin.
const AT = Date.UTC(2026, 10, 27, 6, 53);

describe("a price alert at exactly its level", () => {
  const alert = {
    id: "a1",
    userId: 1,
    currency: "btc",
    kind: "above",
    level: "65000",
    locale: "en",
  } as unknown as Alert;
  const fired = { price: new Big(65000), change: new Big(1.5), at: AT, name: "Bitcoin" };
  for (const [locale, words] of [
    ["en", "Bitcoin (BTC) reached €65,000.00 (at or above): €65,000.00"],
    ["de", `Bitcoin (BTC) hat 65.000,00${NBSP}€ erreicht (gleich oder darüber): 65.000,00${NBSP}€`],
  ] as const) {
    it(`says reached, at or above (${locale})`, () => {
      const { text } = alertNotice(alert, fired).render(tOf(locale), locale);
      expect(text).toContain(words);
      expect(text).not.toMatch(/is above|liegt über/);
    });
  }

  for (const [locale, words] of [
    ["en", "it crossed at €65,000.00; now it is €63,500.00."],
    ["de", `Ausgelöst bei 65.000,00${NBSP}€, jetzt 63.500,00${NBSP}€.`],
  ] as const) {
    it(`held through quiet hours, it names the crossing price and the price now (${locale})`, () => {
      expect(alertNotice(alert, fired).price).toEqual({ currency: "btc", crossed: "65000" });
      expect(alertHeldLine(tOf(locale), locale, new Big(65000), new Big(63500))).toContain(words);
      expect(alertHeldLine(tOf(locale), locale, new Big(65000), undefined)).toBeUndefined();
    });
  }
});

describe("the notification modes' icons", () => {
  for (const [locale, labels] of [
    ["en", ["🔔 Price alerts: on", "🔕 Order updates: silent", "⛔ Expiry warnings: off"]],
    ["de", ["🔔 Preisalarme: an", "🔕 Auftragsmeldungen: lautlos", "⛔ Ablaufwarnung: aus"]],
  ] as const) {
    it(`differ for on, silent and off (${locale})`, () => {
      const profile = {
        ...DEFAULT_PROFILE,
        notifications: { ...DEFAULT_PROFILE.notifications, alerts: "on", orders: "silent", expiry: "off" },
      } as const;
      const buttons = notificationsKeyboard(tOf(locale), profile)
        .inline_keyboard.flat()
        .map((b) => b.text);
      for (const label of labels) expect(buttons).toContain(label);
    });
  }
});

describe("times in the user's zone, named", () => {
  it("a zone given or the reader's: local time and its name; none: UTC, named too", () => {
    // Intl puts narrow no-break spaces before AM/PM.
    const plain = (text: string) => text.replace(/\u202f/g, " ");
    expect(plain(formatTime(AT, "en"))).toBe("6:53 AM UTC");
    expect(plain(formatTime(AT, "de"))).toBe("06:53 UTC");
    expect(plain(withReaderZone("Europe/Berlin", () => formatTime(AT, "en")))).toBe(
      "7:53 AM (Europe/Berlin)",
    );
    expect(plain(withReaderZone("Europe/Berlin", () => formatTime(AT, "de")))).toBe("07:53 (Europe/Berlin)");
    expect(plain(formatTime(AT, "en", "America/New_York"))).toBe("1:53 AM (America/New York)");
    expect(plain(withReaderZone("Europe/Berlin", () => formatMoment(AT, "en")))).toBe(
      "Nov 27, 2026, 7:53 AM (Europe/Berlin)",
    );
    expect(plain(withReaderZone("Europe/Berlin", () => formatMoment(AT, "de")))).toBe(
      "27.11.2026, 07:53 (Europe/Berlin)",
    );
    expect(plain(formatMoment(AT, "en"))).toBe("Nov 27, 2026, 6:53 AM UTC");
    // A date and time in a list names its zone as well: "13:22" alone is read as local time.
    expect(plain(formatDateTime(AT, "de"))).toBe("27.11.2026, 06:53 UTC");
    expect(plain(formatDateTime(AT, "en"))).toBe("Nov 27, 2026, 6:53 AM UTC");
    expect(plain(formatDateTime(AT, "de", "+05:30"))).toBe("27.11.2026, 12:23 UTC+05:30");
  });

  it("a calendar date as the locale writes it", () => {
    expect(formatDate("2026-11-29", "en")).toBe("Nov 29, 2026");
    expect(formatDate("2026-11-29", "de")).toBe("29.11.2026");
  });
});

describe("a plan's last run", () => {
  const plan: Plan = {
    id: "p1",
    userId: 1,
    mode: "account",
    currency: "btc",
    amount: "25",
    schedule: { every: "day", hour: 9 },
    zone: "Europe/Berlin",
    state: "paused",
    createdAt: AT,
    runs: 1,
    last: { date: "2026-11-29", outcome: "reminded" },
  };
  for (const [locale, words] of [
    ["en", "Last run (Nov 29, 2026): reminder sent"],
    ["de", "29.11.2026"],
  ] as const) {
    it(`is dated and worded for the locale (${locale})`, () => {
      const text = planLine(tOf(locale), plan, undefined, locale);
      expect(text).toContain(words);
      expect(text).not.toContain("2026-11-29");
    });
  }
});

describe("a plan's times name the plan's zone", () => {
  const plan: Plan = {
    id: "p2",
    userId: 1,
    mode: "account",
    currency: "btc",
    amount: "25",
    schedule: { every: "day", hour: 9 },
    zone: "Europe/Berlin",
    state: "active",
    createdAt: AT,
    runs: 0,
  };
  const run = {
    planId: "p2",
    userId: 1,
    date: "2026-11-28",
    dueAt: AT,
    startedAt: AT,
    outcome: "reminded" as const,
  };
  for (const [locale, title, first, until] of [
    [
      "en",
      "€25.00 of BTC every day at 09:00 (Europe/Berlin)",
      "First run: Fri, Nov 27, 2026, 07:53 (Europe/Berlin)",
      "until Fri, Nov 27, 2026, 11:53 (Europe/Berlin).",
    ],
    [
      "de",
      `25,00${NBSP}€ in BTC jeden Tag um 09:00 (Europe/Berlin)`,
      "Erste Ausführung: Fr., 27. Nov. 2026, 07:53 (Europe/Berlin)",
      "bis Fr., 27. Nov. 2026, 11:53 (Europe/Berlin).",
    ],
  ] as const) {
    it(`in the schedule, the card, the list and the reminder (${locale})`, () => {
      const t = tOf(locale);
      const card = planCardText(t, plan, AT, 0, locale);
      expect(card).toContain(title);
      expect(card).toContain(first);
      expect(planLine(t, plan, AT + 86_400_000, locale)).toContain("07:53 (Europe/Berlin)");
      const reminder = planEventText(
        t,
        { kind: "reminder", plan, run: { ...run, expiresAt: AT + 4 * 3_600_000 } },
        undefined,
        locale,
      );
      expect(reminder).toContain(title);
      expect(reminder).toContain(until);
    });
  }

  it("a plan in UTC or at an offset says so", () => {
    const t = tOf("en");
    expect(planCardText(t, { ...plan, zone: "UTC" }, AT, 0, "en")).toContain("every day at 09:00 UTC");
    expect(planCardText(t, { ...plan, zone: "+05:30" }, AT, 0, "en")).toContain(
      "every day at 09:00 UTC+05:30",
    );
  });
});
