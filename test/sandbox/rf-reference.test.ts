import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidRfReference, makeRfReference } from "../../src/sandbox/rf-reference.ts";

describe("RF creditor references (ISO 11649)", () => {
  it("accepts the standard's example and rejects it with a wrong check digit", () => {
    expect(isValidRfReference("RF18 5390 0754 7034")).toBe(true);
    expect(isValidRfReference("RF18539007547034")).toBe(true);
    expect(isValidRfReference("RF19539007547034")).toBe(false);
    expect(makeRfReference("539007547034")).toBe("RF18539007547034");
  });

  it("rejects malformed references", () => {
    for (const bad of ["", "RF", "RF18", "XX18539007547034", "RF1853900754703412345678901", "RF18-5390"]) {
      expect(isValidRfReference(bad)).toBe(false);
    }
    expect(() => makeRfReference("")).toThrow(RangeError);
    expect(() => makeRfReference("ABC-1")).toThrow(RangeError);
  });

  it("makes a valid reference for any body, and one changed character breaks it", () => {
    const body = fc.stringMatching(/^[0-9A-Z]{1,21}$/);
    fc.assert(
      fc.property(body, fc.nat(), fc.integer({ min: 1, max: 9 }), (text, at, bump) => {
        const reference = makeRfReference(text);
        expect(isValidRfReference(reference)).toBe(true);
        const i = 4 + (at % text.length);
        const char = reference[i] as string;
        if (!/\d/.test(char)) return;
        const changed = `${reference.slice(0, i)}${(Number(char) + bump) % 10}${reference.slice(i + 1)}`;
        expect(isValidRfReference(changed)).toBe(false);
      }),
    );
  });
});
