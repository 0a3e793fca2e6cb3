import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccountSession } from "../../src/exchange/account.ts";
import { Market } from "../../src/sandbox/market.ts";
import { call, type Harness, harness, loginToken, START } from "./helpers.ts";

describe("market", () => {
  it("drifts smoothly and deterministically with the clock", () => {
    const a = new Market();
    const b = new Market();
    const t = START;
    expect(a.price("btc", t).toFixed()).toBe(b.price("btc", t).toFixed());
    const prices = Array.from({ length: 60 }, (_, i) => Number(a.price("btc", t + i * 60_000).toFixed()));
    expect(new Set(prices).size).toBeGreaterThan(30);
    for (let i = 1; i < prices.length; i++) {
      const step = Math.abs((prices[i] as number) - (prices[i - 1] as number)) / (prices[i - 1] as number);
      expect(step).toBeLessThan(0.005);
    }
    for (const price of prices) {
      expect(price).toBeGreaterThan(60000 * 0.96);
      expect(price).toBeLessThan(60000 * 1.04);
    }
  });

  it("pins a price set by hand and reports the 24 h change against the price a day earlier", () => {
    const market = new Market();
    const t = START;
    const dayAgo = market.price("eth", t - 24 * 3600_000);
    market.setPrice("eth", dayAgo.times(1.1).round(2), t);
    expect(market.change24h("eth", t).toFixed(2)).toBe("10.00");
    expect(market.price("eth", t + 3600_000).toFixed()).toBe(market.price("eth", t).toFixed());
    // History before the change is untouched.
    expect(market.price("eth", t - 1).eq(market.price("eth", t))).toBe(false);
  });

  it("can move the level and keep drifting around it", () => {
    const market = new Market();
    const t = START;
    market.setPrice("ltc", market.price("ltc", t).times(2).round(2), t, { drift: true });
    const later = market.price("ltc", t + 30 * 60_000);
    expect(later.eq(market.price("ltc", t))).toBe(false);
    expect(Number(later.toFixed())).toBeGreaterThan(150);
  });
});

describe("price endpoints", () => {
  let h: Harness;
  let session: AccountSession;
  beforeEach(async () => {
    h = await harness();
    session = await h.login();
  });
  afterEach(async () => {
    await h.close();
  });

  it("lists every currency with name, price and 24 h change as numbers", async () => {
    const token = await loginToken(h.sandbox);
    const reply = await call(h.sandbox, "GET", "/v1/prices", { token });
    const codes = reply.body.data.map((p: { currency_code: string }) => p.currency_code);
    expect(codes).toEqual(["btc", "eth", "ltc", "xrp", "usdc"]);
    for (const item of reply.body.data) {
      expect(typeof item.price).toBe("number");
      expect(typeof item["24hr_change"]).toBe("number");
      expect(item.currency_name.length).toBeGreaterThan(2);
    }
    h.sandbox.setPrice("xrp", "0.6123");
    const xrp = (await session.prices()).find((p) => p.currency_code === "xrp");
    expect(xrp?.price.toFixed()).toBe("0.6123");
  });

  it("answers one pair's rate with the spec's date format, refuses unknown pairs with 422", async () => {
    const rate = await session.exchangeRate("btceur");
    expect(rate.pair).toBe("btceur");
    const token = await loginToken(h.sandbox);
    const raw = await call(h.sandbox, "GET", "/v1/exchange-rates?pair=ethusd", { token });
    expect(raw.status).toBe(422);
    expect(raw.body.errors.pair).toEqual(["The selected pair is invalid."]);
    const ok = await call(h.sandbox, "GET", "/v1/exchange-rates?pair=btceur", { token });
    expect(ok.body.date).toBe("2026-03-10 12:00:10.000");
    expect(ok.body.timestamp).toBe(Math.floor(START / 1000));
  });

  it("values balances at the current price", async () => {
    h.sandbox.setPrice("btc", "50000");
    h.sandbox.setPrice("eth", "2000");
    h.sandbox.setPrice("ltc", "100");
    h.sandbox.setPrice("xrp", "0.5");
    h.sandbox.setPrice("usdc", "1");
    const [btc] = await session.cryptoBalances("btc");
    expect(btc?.fiat_conversion.toFixed()).toBe("2500");
    // 10,000 + 2,500 + 2,400 + 1,000 + 250 + 250
    expect((await session.totalBalance()).balance.toFixed(2)).toBe("16400.00");
    expect(await session.cryptoBalances()).toHaveLength(5);
  });
});

describe("robustness", () => {
  it("serves hundreds of concurrent requests", async () => {
    const h = await harness({ rateLimitPerMinute: 0 });
    try {
      const token = await loginToken(h.sandbox);
      const replies = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          call(h.sandbox, "GET", i % 2 ? "/v1/prices" : "/v1/balance", { token }).then((r) => r.status),
        ),
      );
      expect(replies.every((s) => s === 200)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("answers 404 for unknown routes, 405 for a wrong method, 400 for broken JSON", async () => {
    const h = await harness();
    try {
      const token = await loginToken(h.sandbox);
      const missing = await call(h.sandbox, "GET", "/v1/nothing-here", { token });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toMatch(/could not be found/);
      expect((await call(h.sandbox, "GET", "/v1/buy", { token })).status).toBe(405);
      const broken = await fetch(`${h.sandbox.url}/v1/buy`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{nope",
      });
      expect(broken.status).toBe(400);
      await broken.text();
      expect((await call(h.sandbox, "GET", "/v1/assets-status/fly?currency_code=btc")).status).toBe(404);
      expect((await call(h.sandbox, "GET", "/v1/fees/swap?amount=1", { token })).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
