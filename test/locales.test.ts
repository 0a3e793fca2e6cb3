import { readFileSync } from "node:fs";
import { join } from "node:path";
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
