import Big from "big.js";
import { describe, expect, it } from "vitest";
import { MESSAGE_LIMIT } from "../../../src/bot/ui/chunks.ts";
import {
  fieldBlocks,
  fieldLabel,
  fieldLines,
  fieldMessages,
  fieldValue,
} from "../../../src/bot/ui/fields.ts";
import { giroCodePayload, isCreditorReference } from "../../../src/bot/ui/girocode.ts";
import { pagedFields } from "../../../src/bot/ui/paged-fields.ts";

/** Keys come back as themselves, so a test sees which sentence was chosen. */
const t = (key: string, vars?: Record<string, string | number>) =>
  vars === undefined ? key : `${key}(${Object.values(vars).join(",")})`;

describe("the field renderer", () => {
  it("shows a number and the same number as a string alike, per locale", () => {
    expect(fieldLines(t, { balance: 1234.5 }, "en")).toEqual(["<b>fields-label-balance</b>: 1,234.5"]);
    expect(fieldLines(t, { balance: "1234.5" }, "en")).toEqual(["<b>fields-label-balance</b>: 1,234.5"]);
    expect(fieldLines(t, { balance: "1234.50000001" }, "de")).toEqual([
      "<b>fields-label-balance</b>: 1.234,50000001",
    ]);
    // Never rounded away: every decimal the exchange sent stays.
    expect(fieldValue(t, "amount", "0.000000000123", "en")).toBe("0.000000000123");
  });

  it("keeps identifiers as they came: ids, IBANs, codes, references, phone and postal numbers", () => {
    const lines = fieldLines(
      t,
      {
        id: 123456,
        user_id: "0042",
        postal_code: "01067",
        phone: "+4915123456789",
        reference_number: "RF18539007547034",
      },
      "en",
    );
    expect(lines).toEqual([
      "<b>fields-label-id</b>: 123456",
      "<b>fields-label-user-id</b>: 0042",
      "<b>fields-label-postal-code</b>: 01067",
      "<b>fields-label-phone</b>: +4915123456789",
      "<b>fields-label-reference</b>: RF18539007547034",
    ]);
    // A leading zero makes a code, not a number, whatever its name.
    expect(fieldValue(t, "something", "0012", "en")).toBe("0012");
  });

  it("makes names readable: snake, camel and kebab case; common ones translated", () => {
    expect(fieldLabel(t, "settlement_window")).toBe("Settlement window");
    expect(fieldLabel(t, "settlementWindow")).toBe("Settlement window");
    expect(fieldLabel(t, "settlement-window")).toBe("Settlement window");
    expect(fieldLabel(t, "currency_code")).toBe("fields-label-currency");
    expect(fieldLabel(t, "fiatConversion")).toBe("fields-label-eur-value");
    expect(fieldLabel(t, "day-used")).toBe("fields-label-day-used");
    expect(fieldLabel(t, "x".repeat(500)).length).toBeLessThanOrEqual(64);
  });

  it("formats dates and date-times per locale, zone-less times as UTC, unix seconds and milliseconds", () => {
    expect(fieldValue(t, "date_of_birth", "1990-04-01", "en")).toBe("Apr 1, 1990");
    expect(fieldValue(t, "date_of_birth", "1990-04-01", "de")).toBe("01.04.1990");
    const at = fieldValue(t, "created_at", "2026-11-22T10:00:00.000000Z", "en");
    expect(at).toBe(fieldValue(t, "created_at", "2026-11-22 10:00:00", "en"));
    expect(at).toMatch(/Nov 22, 2026/);
    const seconds = Date.parse("2026-11-22T10:00:00Z") / 1000;
    expect(fieldValue(t, "timestamp", seconds, "en")).toBe(at);
    expect(fieldValue(t, "updated_at", seconds * 1000, "en")).toBe(at);
    // Not a date after all: shown as it came.
    expect(fieldValue(t, "created_at", "2026-13-45T99:99", "en")).toBe("2026-13-45T99:99");
  });

  it("flattens nested objects under their parent's name; arrays of scalars in a line, of objects numbered", () => {
    const lines = fieldLines(
      t,
      {
        limits: { daily: "1000", spent: { today: 5 } },
        tags: ["a", "b"],
        legs: [{ amount: 1 }, { amount: 2 }],
      },
      "en",
    );
    expect(lines).toEqual([
      "<b>Limits › fields-label-daily</b>: 1,000",
      "<b>Limits › fields-label-spent › Today</b>: 5",
      "<b>Tags</b>: a, b",
      "<b>Legs › #1 › fields-label-amount</b>: 1",
      "<b>Legs › #2 › fields-label-amount</b>: 2",
    ]);
  });

  it("shows nulls, empty strings, empty objects and arrays as a dash, booleans as words", () => {
    expect(fieldLines(t, { a: null, b: "", c: {}, d: [], e: true, f: false }, "en")).toEqual([
      "<b>A</b>: —",
      "<b>B</b>: —",
      "<b>C</b>: —",
      "<b>D</b>: —",
      "<b>E</b>: fields-yes",
      "<b>F</b>: fields-no",
    ]);
  });

  it("escapes HTML in names and values, and never lets the exchange's text become markup", () => {
    const lines = fieldLines(t, { "<b>name</b>": "<script>alert('x')</script> & co" }, "en", {
      copyable: true,
    });
    expect(lines).toEqual([
      "<b>&lt;b&gt;name&lt;/b&gt;</b>: <code>&lt;script&gt;alert('x')&lt;/script&gt; &amp; co</code>",
    ]);
  });

  it("never fails on any JSON value, at any depth", () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 50; i++) {
      cursor.next = {};
      cursor = cursor.next as Record<string, unknown>;
    }
    const shapes: unknown[] = [
      null,
      undefined,
      0,
      -1.5,
      "",
      "text",
      true,
      [],
      {},
      [[[]]],
      [null, 1, "x"],
      deep,
    ];
    for (const shape of shapes) {
      expect(() => fieldBlocks(t, shape, "en")).not.toThrow();
      expect(() => fieldMessages(t, "title", shape, "de", { empty: "empty" })).not.toThrow();
    }
    expect(fieldBlocks(t, null, "en")).toEqual([]);
    expect(fieldBlocks(t, 42, "en")).toEqual(["42"]);
    // Past six levels the rest is compact JSON, cut.
    expect(fieldBlocks(t, deep, "en")[0]).toMatch(
      /^<b>Next › Next › Next › Next › Next › Next<\/b>: {"next":/,
    );
  });

  it("cuts a huge payload: long values, many lines, many items, and every message fits Telegram", () => {
    const huge = Array.from({ length: 5000 }, (_, i) => ({
      id: i,
      note: "<&>".repeat(2000),
      ...Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`field_${j}`, j])),
    }));
    const messages = fieldMessages(t, "title", huge, "en", { empty: "empty" });
    for (const text of messages) expect(text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    const all = messages.join("\n");
    expect(all).toContain("fields-more-items(4950)");
    // The first item's 102 lines, cut at 60: the rest counted for people, not "fields not shown".
    expect(all).toContain("fields-more-details(42)");
    expect(all).toContain("…");
    // One enormous string alone still fits.
    for (const text of fieldMessages(t, "title", { blob: "x".repeat(1_000_000) }, "en", { empty: "" })) {
      expect(text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    }
  });

  it("pages a list the exchange sent whole, and fits every page in one message", () => {
    const rows = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, note: "&".repeat(300) }));
    const first = pagedFields(t, rows, "en", {
      page: 0,
      pageData: (page) => `x:${page}`,
      title: "T",
      empty: "E",
    });
    expect(first.text).toContain("<b>fields-label-id</b>: 1\n");
    expect(first.text).not.toContain("<b>fields-label-id</b>: 6\n");
    expect(first.keyboard.inline_keyboard.flat().map((b) => "callback_data" in b && b.callback_data)).toEqual(
      ["x:1"],
    );
    const last = pagedFields(t, rows, "en", {
      page: 4,
      pageData: (page) => `x:${page}`,
      title: "T",
      empty: "E",
    });
    expect(last.text).toContain("<b>fields-label-id</b>: 21\n");
    expect(last.keyboard.inline_keyboard.flat().map((b) => "callback_data" in b && b.callback_data)).toEqual([
      "x:3",
    ]);
    for (const page of [first, last]) expect(page.text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(
      pagedFields(t, [], "en", { page: 0, pageData: (page) => `x:${page}`, title: "T", empty: "E" }).text,
    ).toContain("E");
  });
});

