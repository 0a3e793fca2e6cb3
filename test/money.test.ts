import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AmountRefusal,
  CRYPTO_DECIMALS,
  decimalFrom,
  decimalsFor,
  FIAT_DECIMALS,
  formatAmount,
  formatChange,
  MAX_AMOUNT,
  MAX_INPUT_LENGTH,
  parseAmount,
  toPlainString,
} from "../src/domain/money.ts";

const REFUSALS: AmountRefusal[] = [
  "empty",
  "not-a-number",
  "negative",
  "zero",
  "exponent",
  "ambiguous-separator",
  "too-many-decimals",
  "too-long",
  "too-large",
];

/** The value of an accepted parse as plain text, or the refusal reason. */
function outcome(input: string, currency: string): string {
  const parsed = parseAmount(input, currency);
  return parsed.ok ? `ok:${parsed.value.toFixed()}` : `refused:${parsed.reason}`;
}

/** Number of digits after the point of a Big, trailing zeros not counted. */
function decimalPlaces(value: Big): number {
  return Math.max(0, value.c.length - value.e - 1);
}

describe("parseAmount: accepted input", () => {
  it.each([
    ["100", "eur", "100"],
    ["100.5", "eur", "100.5"],
    ["100,5", "eur", "100.5"],
    [" 100 ", "eur", "100"],
    ["\t42,25\n", "eur", "42.25"],
    ["0.01", "eur", "0.01"],
    ["0.00000001", "btc", "0.00000001"],
    ["0,12345678", "btc", "0.12345678"],
    ["007", "eur", "7"],
    ["1000000000000", "eur", "1000000000000"],
    // Marks that can only group, or a decimal mark after grouping, read the same in any locale.
    ["1,000.50", "eur", "1000.5"],
    ["1.000,50", "eur", "1000.5"],
    ["1.000.000", "btc", "1000000"],
    ["1 000", "eur", "1000"],
    ["1'000", "eur", "1000"],
    ["1\u00a0000,5", "eur", "1000.5"],
    // English reads a lone comma before three digits as grouping: a thousand.
    ["1,000", "btc", "1000"],
    ["100,123", "eur", "100123"],
  ])("%j in %s is %s", (input, currency, expected) => {
    const parsed = parseAmount(input, currency);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value).toBeInstanceOf(Big);
      expect(parsed.value.toFixed()).toBe(expected);
    }
  });

  it("treats the currency code case-insensitively", () => {
    expect(outcome("1.25", "EUR")).toBe("ok:1.25");
    expect(outcome("1.255", "EUR")).toBe("refused:too-many-decimals");
    expect(outcome("1.255", "BTC")).toBe("ok:1.255");
  });
});

describe("parseAmount: by the rules of the reader's locale", () => {
  /** The value of an accepted parse as plain text, or the refusal reason. */
  const read = (input: string, currency: string, locale: string) => {
    const parsed = parseAmount(input, currency, locale);
    return parsed.ok ? parsed.value.toFixed() : `refused:${parsed.reason}`;
  };

  it.each([
    // German: the point groups, the comma is the decimal mark.
    ["1.000", "eur", "de", "1000"],
    ["1.000", "btc", "de", "1000"],
    ["1.000,50", "eur", "de", "1000.5"],
    ["12.345.678,9", "eur", "de", "12345678.9"],
    ["1,5", "eur", "de", "1.5"],
    ["1,000", "btc", "de", "1"],
    ["1,000", "eur", "de", "refused:too-many-decimals"],
    // A point that cannot group (not three digits after it, or a zero before it) is a decimal mark.
    ["1.5", "eur", "de", "1.5"],
    ["0.001", "btc", "de", "0.001"],
    ["100.25", "eur", "de", "100.25"],
    // English: the comma groups, the point is the decimal mark.
    ["1,000", "eur", "en", "1000"],
    ["1,000.5", "eur", "en", "1000.5"],
    ["1.000", "btc", "en", "1"],
    ["1,5", "eur", "en", "1.5"],
    ["0,001", "btc", "en", "0.001"],
    // Unambiguous whatever the locale: both marks, or marks that only group.
    ["1,000.50", "eur", "de", "1000.5"],
    ["1.000,50", "eur", "en", "1000.5"],
    ["1 000", "eur", "de", "1000"],
    ["1.000.000", "eur", "en", "1000000"],
    // Marks that neither group by threes nor stand once are refused, not guessed.
    ["1.00.0", "eur", "de", "refused:ambiguous-separator"],
    ["1,0,0", "eur", "en", "refused:ambiguous-separator"],
    ["10.00,5", "eur", "de", "refused:ambiguous-separator"],
  ])("%j in %s (%s) is %s", (input, currency, locale, expected) => {
    expect(read(input, currency, locale)).toBe(expected);
  });
});

