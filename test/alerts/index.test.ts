import Big from "big.js";
import { describe, expect, it } from "vitest";
import { AlertIndex, alertKey } from "../../src/alerts/alert-index.ts";
import { type Alert, type AlertKind, fires, parseAlertCommand, rearms } from "../../src/alerts/rules.ts";

describe("parseAlertCommand", () => {
  it("reads above, below and change, in English and German", () => {
    expect(parseAlertCommand("btc above 60000")).toEqual({
      ok: true,
      spec: { currency: "btc", kind: "above", level: "60000" },
    });
    expect(parseAlertCommand("ETH below 2000,50")).toEqual({
      ok: true,
      spec: { currency: "eth", kind: "below", level: "2000.5" },
    });
    expect(parseAlertCommand("btc change 5%")).toMatchObject({ spec: { kind: "change", level: "5" } });
    expect(parseAlertCommand("btc change 2.5 %")).toMatchObject({ spec: { kind: "change", level: "2.5" } });
    expect(parseAlertCommand("btc über 60000")).toMatchObject({ spec: { kind: "above" } });
    expect(parseAlertCommand("xrp unter 0.45")).toMatchObject({ spec: { kind: "below", level: "0.45" } });
    expect(parseAlertCommand("btc änderung 5")).toMatchObject({ spec: { kind: "change", level: "5" } });
  });

  it("refuses what is not an alert, with the amount's own reason", () => {
    for (const bad of ["", "btc", "btc above", "btc sideways 5", "btc above 5%", "btc above 1 2"]) {
      expect(parseAlertCommand(bad)).toEqual({ ok: false, reason: "usage" });
    }
    expect(parseAlertCommand("btc above -1")).toMatchObject({ reason: "amount", refusal: "negative" });
    expect(parseAlertCommand("btc above 0")).toMatchObject({ reason: "amount", refusal: "zero" });
    expect(parseAlertCommand("btc above 1e5")).toMatchObject({ reason: "amount", refusal: "exponent" });
    expect(parseAlertCommand("btc change 5.123%")).toMatchObject({ refusal: "too-many-decimals" });
    // ±500 %: the fall it watches cannot happen; 0.1 %: noise. 0.5 % to 100 % are taken.
    for (const bad of [
      "btc change 2000%",
      "btc change 500%",
      "btc ±500%",
      "btc ± 500 %",
      "btc change 0.1%",
    ]) {
      expect(parseAlertCommand(bad), bad).toEqual({ ok: false, reason: "change-out-of-range" });
    }
    expect(parseAlertCommand("btc ±0.5%")).toMatchObject({ spec: { kind: "change", level: "0.5" } });
    expect(parseAlertCommand("btc change 100%")).toMatchObject({ spec: { kind: "change", level: "100" } });
  });
});

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe("AlertIndex", () => {
  it("gives the same events as checking every alert, over a random price path", () => {
    const rnd = random(7);
    const kinds: AlertKind[] = ["above", "below", "change"];
    const alerts: Alert[] = Array.from({ length: 3000 }, (_, i) => {
      const kind = kinds[i % 3] as AlertKind;
      const level = kind === "change" ? (1 + rnd() * 9).toFixed(2) : (900 + rnd() * 200).toFixed(2);
      return { id: `a${i}`, userId: i % 97, currency: i % 2 ? "btc" : "eth", kind, level, createdAt: i };
    });
    const index = new AlertIndex();
    index.load(alerts);
    const armed = new Map(alerts.map((a) => [alertKey(a), true]));

    let price = 1000;
    let change = 0;
    for (let step = 0; step < 400; step++) {
      price = Math.max(850, Math.min(1150, price + (rnd() - 0.5) * 40));
      change = Math.max(-12, Math.min(12, change + (rnd() - 0.5) * 3));
      const p = new Big(price.toFixed(2));
      const c = new Big(change.toFixed(2));
      for (const currency of ["btc", "eth"]) {
        const expected: string[] = [];
        for (const alert of alerts) {
          if (alert.currency !== currency) continue;
          const key = alertKey(alert);
          if (armed.get(key) && fires(alert, p, c)) {
            armed.set(key, false);
            expected.push(`fired ${key}`);
          } else if (!armed.get(key) && rearms(alert, p, c)) {
            armed.set(key, true);
            expected.push(`rearmed ${key}`);
          }
        }
        const got = index.evaluate(currency, p, c).map((e) => `${e.type} ${alertKey(e.alert)}`);
        expect(got.sort()).toEqual(expected.sort());
      }
    }
    for (const alert of alerts) expect(index.isArmed(alert)).toBe(armed.get(alertKey(alert)));
  });

  it("adds, removes and replaces a user's alerts", () => {
    const index = new AlertIndex();
    const alert = (id: string, level: string): Alert => ({
      id,
      userId: 1,
      currency: "btc",
      kind: "above",
      level,
      createdAt: 0,
    });
    index.add(alert("a", "100"));
    index.add(alert("b", "200"));
    expect(index.size).toBe(2);
    expect(index.remove({ userId: 1, id: "a" })).toBe(true);
    expect(index.evaluate("btc", new Big(150), new Big(0))).toEqual([]);
    index.replaceUser(1, [alert("c", "120")], new Set());
    expect(index.size).toBe(1);
    expect(index.evaluate("btc", new Big(150), new Big(0)).map((e) => e.alert.id)).toEqual(["c"]);
    // Fired: nothing more while the price hovers; re-armed under 99 % of 120 (118.80).
    expect(index.evaluate("btc", new Big(119), new Big(0))).toEqual([]);
    expect(index.evaluate("btc", new Big(121), new Big(0))).toEqual([]);
    expect(index.evaluate("btc", new Big("118.79"), new Big(0)).map((e) => e.type)).toEqual(["rearmed"]);
    expect(index.evaluate("btc", new Big(120), new Big(0)).map((e) => e.type)).toEqual(["fired"]);
  });
});
