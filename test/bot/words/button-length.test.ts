/**
 * Telegram cuts a longer button label. Every button label of
 * the locale files without variables (those with variables are checked where they are built, as
 * the bank accounts' in test/bot/ui/bank-label.test.ts) keeps to 30 characters, in each language.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES_DIR, SUPPORTED_LOCALES } from "../../../src/bot/i18n.ts";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

describe("button labels", () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`keep to 30 characters (${locale})`, () => {
      const lines = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8").split("\n");
      const labels = lines
        .flatMap((line) => {
          const match = /^([a-z0-9-]*button[a-z0-9-]*) = ([^{]+)$/.exec(line);
          return match ? [{ key: match[1] ?? "", label: (match[2] ?? "").trim() }] : [];
        })
        // A button's label, not what a tap on a stale button answers (a toast, up to 200 characters).
        .filter(({ key }) => !/-stale$|^button-inactive$/.test(key));
      expect(labels.length).toBeGreaterThan(50);
      const long = labels.filter(({ label }) => [...graphemes.segment(label)].length > 30);
      expect(long).toEqual([]);
      expect(labels.find(({ key }) => key === "settings-button-safety")).toBeDefined();
    });
  }
});