describe("parseAmount: refused input names the reason", () => {
  it.each<[string, string, AmountRefusal]>([
    ["", "eur", "empty"],
    ["  ", "eur", "empty"],
    ["\n\t", "btc", "empty"],
    ["abc", "eur", "not-a-number"],
    ["12abc", "eur", "not-a-number"],
    ["+5", "eur", "not-a-number"],
    [".5", "eur", "not-a-number"],
    ["5.", "eur", "not-a-number"],
    ["NaN", "eur", "not-a-number"],
    ["Infinity", "eur", "not-a-number"],
    ["0x10", "eur", "not-a-number"],
    ["-5", "eur", "negative"],
    ["−5", "eur", "negative"],
    ["-0.5", "btc", "negative"],
    [" -5 ", "eur", "negative"],
    ["0", "eur", "zero"],
    ["0.00", "eur", "zero"],
    ["0,0", "eur", "zero"],
    ["000", "btc", "zero"],
    ["0.00000000", "btc", "zero"],
    ["1e5", "eur", "exponent"],
    ["1E-3", "btc", "exponent"],
    ["2.5e3", "eur", "exponent"],
    ["100.123", "eur", "too-many-decimals"],
    ["100,1234", "eur", "too-many-decimals"],
    ["0.001", "eur", "too-many-decimals"],
    ["1.000", "eur", "too-many-decimals"],
    ["1,00.5", "eur", "ambiguous-separator"],
    ["1.00.0", "btc", "ambiguous-separator"],
    ["1.000,000,5", "btc", "ambiguous-separator"],
    ["1 00", "eur", "ambiguous-separator"],
    ["0,000.5", "eur", "ambiguous-separator"],
    ["0.000000001", "btc", "too-many-decimals"],
    ["1,123456789", "eth", "too-many-decimals"],
    ["1".repeat(40), "eur", "too-long"],
    ["x".repeat(40), "eur", "too-long"],
    ["1000000000001", "eur", "too-large"],
    ["1000000000000.01", "eur", "too-large"],
    ["99999999999999999999", "btc", "too-large"],
  ])("%j in %s is refused as %s", (input, currency, reason) => {
    const parsed = parseAmount(input, currency);
    expect(parsed).toEqual({ ok: false, reason, maxDecimals: decimalsFor(currency) });
  });

  it("says how many decimals the currency allows", () => {
    expect(parseAmount("1.123", "eur")).toMatchObject({ ok: false, maxDecimals: FIAT_DECIMALS });
    expect(parseAmount("1.123456789", "btc")).toMatchObject({ ok: false, maxDecimals: CRYPTO_DECIMALS });
  });

  it("accepts exactly MAX_INPUT_LENGTH characters and refuses one more", () => {
    const longest = `1.${"0".repeat(MAX_INPUT_LENGTH - 3)}1`.slice(0, MAX_INPUT_LENGTH);
    expect(longest).toHaveLength(MAX_INPUT_LENGTH);
    // Within the length limit, the decimals rule is what refuses it.
    expect(outcome(longest, "btc")).toBe("refused:too-many-decimals");
    const paddedInteger = `${"0".repeat(MAX_INPUT_LENGTH - 1)}5`;
    expect(outcome(paddedInteger, "eur")).toBe("ok:5");
    expect(outcome(`0${paddedInteger}`, "eur")).toBe("refused:too-long");
  });
});

