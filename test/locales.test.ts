import { readFileSync } from "node:fs";
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { describe, expect, it } from "vitest";
import { commandList } from "../src/bot/commands.ts";
import { LOCALES_DIR, SUPPORTED_LOCALES } from "../src/bot/i18n.ts";

function keysOf(locale: string): Set<string> {
  const text = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
  return new Set([...text.matchAll(/^([a-z][a-z0-9-]*)\s*=/gm)].map((m) => m[1] ?? ""));
}

function placeablesOf(locale: string): Map<string, string[]> {
  const text = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
  const result = new Map<string, string[]>();
  let current = "";
  for (const line of text.split("\n")) {
    const head = /^([a-z][a-z0-9-]*)\s*=(.*)$/.exec(line);
    if (head) current = head[1] ?? "";
    else if (!/^\s/.test(line)) current = "";
    if (!current) continue;
    const vars = [...line.matchAll(/\{\s*\$([a-zA-Z]+)\s*\}/g)].map((m) => m[1] ?? "");
    result.set(current, [...(result.get(current) ?? []), ...vars].sort());
  }
  return result;
}

describe("locales", () => {
  it("every key exists in every language", () => {
    const all = SUPPORTED_LOCALES.map((locale) => ({ locale, keys: keysOf(locale) }));
    for (const { locale, keys } of all) {
      for (const other of all) {
        const missing = [...other.keys].filter((key) => !keys.has(key));
        expect(missing, `keys in ${other.locale}.ftl missing from ${locale}.ftl`).toEqual([]);
      }
    }
  });

  it("every translation uses the same variables as the English one", () => {
    const english = placeablesOf("en");
    for (const locale of SUPPORTED_LOCALES) {
      const other = placeablesOf(locale);
      for (const [key, vars] of english) {
        expect([...new Set(other.get(key) ?? [])], `${locale}: ${key}`).toEqual([...new Set(vars)]);
      }
    }
  });

  it("every menu command has a description in every language", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const keys = keysOf(locale);
      for (const { command } of commandList((key) => key)) {
        expect(keys.has(`command-${command}`), `${locale}: command-${command}`).toBe(true);
      }
    }
  });
});

describe("plurals", () => {
  const i18n = new I18n({ defaultLocale: "en", fluentBundleOptions: { useIsolating: false } });
  i18n.loadLocalesDirSync(LOCALES_DIR);

  it.each<[string, string, Record<string, number>, string]>([
    ["en", "login-wrong-code", { left: 1 }, "(1 try left)"],
    ["en", "login-wrong-code", { left: 2 }, "(2 tries left)"],
    ["de", "login-wrong-code", { left: 1 }, "(noch 1 Versuch)"],
    ["de", "login-wrong-code", { left: 2 }, "(noch 2 Versuche)"],
    ["en", "error-exchange-rate-limited", { seconds: 1 }, "in 1 second."],
    ["en", "error-exchange-rate-limited", { seconds: 30 }, "in 30 seconds."],
    ["de", "error-exchange-rate-limited", { seconds: 1 }, "in einer Sekunde noch"],
    ["en", "logout-auto", { minutes: 1 }, "after 1 minute without"],
    ["de", "logout-auto", { minutes: 15 }, "nach 15 Minuten ohne"],
    ["en", "alert-limit", { limit: 1 }, "have 1 alert,"],
    ["de", "alert-limit", { limit: 20 }, "schon 20 Alarme,"],
  ])("%s %s %o says %s", (locale, key, variables, expected) => {
    expect(i18n.t(locale, key, variables)).toContain(expected);
  });
});
