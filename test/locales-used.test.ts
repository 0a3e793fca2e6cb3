/**
 * Locale keys are written out in full in src/ (no `${prefix}-code-wrong`), so this can check both
 * ways: every key the code names exists in every locale, and every key of a locale is named by
 * some code (an unused sentence is deleted, not kept "just in case").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES_DIR, SUPPORTED_LOCALES } from "../src/bot/i18n.ts";

const SRC = join(import.meta.dirname, "..", "src");
/** The sandbox and the Bot API double are not the bot: they speak no locale. */
const NOT_THE_BOT = ["sandbox", "telegram-double"];
/** `t(`, `ctx.t(`: the literal is a key by where it stands. */
const CALLS_T = /(?:^|[^\w$])t\(\s*$/;
const KEY_SHAPE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
/** Key-shaped strings of src/ that are not sentences (conversation ids, store key names). */
const NOT_KEYS = new Set([
  "banks-add",
  "banks-remove",
  "deposit-new",
  "order-code",
  "settings-phrase",
  "login-email",
  "login-user",
  "order-settled",
  // Partner mode's kinds of money action and its conversation ids.
  "partner-buy",
  "partner-sell",
  "partner-withdraw",
  "partner-trade",
  // The safety net's conversation ids.
  "addresses-add",
  "safety-loosen",
  "safety-cap",
  "partner-pin",
  // A place result's kind, and security events' types (safety/security-events.ts).
  "pin-refused",
  "pin-reset",
  "unfreeze-scheduled",
]);

function keysOf(locale: string): Set<string> {
  const text = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
  return new Set([...text.matchAll(/^([a-z][a-z0-9-]*)\s*=/gm)].map((m) => m[1] ?? ""));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_THE_BOT.includes(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

interface Literal {
  text: string;
  /** A template literal with placeables: only its fixed parts are known. */
  templated: boolean;
  /** The code right before it (to spot a call of `t`). */
  before: string;
}

/** The string literals of a TypeScript file, comments skipped. */
function literalsOf(code: string): Literal[] {
  const found: Literal[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === "/" && code[i + 1] === "/") {
      i = code.indexOf("\n", i);
      if (i === -1) break;
      continue;
    }
    if (c === "/" && code[i + 1] === "*") {
      i = code.indexOf("*/", i + 2) + 2;
      if (i === 1) break;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      const start = i;
      let text = "";
      let templated = false;
      for (i++; i < code.length; i++) {
        const d = code[i];
        if (d === "\\") {
          text += code[i + 1];
          i++;
          continue;
        }
        if (c === "`" && d === "$" && code[i + 1] === "{") {
          // A placeable is code: its own literals count (`${ctx.t("send-ask-amount-again")}`).
          templated = true;
          const open = i + 2;
          let depth = 1;
          for (i = open; i < code.length && depth > 0; i++) {
            if (code[i] === "{") depth++;
            else if (code[i] === "}") depth--;
          }
          found.push(...literalsOf(code.slice(open, i - 1)));
          i--;
          continue;
        }
        if (d === c) break;
        text += d;
      }
      i++;
      found.push({ text, templated, before: code.slice(Math.max(0, start - 8), start) });
      continue;
    }
    i++;
  }
  return found;
}

describe("locale keys used by the code", () => {
  const files = sourceFiles(SRC).map((path) => ({
    path: relative(SRC, path),
    literals: literalsOf(readFileSync(path, "utf8")),
  }));
  const locales = SUPPORTED_LOCALES.map((locale) => ({ locale, keys: keysOf(locale) }));
  const known = new Set(locales.flatMap(({ keys }) => [...keys]));
  const namespaces = new Set([...known].map((key) => key.split("-")[0]));

  it("the scan sees the code (a sanity check of the tokenizer)", () => {
    const used = files.flatMap((f) => f.literals.map((l) => l.text));
    expect(used).toContain("flow-hint-command");
    expect(used).toContain("send-code-wrong");
  });

  it("no key is built from a template", () => {
    const built = files.flatMap(({ path, literals }) =>
      literals.filter((l) => l.templated && CALLS_T.test(l.before)).map((l) => `${path}: t(\`${l.text}\`)`),
    );
    expect(built).toEqual([]);
  });

  it("every key the code names exists in every locale", () => {
    for (const { locale, keys } of locales) {
      const missing = files.flatMap(({ path, literals }) =>
        literals
          .filter((l) => !l.templated && KEY_SHAPE.test(l.text) && !NOT_KEYS.has(l.text))
          .filter((l) => namespaces.has(l.text.split("-")[0] ?? "") || CALLS_T.test(l.before))
          .filter((l) => !keys.has(l.text))
          .map((l) => `${path}: ${l.text}`),
      );
      expect(missing, `keys missing from ${locale}.ftl`).toEqual([]);
    }
  });

  it("every key of a locale is named by the code", () => {
    const named = new Set(files.flatMap((f) => f.literals.filter((l) => !l.templated).map((l) => l.text)));
    for (const { locale, keys } of locales) {
      const unused = [...keys].filter((key) => !named.has(key));
      expect(unused, `keys of ${locale}.ftl no code uses`).toEqual([]);
    }
  });
});