describe("decimalFrom", () => {
  it("reads a JSON number through its shortest text, so 0.1 is exactly 0.1", () => {
    expect(decimalFrom(0.1)?.toFixed()).toBe("0.1");
    expect(decimalFrom(0.1)?.eq(new Big("0.1"))).toBe(true);
    expect(decimalFrom(0.1 + 0.2)?.toFixed()).toBe("0.30000000000000004");
    expect(decimalFrom(42)?.toFixed()).toBe("42");
    expect(decimalFrom(0)?.toFixed()).toBe("0");
    expect(decimalFrom(-2.5)?.toFixed()).toBe("-2.5");
    expect(decimalFrom(1e21)?.toFixed()).toBe("1000000000000000000000");
    expect(decimalFrom(1e-7)?.toFixed()).toBe("0.0000001");
  });

  it("reads a decimal string exactly", () => {
    expect(decimalFrom("12.50")?.toFixed(2)).toBe("12.50");
    expect(decimalFrom("12.50")?.eq(new Big("12.5"))).toBe(true);
    expect(decimalFrom("100")?.toFixed()).toBe("100");
    expect(decimalFrom(" 7 ")?.toFixed()).toBe("7");
    expect(decimalFrom("-3.25")?.toFixed()).toBe("-3.25");
    expect(decimalFrom("0.123456789012345678901234567890")?.toFixed()).toBe(
      "0.12345678901234567890123456789",
    );
    expect(decimalFrom("1e3")?.toFixed()).toBe("1000");
  });

  it.each([
    ["an empty string", ""],
    ["letters", "abc"],
    ["a number with junk", "12abc"],
    ["a comma decimal", "12,5"],
    ["a trailing point", "12."],
    ["a leading point", ".5"],
    ["NaN as text", "NaN"],
    ["Infinity as text", "Infinity"],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["null", null],
    ["undefined", undefined],
    ["a boolean", true],
    ["an object", { balance: "1" }],
    ["an array", ["1"]],
    ["a bigint", 10n],
  ])("returns undefined for %s", (_label, value) => {
    expect(decimalFrom(value)).toBeUndefined();
  });
});

describe("toPlainString", () => {
  it("never writes an exponent", () => {
    expect(toPlainString(new Big("1e-8"))).toBe("0.00000001");
    expect(toPlainString(new Big("1e21"))).toBe("1000000000000000000000");
    expect(toPlainString(new Big("1.5e-12"))).toBe("0.0000000000015");
    expect(toPlainString(new Big(1e21))).not.toMatch(/e/i);
  });

  it("trims trailing zeros and a bare point", () => {
    expect(toPlainString(new Big("12.50"))).toBe("12.5");
    expect(toPlainString(new Big("12.000"))).toBe("12");
    expect(toPlainString(new Big("100"))).toBe("100");
    expect(toPlainString(new Big("0.10000000"))).toBe("0.1");
    expect(toPlainString(new Big("-3.10"))).toBe("-3.1");
  });
});

