/**
 * The ground of the partner API's tolerant readings (exchange/partner-fields.ts): lists in any
 * shape, wrappers, a field by any of its names at any depth.
 */
import { describe, expect, it } from "vitest";
import { findField, itemsOf, splitPair, unwrapData } from "../../src/exchange/partner-fields.ts";

describe("the partner answers' shapes", () => {
  it("finds the list in any shape: an array, a wrapper, a list under a key, an object of objects", () => {
    expect(itemsOf({ status: true, data: [1, 2] })).toEqual([1, 2]);
    expect(itemsOf({ status: true, data: { items: [{ a: 1 }] } })).toEqual([{ a: 1 }]);
    expect(itemsOf({ btc: { rate: 1 }, eth: { rate: 2 } })).toEqual([{ rate: 1 }, { rate: 2 }]);
    expect(itemsOf({ status: true, data: { balance: 5 } })).toEqual([{ balance: 5 }]);
    expect(itemsOf({ status: true, data: [] })).toEqual([]);
    expect(unwrapData({ status: true, message: "ok", data: { data: { x: 1 } } })).toEqual({ x: 1 });
    // A `data` field next to others is a field, not a wrapper.
    expect(unwrapData({ data: 1, other: 2 })).toEqual({ data: 1, other: 2 });
  });

  it("finds a field by any of its names at any depth", () => {
    const payload = {
      status: true,
      data: { bank: { IBAN: "DE02 1203 0000 0000 2020 51" }, beneficiaryName: "X" },
    };
    expect(findField(payload, ["iban"])).toBe("DE02 1203 0000 0000 2020 51");
    expect(findField(payload, ["beneficiary_name"])).toBe("X");
    expect(findField(payload, ["bic"])).toBeUndefined();
    expect(findField("text", ["bic"])).toBeUndefined();
  });

  it("splits a pair however it is written", () => {
    expect(splitPair("btceur")).toEqual({ base: "btc", quote: "eur" });
    expect(splitPair("BTC/EUR")).toEqual({ base: "btc", quote: "eur" });
    expect(splitPair("eth_usdt")).toEqual({ base: "eth", quote: "usdt" });
    expect(splitPair("usdceur")).toEqual({ base: "usdc", quote: "eur" });
    expect(splitPair("bitcoin")).toBeUndefined();
  });
});
