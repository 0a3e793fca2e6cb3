/**
 * The checks of what a partner user types about themself: a name as on an ID in any script (the
 * first name and the surname alike), and a postal code in its country's shape.
 */
import { describe, expect, it } from "vitest";
import { checkPostalCode } from "../../../src/bot/ui/postal-code.ts";
import { checkPersonName, profileSteps } from "../../../src/bot/ui/profile-input.ts";

describe("a name as on an ID", () => {
  it("takes letters of any script with spaces, hyphens, apostrophes and dots", () => {
    for (const name of [
      "Ada",
      "Anna-Lena",
      "O'Neil",
      "D’Arcy",
      "J. R. R.",
      "Zoë",
      "Алексей",
      "李",
      "Nguyễn Văn",
    ]) {
      expect(checkPersonName(name), name).toBe(name);
    }
    expect(checkPersonName("  Ada   Lovelace ")).toBe("Ada Lovelace");
  });

  it("refuses emoji, digits, symbols, markup and a start that is no letter", () => {
    for (const name of ["Ada 🚀", "Ada2", "ada@example.com", "<b>Ada</b>", "-Ada", "'", "", "A".repeat(65)]) {
      expect(checkPersonName(name), name).toBeUndefined();
    }
  });

  it("is the rule of /profile's first name and surname", () => {
    for (const field of ["name", "surname"] as const) {
      const [step] = profileSteps(field);
      expect(step?.check("Ada 🚀", {})).toEqual({ ok: false, refusal: "partner-profile-name-invalid" });
      expect(step?.check("Ada", {})).toEqual({ ok: true, value: "Ada" });
    }
  });
});

describe("a postal code in its country's shape", () => {
  it("takes each country's own form", () => {
    const good: [string, string][] = [
      ["10115", "DEU"],
      ["1010", "AUT"],
      ["75001", "FRA"],
      ["1012 js", "NLD"],
      ["00-950", "POL"],
      ["1100-148", "PRT"],
      ["D02 X285", "IRL"],
      ["sw1a 1aa", "GBR"],
      ["110 00", "CZE"],
      ["LV-1050", "LVA"],
      ["8001", "CHE"],
    ];
    for (const [code, country] of good)
      expect(checkPostalCode(code, country).ok, `${code} ${country}`).toBe(true);
    expect(checkPostalCode(" 1012   js ", "NLD")).toEqual({ ok: true, value: "1012 JS" });
  });

  it("refuses a city, and a code of another country's shape, naming an example", () => {
    expect(checkPostalCode("Berlin", "DEU")).toEqual({ ok: false, example: "10115" });
    expect(checkPostalCode("1010", "DEU")).toEqual({ ok: false, example: "10115" });
    expect(checkPostalCode("10115", "AUT")).toEqual({ ok: false, example: "1010" });
    expect(checkPostalCode("00950", "POL")).toEqual({ ok: false, example: "00-950" });
  });

  it("outside the table: any short code with a digit, never a word", () => {
    expect(checkPostalCode("K1A 0B1", "CAN").ok).toBe(true);
    expect(checkPostalCode("Berlin", "CAN").ok).toBe(false);
    expect(checkPostalCode("Berlin", undefined).ok).toBe(false);
  });

  it("is checked in /profile against the country asked first", () => {
    const steps = profileSteps("address");
    expect(steps.map((step) => step.name)).toEqual([
      "country",
      "address",
      "building_number",
      "postal_code",
      "city",
    ]);
    const postal = steps.find((step) => step.name === "postal_code");
    expect(postal?.check("Berlin", { country: "DEU" })).toMatchObject({
      ok: false,
      vars: { example: "10115" },
    });
    expect(postal?.check("10117", { country: "DEU" })).toEqual({ ok: true, value: "10117" });
  });
});