describe("formatAmount", () => {
  // Intl separates a trailing currency sign with a no-break space; compare with plain spaces.
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

  it("formats euro with two decimals for English and German readers", () => {
    expect(plain(formatAmount(new Big("1234.5"), "eur", "en"))).toBe("€1,234.50");
    expect(plain(formatAmount(new Big("1234.5"), "eur", "de"))).toBe("1.234,50 €");
    expect(plain(formatAmount(new Big("0.1"), "EUR", "en"))).toBe("€0.10");
    expect(plain(formatAmount(new Big("1000000"), "eur", "de"))).toBe("1.000.000,00 €");
  });

  it("formats crypto with up to eight decimals and no trailing zeros", () => {
    expect(formatAmount(new Big("0.0015"), "btc", "en")).toBe("0.0015 BTC");
    expect(formatAmount(new Big("0.0015"), "btc", "de")).toBe("0,0015 BTC");
    expect(formatAmount(new Big("0.00000001"), "btc", "en")).toBe("0.00000001 BTC");
    expect(formatAmount(new Big("2.50000000"), "eth", "en")).toBe("2.5 ETH");
    expect(formatAmount(new Big("1234.00015"), "btc", "en")).toBe("1,234.00015 BTC");
    expect(formatAmount(new Big("1234.00015"), "btc", "de")).toBe("1.234,00015 BTC");
  });

  it("formats amounts beyond double precision exactly", () => {
    expect(formatAmount(new Big("123456789012.12345678"), "btc", "en")).toBe("123,456,789,012.12345678 BTC");
    expect(plain(formatAmount(new Big("999999999999.99"), "eur", "de"))).toBe("999.999.999.999,99 €");
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const currencyArb = fc.constantFrom("eur", "btc", "eth", "EUR");
const digitArb = fc.constantFrom(..."0123456789");

/** A positive decimal within MAX_AMOUNT with at most the currency's decimals. */
const amountArb = currencyArb.chain((currency) =>
  fc
    .record({
      integer: fc.oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10n ** 12n })),
      fraction: fc.array(digitArb, { maxLength: decimalsFor(currency) }).map((d) => d.join("")),
    })
    .map(({ integer, fraction }) => ({
      currency,
      value: new Big(fraction ? `${integer}.${fraction}` : `${integer}`),
    }))
    .filter(({ value }) => value.gt(0) && value.lte(MAX_AMOUNT)),
);

/** Strings made of the characters that matter to the parser, to reach its deeper branches. */
const numberishArb = fc.string({
  unit: fc.constantFrom(..."0123456789", ".", ",", "-", "−", "+", "e", "E", " ", "'", "\u00a0", "a"),
  maxLength: 40,
});

describe("parseAmount properties", () => {
  it("round-trips plain text written with a point or a comma", () => {
    fc.assert(
      fc.property(amountArb, fc.boolean(), fc.boolean(), ({ currency, value }, comma, padded) => {
        for (const text of [toPlainString(value), value.toFixed(decimalsFor(currency))]) {
          // Written with the decimal mark of the reader's locale: a comma in German, a point in English.
          let typed = comma ? text.replace(".", ",") : text;
          if (padded) typed = ` ${typed}\n`;
          const parsed = parseAmount(typed, currency, comma ? "de" : "en");
          expect(parsed.ok, `${typed} in ${currency}`).toBe(true);
          if (parsed.ok) expect(parsed.value.eq(value)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never accepts an amount of zero or less", () => {
    const negativeArb = amountArb.chain(({ currency, value }) =>
      fc.constantFrom("-", "−").map((sign) => ({ currency, text: sign + toPlainString(value) })),
    );
    const zeroArb = fc
      .record({
        integer: fc.array(fc.constant("0"), { minLength: 1, maxLength: 5 }),
        fraction: fc.array(fc.constant("0"), { maxLength: 8 }),
        separator: fc.constantFrom(".", ","),
      })
      .map(({ integer, fraction, separator }) =>
        fraction.length ? integer.join("") + separator + fraction.join("") : integer.join(""),
      );
    fc.assert(
      fc.property(negativeArb, ({ currency, text }) => {
        expect(parseAmount(text, currency)).toMatchObject({ ok: false, reason: "negative" });
      }),
    );
    fc.assert(
      fc.property(zeroArb, currencyArb, (text, currency) => {
        expect(parseAmount(text, currency).ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(numberishArb, fc.string()), currencyArb, (text, currency) => {
        const parsed = parseAmount(text, currency);
        if (parsed.ok) expect(parsed.value.gt(0)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("never accepts more decimals than the currency allows", () => {
    const tooPreciseArb = currencyArb.chain((currency) =>
      fc
        .record({
          integer: fc.bigInt({ min: 0n, max: 10n ** 6n }),
          fraction: fc.array(digitArb, {
            minLength: decimalsFor(currency) + 1,
            maxLength: decimalsFor(currency) + 6,
          }),
          separator: fc.constantFrom(".", ","),
        })
        .map(({ integer, fraction, separator }) => ({
          currency,
          text: `${integer}${separator}${fraction.join("")}`,
        })),
    );
    fc.assert(
      fc.property(tooPreciseArb, ({ currency, text }) => {
        expect(parseAmount(text, currency, text.includes(",") ? "de" : "en").ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(numberishArb, fc.string()), currencyArb, (text, currency) => {
        const parsed = parseAmount(text, currency);
        if (parsed.ok) {
          expect(decimalPlaces(parsed.value)).toBeLessThanOrEqual(decimalsFor(currency));
          expect(parsed.value.lte(MAX_AMOUNT)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("never accepts text longer than MAX_INPUT_LENGTH (surrounding whitespace aside)", () => {
    const longDigitsArb = fc
      .array(digitArb, { minLength: MAX_INPUT_LENGTH + 1, maxLength: 80 })
      .map((digits) => `1${digits.join("")}`);
    fc.assert(
      fc.property(fc.oneof(longDigitsArb, fc.string({ minLength: MAX_INPUT_LENGTH + 1 })), (text) => {
        fc.pre(text.trim().length > MAX_INPUT_LENGTH);
        expect(parseAmount(text, "btc")).toMatchObject({ ok: false, reason: "too-long" });
      }),
    );
    fc.assert(
      fc.property(fc.oneof(numberishArb, fc.string({ maxLength: 60 })), currencyArb, (text, currency) => {
        const parsed = parseAmount(text, currency);
        if (parsed.ok) expect(text.trim().length).toBeLessThanOrEqual(MAX_INPUT_LENGTH);
      }),
      { numRuns: 2_000 },
    );
  });

  it("never throws, and always answers with a value or a known reason", () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      numberishArb,
      fc.string({ maxLength: 200, unit: "binary-ascii" }),
    );
    fc.assert(
      fc.property(anyText, currencyArb, (text, currency) => {
        const parsed = parseAmount(text, currency);
        if (parsed.ok) {
          expect(parsed.value).toBeInstanceOf(Big);
        } else {
          expect(REFUSALS).toContain(parsed.reason);
          expect(parsed.maxDecimals).toBe(decimalsFor(currency));
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("decimalFrom and toPlainString properties", () => {
  it("decimalFrom never throws and reads back what toPlainString wrote", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.anything()), (value) => {
        const result = decimalFrom(value);
        if (result !== undefined) expect(result).toBeInstanceOf(Big);
      }),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(amountArb, ({ value }) => {
        const text = toPlainString(value);
        expect(text).toMatch(/^\d+(\.\d*[1-9])?$/);
        expect(decimalFrom(text)?.eq(value)).toBe(true);
      }),
    );
  });

  it("a finite double read by decimalFrom prints as the same double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const value = decimalFrom(n);
        expect(value).toBeDefined();
        if (value) expect(Number(toPlainString(value))).toBe(n === 0 ? 0 : n);
      }),
    );
  });
});

describe("formatChange: one rule for every 24 h change shown", () => {
  it.each([
    ["17.5", "en", "+17.50%"],
    ["17.375", "en", "+17.38%"],
    ["17.3849", "en", "+17.38%"],
    ["-1.385", "en", "-1.39%"],
    ["0", "en", "0.00%"],
    ["6", "en", "+6.00%"],
    ["17.5", "de", "+17,50\u00a0%"],
  ])("%s in %s is %s", (value, locale, expected) => {
    expect(formatChange(new Big(value), locale)).toBe(expected);
  });
});