describe("the GiroCode (EPC069-12)", () => {
  it("writes the lines in order, with the RF reference as structured and anything else as text", () => {
    expect(
      giroCodePayload({
        name: "Sandbox Exchange GmbH",
        iban: "DE02 1203 0000 0000 2020 51",
        bic: "byladem1001",
        amount: new Big("250"),
        reference: "RF18 5390 0754 7034",
      }),
    ).toBe(
      [
        "BCD",
        "002",
        "1",
        "SCT",
        "BYLADEM1001",
        "Sandbox Exchange GmbH",
        "DE02120300000000202051",
        "EUR250.00",
        "",
        "RF18539007547034",
      ].join("\n"),
    );
    expect(giroCodePayload({ name: "A", iban: "DE02120300000000202051", reference: "Customer 42" })).toBe(
      ["BCD", "002", "1", "SCT", "", "A", "DE02120300000000202051", "", "", "", "Customer 42"].join("\n"),
    );
    // No BIC, no amount, no reference: the trailing lines are left off.
    expect(giroCodePayload({ name: "A", iban: "DE02120300000000202051" })).toBe(
      ["BCD", "002", "1", "SCT", "", "A", "DE02120300000000202051"].join("\n"),
    );
  });

  it("is not made from fields that would make a wrong one", () => {
    expect(giroCodePayload({ name: "A", iban: "DE02120300000000202052" })).toBeUndefined();
    expect(giroCodePayload({ name: " ", iban: "DE02120300000000202051" })).toBeUndefined();
    expect(giroCodePayload({ name: "x".repeat(71), iban: "DE02120300000000202051" })).toBeUndefined();
    expect(giroCodePayload({ name: "A", iban: "DE02120300000000202051", bic: "NOPE" })).toBeUndefined();
    expect(
      giroCodePayload({ name: "A", iban: "DE02120300000000202051", amount: new Big("1e10") }),
    ).toBeUndefined();
  });

  it("checks creditor references (ISO 11649)", () => {
    expect(isCreditorReference("RF18539007547034")).toBe(true);
    expect(isCreditorReference("RF18 5390 0754 7034")).toBe(true);
    expect(isCreditorReference("RF19539007547034")).toBe(false);
    expect(isCreditorReference("Customer 42")).toBe(false);
  });
});

