/**
 * Every security event, in every language, read from the real locale files: a sentence of its
 * own (never a missing key's id), the anti-phishing phrase above it, the Freeze hint and button.
 */
import { describe, expect, it } from "vitest";
import { createI18n, SUPPORTED_LOCALES } from "../../../src/bot/i18n.ts";
import { securityNotice } from "../../../src/bot/ui/security-notice.ts";
import type { SecurityEvent } from "../../../src/safety/security-events.ts";
import { Profiles } from "../../../src/session/profiles.ts";
import { openStore } from "../../../src/store/open-store.ts";

const AT = Date.parse("2026-11-22T10:00:00Z");

/** One of each type: the union's `type`s, every one (the record's type fails to compile without one). */
const EVENTS: { [T in SecurityEvent["type"]]: Extract<SecurityEvent, { type: T }> } = {
  login: { type: "login", via: "webapp", at: AT },
  "address-saved": {
    type: "address-saved",
    currency: "btc",
    label: "cold",
    address: "bc1qxyz",
    usableAt: AT,
  },
  "bank-added": { type: "bank-added", iban: "DE89370400440532013000", usableAt: AT },
  "allowlist-changed": { type: "allowlist-changed", on: false, effectiveAt: AT },
  "cooling-off-changed": { type: "cooling-off-changed", hours: 12, effectiveAt: AT },
  "phrase-changed": { type: "phrase-changed" },
  "remember-password-changed": { type: "remember-password-changed", on: true },
  "limit-changed": { type: "limit-changed", limit: "send", currency: "btc", amount: "0.5", effectiveAt: AT },
  "large-outflow": { type: "large-outflow", kind: "withdraw", amount: "600", currency: "eur" },
  "pin-changed": { type: "pin-changed" },
  "pin-reset": { type: "pin-reset" },
  frozen: { type: "frozen", by: "user" },
  "unfreeze-scheduled": { type: "unfreeze-scheduled", at: AT },
  unfrozen: { type: "unfrozen" },
};

describe("security notices", async () => {
  const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
  const setting = { unfreezeDelayMs: 90 * 60_000 };

  for (const locale of SUPPORTED_LOCALES) {
    it(`has a sentence, the phrase and Freeze for every event in ${locale}`, () => {
      const t = (key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars);
      const bodies = new Set<string>();
      for (const event of Object.values(EVENTS)) {
        const { text, keyboard } = securityNotice(t, event, locale, "blue tiger", setting);
        expect(text.startsWith(t("phishing-line", { phrase: "blue tiger" })), event.type).toBe(true);
        if (event.type !== "frozen") expect(text, event.type).toContain(t("security-freeze-hint"));
        expect(text, event.type).not.toMatch(/security-|freeze-how|\{ ?\$/);
        expect(keyboard.inline_keyboard).toEqual([
          [{ text: t("security-freeze-button"), callback_data: "frz" }],
        ]);
        bodies.add(text);
      }
      expect(bodies.size).toBe(Object.keys(EVENTS).length);
    });
  }

  it("words a partner user's freeze with the support contact, and masks a bank account", () => {
    const t = (key: string, vars?: Record<string, string | number>) => i18n.t("en", key, vars);
    const partner = securityNotice(t, EVENTS.frozen, "en", undefined, { ...setting, support: "@desk" });
    expect(partner.text).toContain("To unfreeze, contact support: @desk.");
    const account = securityNotice(t, EVENTS.frozen, "en", undefined, setting);
    expect(account.text).toContain(
      "money actions open 1 hour 30 minutes later".replace("1 hour 30 minutes", "90 minutes"),
    );
    const bank = securityNotice(t, EVENTS["bank-added"], "en", undefined, setting);
    expect(bank.text).toContain("DE89 •••• •••• 3000");
    expect(bank.text).not.toContain("0532");
  });
});
