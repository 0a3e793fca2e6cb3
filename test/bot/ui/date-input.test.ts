/** Dates typed in the user's locale (src/bot/ui/date-input.ts), and the examples prompts show. */
import { describe, expect, it } from "vitest";
import { dateExample, endDateExample, readTypedDate } from "../../../src/bot/ui/date-input.ts";
import { readPlanInput } from "../../../src/bot/ui/plan-input.ts";

describe("a date typed in the user's locale", () => {
  it("is shown as the locale writes it in digits, never as ISO", () => {
    expect(dateExample("2027-06-30", "de")).toBe("30.06.2027");
    expect(dateExample("2027-06-30", "en")).toBe("06/30/2027");
    // The example end date lies ahead: 30 June of the next year.
    expect(endDateExample(Date.parse("2026-11-28T00:00:00Z"), "de")).toBe("30.06.2027");
  });

  it("is read in the locale's form, day-first with dots, and ISO everywhere", () => {
    expect(readTypedDate("30.06.2027", "de")).toBe("2027-06-30");
    expect(readTypedDate("1.7.2027", "de")).toBe("2027-07-01");
    expect(readTypedDate("06/30/2027", "en")).toBe("2027-06-30");
    expect(readTypedDate("6/30/2027", "en")).toBe("2027-06-30");
    expect(readTypedDate("2027-06-30", "de")).toBe("2027-06-30");
    expect(readTypedDate("2027-06-30", "en")).toBe("2027-06-30");
    expect(readTypedDate("30.06.2027", "en")).toBe("2027-06-30");
  });

  it("refuses days that do not exist and other shapes", () => {
    expect(readTypedDate("31.02.2027", "de")).toBeUndefined();
    expect(readTypedDate("30/06/2027", "en")).toBeUndefined();
    expect(readTypedDate("2027-02-30", "en")).toBeUndefined();
    expect(readTypedDate("morgen", "de")).toBeUndefined();
  });

  it("ends a typed plan: a German user's 'bis 30.06.2027', an English user's 'until 06/30/2027'", () => {
    expect(readPlanInput("btc 100 monatlich letzter 9 bis 30.06.2027", "de")).toMatchObject({
      ok: true,
      input: { end: { until: "2027-06-30" } },
    });
    expect(readPlanInput("btc 100 monthly last 9 until 06/30/2027", "en")).toMatchObject({
      ok: true,
      input: { end: { until: "2027-06-30" } },
    });
  });
});