describe("the fields left out of a long item", () => {
  it("are counted for people, in their language, with the plural", async () => {
    const { createI18n } = await import("../../../src/bot/i18n.ts");
    const { Profiles } = await import("../../../src/session/profiles.ts");
    const { openStore } = await import("../../../src/store/open-store.ts");
    const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
    const item = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`field_${i}`, i]));
    for (const [locale, maxLines, last] of [
      ["en", 5, "… and 3 more details"],
      ["en", 7, "… and one more detail"],
      ["de", 5, "… und 3 weitere Angaben"],
      ["de", 7, "… und eine weitere Angabe"],
    ] as const) {
      const lines = fieldLines((key, vars) => i18n.t(locale, key, vars), item, locale, { maxLines });
      expect(lines.at(-1)).toBe(last);
      expect(lines).toHaveLength(maxLines + 1);
    }
    expect(fieldLines(t, item, "en", { maxLines: 8 })).toHaveLength(8);
  });
});

describe("a number in a field named like an identifier", () => {
  it("is written as the locale writes numbers when it has a fraction; identifiers keep their digits", () => {
    const lines = fieldLines(
      t,
      {
        building_number: "451.5",
        pair: "136.5",
        user_id: 294.5,
        postal_code: "01067",
        id: 7,
        iban: "DE89370400440532013000",
      },
      "de",
    );
    expect(lines).toEqual([
      "<b>fields-label-building</b>: 451,5",
      "<b>fields-label-pair</b>: 136,5",
      "<b>fields-label-user-id</b>: 294,5",
      "<b>fields-label-postal-code</b>: 01067",
      "<b>fields-label-id</b>: 7",
      "<b>fields-label-iban</b>: DE89370400440532013000",
    ]);
  });

  it("in the partner's deposit instructions, a bank named by a number too", async () => {
    const { depositText } = await import("../../../src/bot/features/partner/deposit.ts");
    const { readDeposit } = await import("../../../src/exchange/partner-read.ts");
    const text = depositText(
      t,
      readDeposit({ beneficiary: "Exchange GmbH", bank_name: "73.5", iban: "DE89370400440532013000" }),
      "de",
    ).join("\n");
    expect(text).toContain("<b>fields-label-bank</b>: 73,5");
  });
});

describe("a block about the answer beside an item's fields", () => {
  it("is left out: its names are the API's, not the item's", () => {
    const bank = {
      id: 11,
      name: "Sandbox Partnerbank",
      meta: { shape: "alternate", source: { name: "sandbox" } },
    };
    expect(fieldLines(t, bank, "de")).toEqual([
      "<b>fields-label-id</b>: 11",
      "<b>fields-label-name</b>: Sandbox Partnerbank",
    ]);
    // Alone, it is all there is, and shown.
    expect(fieldLines(t, { meta: { total: 2 } }, "de")).toHaveLength(1);
  });
});
