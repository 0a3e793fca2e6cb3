import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccountSession } from "../../src/exchange/account.ts";
import { call, failure, type Harness, harness, loginToken } from "./helpers.ts";

let h: Harness;
let session: AccountSession;
beforeEach(async () => {
  h = await harness({ rateLimitPerMinute: 0 });
  h.sandbox.setPrice("btc", "50000");
  h.sandbox.setPrice("eth", "2500");
  session = await h.login();
});
afterEach(async () => {
  await h.close();
});

const b = (v: string) => new Big(v);

async function balanceOf(code: string): Promise<string> {
  if (code === "eur") return (await session.fiatBalance()).balance.toFixed(2);
  const [item] = await session.cryptoBalances(code);
  return item?.balance.toFixed() ?? "missing";
}

describe("buy", () => {
  it("charges amount + 1.5 % fee in EUR now and credits the crypto when it settles", async () => {
    expect((await session.fee("buy", { amount: b("100") })).toFixed(2)).toBe("1.50");
    await session.buy({ amount: b("100"), currencyCode: "btc" });
    expect(await balanceOf("eur")).toBe("9898.50");
    expect(await balanceOf("btc")).toBe("0.05");

    const [opened] = await session.transactions();
    expect(opened).toMatchObject({
      state: "opened",
      transaction_type: "buy_crypto",
      amount: "100.00",
      fee: "1.50",
      currency_code: "btc",
      crypto_amount: "0.002",
    });

    h.clock.advance(4_999);
    expect((await session.transaction(opened?.id as number)).state).toBe("opened");
    h.clock.advance(1);
    expect((await session.transaction(opened?.id as number)).state).toBe("success");
    expect(await balanceOf("btc")).toBe("0.052");
    expect(await balanceOf("eur")).toBe("9898.50");
  });

  it("takes the amount as a JSON number too", async () => {
    const token = await loginToken(h.sandbox);
    const reply = await call(h.sandbox, "POST", "/v1/buy", {
      token,
      body: { amount: 20, currency_code: "eth" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "created" });
  });

  it("refuses below the minimum, over the balance, bad input and unknown currencies", async () => {
    expect((await session.minimum("buy", "btc")).toFixed(2)).toBe("10.00");
    const low = await failure(session.buy({ amount: b("9.99"), currencyCode: "btc" }));
    expect(low.status).toBe(422);
    expect(low.fieldErrors.amount?.[0]).toMatch(/at least 10\.00/);

    // 10,000 EUR balance: 9,900 + 148.50 fee is too much.
    const poor = await failure(session.buy({ amount: b("9900"), currencyCode: "btc" }));
    expect(poor.fieldErrors.amount?.[0]).toMatch(/Insufficient/);

    const token = await loginToken(h.sandbox);
    const bad = await call(h.sandbox, "POST", "/v1/buy", {
      token,
      body: { amount: "1e2x", currency_code: "doge" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.amount).toEqual(["The amount field must be a number."]);
    expect(bad.body.errors.currency_code).toEqual(["The selected currency code is invalid."]);
    const missing = await call(h.sandbox, "POST", "/v1/buy", { token, body: {} });
    expect(missing.body.message).toBe("The amount field is required. (and 1 more error)");
    expect(await balanceOf("eur")).toBe("10000.00");
  });

  it("is refused while the asset is closed for buying", async () => {
    h.sandbox.faults.closeAsset("buy", "btc");
    expect(await session.assetStatus("buy", "btc")).toBe(false);
    expect(await session.assetStatus("sell", "btc")).toBe(true);
    const error = await failure(session.buy({ amount: b("50"), currencyCode: "btc" }));
    expect(error.fieldErrors.currency_code?.[0]).toMatch(/unavailable/);
    h.sandbox.faults.openAsset("buy", "btc");
    await session.buy({ amount: b("50"), currencyCode: "btc" });
  });

  it("ends in error and refunds when the error switch is on", async () => {
    h.sandbox.faults.settleOrdersAs("error");
    await session.buy({ amount: b("200"), currencyCode: "eth" });
    expect(await balanceOf("eur")).toBe("9797.00");
    const [limitBefore] = await session.limits("credit_card_buy");
    expect(limitBefore?.spent.day_used.toFixed()).toBe("200");
    h.clock.advance(5_000);
    const [tx] = await session.transactions();
    expect(tx?.state).toBe("error");
    expect(await balanceOf("eur")).toBe("10000.00");
    expect(await balanceOf("eth")).toBe("1.2");
    const [limitAfter] = await session.limits("credit_card_buy");
    expect(limitAfter?.spent.day_used.toFixed()).toBe("0");
  });
});

describe("sell", () => {
  it("takes the crypto now and credits EUR less 1.5 % on success", async () => {
    await session.sell({ amount: b("0.01"), currencyCode: "btc" });
    expect(await balanceOf("btc")).toBe("0.04");
    h.clock.advance(5_000);
    // 0.01 × 50,000 = 500.00, fee 7.50.
    expect(await balanceOf("eur")).toBe("10492.50");
    const [tx] = await session.transactions();
    expect(tx).toMatchObject({
      transaction_type: "sell_crypto",
      state: "success",
      fee: "7.50",
      fiat_amount: "492.50",
    });
  });

  it("refuses more than the balance and below the minimum", async () => {
    expect((await failure(session.sell({ amount: b("0.06"), currencyCode: "btc" }))).status).toBe(422);
    expect((await session.minimum("sell", "btc")).toFixed()).toBe("0.0002");
    expect((await failure(session.sell({ amount: b("0.0001"), currencyCode: "btc" }))).status).toBe(422);
  });
});

describe("send", () => {
  const address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

  it("needs a current 2FA code and charges amount + send fee + miner fee", async () => {
    expect((await session.fee("send", { currencyCode: "btc" })).toFixed()).toBe("0.0002");
    expect((await session.minerFee("btc")).toFixed()).toBe("0.0001");
    const wrong = await failure(
      session.send({ amount: b("0.01"), address, currencyCode: "btc", securityCode: "000000" }),
    );
    expect(wrong.fieldErrors.security_code).toBeDefined();
    expect(await balanceOf("btc")).toBe("0.05");

    await session.send({
      amount: b("0.01"),
      address,
      currencyCode: "btc",
      securityCode: h.sandbox.currentCode(),
    });
    expect(await balanceOf("btc")).toBe("0.0397");
    const [tx] = await session.transactions({ currencyCode: "btc" });
    expect(tx).toMatchObject({
      transaction_type: "crypto_withdraw",
      state: "opened",
      address,
      amount: "0.01",
    });
    const [limit] = await session.limits("crypto_withdrawal");
    expect(limit?.spent.day_used.toFixed()).toBe("500");
  });

  it("refuses an address of the wrong shape", async () => {
    const error = await failure(
      session.send({
        amount: b("0.01"),
        address: "0x1234",
        currencyCode: "btc",
        securityCode: h.sandbox.currentCode(),
      }),
    );
    expect(error.fieldErrors.address).toEqual(["The address format is invalid."]);
  });
});

describe("limits", () => {
  it("fill up with each buy and refuse past the daily ceiling, then reset the next UTC day", async () => {
    h.sandbox.state.credit(h.sandbox.seeded.demo, "eur", b("100000"));
    const all = await session.limits();
    expect(all.map((l) => l.limit.code).sort()).toEqual(
      ["credit_card_buy", "crypto_deposit", "crypto_withdrawal", "fiat_deposit", "fiat_withdrawal"].sort(),
    );
    const [start] = await session.limits("credit_card_buy");
    expect(start?.limit.daily.toFixed()).toBe("5000");
    expect(start?.limit.tier).toBe("basic");
    expect(start?.limit.state).toBe("active");

    await session.buy({ amount: b("3000"), currencyCode: "btc" });
    await session.buy({ amount: b("1500"), currencyCode: "eth" });
    const [mid] = await session.limits("credit_card_buy");
    expect(mid?.spent.day_used.toFixed()).toBe("4500");
    expect(mid?.spent.month_used.toFixed()).toBe("4500");

    const over = await failure(session.buy({ amount: b("600"), currencyCode: "btc" }));
    expect(over.status).toBe(422);
    expect(over.fieldErrors.amount?.[0]).toMatch(/daily credit_card_buy limit/);
    await session.buy({ amount: b("500"), currencyCode: "btc" });

    h.clock.advance(24 * 3600_000);
    session = await h.login();
    const [nextDay] = await session.limits("credit_card_buy");
    expect(nextDay?.spent.day_used.toFixed()).toBe("0");
    expect(nextDay?.spent.month_used.toFixed()).toBe("5000");
  });

  it("answers one record for a type and refuses an unknown type", async () => {
    const token = await loginToken(h.sandbox);
    const one = await call(h.sandbox, "GET", "/v1/limits?type=fiat_withdrawal", { token });
    expect(one.body.status).toBe("listed");
    expect(one.body.limit.code).toBe("fiat_withdrawal");
    expect(typeof one.body.limit.daily).toBe("number");
    const bad = await call(h.sandbox, "GET", "/v1/limits?type=weekly", { token });
    expect(bad.status).toBe(422);
  });
});

describe("transactions", () => {
  it("list newest first, page with start/length, filter by currency, 404 for others'", async () => {
    await session.buy({ amount: b("10"), currencyCode: "btc" });
    await session.buy({ amount: b("20"), currencyCode: "eth" });
    await session.buy({ amount: b("30"), currencyCode: "btc" });
    const all = await session.transactions();
    expect(all.map((t) => t.amount)).toEqual(["30.00", "20.00", "10.00"]);
    expect((await session.transactions({ start: 1, length: 1 })).map((t) => t.amount)).toEqual(["20.00"]);
    expect((await session.transactions({ currencyCode: "btc" })).map((t) => t.amount)).toEqual([
      "30.00",
      "10.00",
    ]);

    const business = await h.login("business@sandbox.test", "business-password-1");
    const error = await failure(business.transaction(all[0]?.id as number));
    expect(error.status).toBe(404);
    expect((await failure(session.transaction(999_999))).status).toBe(404);
  });

  it("carry the spec's timestamp format", async () => {
    await session.buy({ amount: b("10"), currencyCode: "btc" });
    const token = await loginToken(h.sandbox);
    const reply = await call(h.sandbox, "GET", "/v1/transactions", { token });
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body[0].created_at).toBe("2026-03-10 12:00:10.000");
  });

  it("stay consistent under many concurrent orders: never more spent than the balance", async () => {
    const demo = h.sandbox.seeded.demo;
    h.sandbox.state.debit(demo, "eur", b("9000"));
    // 1,000 EUR: each order costs 101.50, so at most 9 of 30 can pass.
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => session.buy({ amount: b("100"), currencyCode: "btc" })),
    );
    const passed = results.filter((r) => r.status === "fulfilled").length;
    expect(passed).toBe(9);
    expect(await balanceOf("eur")).toBe("86.50");
  });
});
