/**
 * bot/i18n.ts keeps what a sentence without variables says in each locale (Fluent would resolve it
 * again on every ctx.t()). What the bot says must be exactly what the library alone says, for every
 * key of every locale, with and without variables.
 */
import { I18n } from "@grammyjs/i18n";
import { describe, expect, it } from "vitest";
import { createI18n, LOCALES_DIR, SUPPORTED_LOCALES } from "../../src/bot/i18n.ts";
import { Profiles } from "../../src/session/profiles.ts";
import { openStore } from "../../src/store/open-store.ts";

describe("i18n's sentences without variables", async () => {
  const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
  const plain = new I18n({ defaultLocale: "en", fluentBundleOptions: { useIsolating: false } });
  plain.loadLocalesDirSync(LOCALES_DIR);

  for (const locale of SUPPORTED_LOCALES) {
    it(`say what the library says, every key in ${locale}, asked twice`, () => {
      const keys = [...messageIds(plain, locale)];
      expect(keys.length).toBeGreaterThan(100);
      let plainOnes = 0;
      for (const key of keys) {
        // A sentence that needs variables throws without them, in the library and here alike.
        const expected = said(() => plain.t(locale, key));
        if (!expected.startsWith("throws")) plainOnes++;
        expect(said(() => i18n.t(locale, key))).toBe(expected);
        expect(said(() => i18n.t(locale, key))).toBe(expected);
        expect(said(() => i18n.t(locale, key, {}))).toBe(expected);
      }
      expect(plainOnes).toBeGreaterThan(100);
    });
  }

  it("are resolved once per locale; with variables, every time", async () => {
    const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
    let resolved = 0;
    const match = Reflect.get(i18n.fluent, "matchBundles") as (locales: string[]) => unknown;
    Reflect.set(i18n.fluent, "matchBundles", (locales: string[]) => {
      resolved++;
      return match.call(i18n.fluent, locales);
    });
    const help = i18n.t("de", "help-text");
    expect(i18n.t("de", "help-text")).toBe(help);
    expect(i18n.t("en", "help-text")).not.toBe(help);
    expect(resolved).toBe(2);
    expect(i18n.t("en", "start-welcome", { name: "Ada", bot: "desk_bot" })).toContain("Welcome, Ada!");
    expect(i18n.t("en", "start-welcome", { name: "Bob", bot: "desk_bot" })).toContain("Welcome, Bob!");
    expect(resolved).toBe(4);
  });

  it("leave a missing key to the library, which marks it every time", () => {
    expect(i18n.t("en", "no-such-key")).toBe("{no-such-key}");
    expect(i18n.t("en", "no-such-key")).toBe("{no-such-key}");
  });
});

function said(speak: () => string): string {
  try {
    return speak();
  } catch (error) {
    return `throws ${String(error)}`;
  }
}

/** The message ids of a locale's bundle, read from the library's own bundles. */
function messageIds(i18n: I18n, locale: string): Iterable<string> {
  const bundles = Reflect.get(i18n.fluent, "bundles") as Set<{
    locales: string[];
    _messages: Map<string, unknown>;
  }>;
  for (const bundle of bundles) if (bundle.locales[0] === locale) return bundle._messages.keys();
  throw new Error(`no bundle for ${locale}`);
}
