/**
 * Every field name the partner screens can show has a label in every language: the names
 * exchange/partner-read.ts reads (they show when an item is not recognised as a whole), and every name the
 * sandbox's partner answers carry, in both of its shapes, read over real HTTP. A name the
 * renderer would only humanise from its English spelling fails here, naming the name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCALES_DIR, SUPPORTED_LOCALES } from "../../../src/bot/i18n.ts";
import { labelKeyOf } from "../../../src/bot/ui/fields.ts";
import { RECOGNISED_NAMES } from "../../../src/exchange/partner-read.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

/** The wrapper's own keys and the transport's envelope: never shown as fields. */
const ENVELOPE = new Set(["status", "data", "items", "total", "meta"]);

function keysOf(locale: string): Set<string> {
  const text = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
  return new Set([...text.matchAll(/^([a-z][a-z0-9-]*)\s*=/gm)].map((m) => m[1] ?? ""));
}

/** Every field name in a payload, below the wrapper, the envelope left out. */
function namesIn(value: unknown, out = new Set<string>(), top = true): Set<string> {
  if (Array.isArray(value)) for (const item of value) namesIn(item, out, false);
  else if (typeof value === "object" && value !== null) {
    for (const [name, child] of Object.entries(value)) {
      if (ENVELOPE.has(name) && (top || name === "meta" || name === "items")) {
        if (name !== "meta") namesIn(child, out, name === "data");
        continue;
      }
      out.add(name);
      namesIn(child, out, false);
    }
  }
  return out;
}

function untranslated(names: Iterable<string>): string[] {
  const locales = SUPPORTED_LOCALES.map((locale) => ({ locale, keys: keysOf(locale) }));
  return [...names].flatMap((name) => {
    const key = labelKeyOf(name);
    if (key === undefined) return [`${name} (no label)`];
    return locales
      .filter(({ keys }) => !keys.has(key))
      .map(({ locale }) => `${name} (${key} missing in ${locale})`);
  });
}

describe("field labels", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("every name the recognising reader knows has a label in every language", () => {
    expect(RECOGNISED_NAMES.length).toBeGreaterThan(50);
    expect(untranslated(RECOGNISED_NAMES)).toEqual([]);
  });

  it("every name of the sandbox's partner answers, in both shapes, has a label in every language", async () => {
    const user = await h.partnerUser();
    const id = user.partnerUserId;
    h.sandbox.deposit({ amount: new Big(100), accountId: id });
    const api = h.deps.partner?.api;
    if (api === undefined) throw new Error("partner mode expected");
    const answerOf = async (path: string): Promise<unknown> => {
      const response = await fetch(`${h.sandbox.url}/api/v1/partners${path}`, {
        headers: { authorization: `Bearer ${h.sandbox.partnerToken}`, "x-requested-with": "XMLHttpRequest" },
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    const names = new Set<string>();
    for (const alternate of [false, true]) {
      h.sandbox.faults.alternateShapes(alternate);
      // The answers as they come (the client hands on only its readings of them).
      const answers = await Promise.all([
        answerOf(`/users/${id}/balances`),
        answerOf("/exchange-rates"),
        answerOf("/pairs"),
        answerOf("/currencies"),
        answerOf(`/users/${id}/deposit-instructions`),
        answerOf(`/users/${id}/limits?type=fiat_deposit`),
        answerOf(`/users/${id}/transactions?start=0&length=5`),
        api.getUser(id),
        answerOf("/limits/minimum"),
      ]);
      for (const answer of answers) namesIn(answer, names);
    }
    h.sandbox.faults.alternateShapes(false);
    expect([...names]).toEqual(expect.arrayContaining(["fiat_conversion", "timestamp", "day_used", "note"]));
    expect(untranslated(names)).toEqual([]);
  });
});
