/**
 * Every account API method of the client against the running sandbox, over real HTTP on loopback:
 * what went out (method, path, query, body or no body, headers) and what came back, parsed
 * (decimals as exact Big values, timestamps as ISO 8601 UTC).
 */

import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AccountApi, type AccountSession } from "../../src/exchange/account.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { type RecordedRequest, type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { failure } from "../support/failure.ts";

/** 10 s into a 30 s TOTP step. */
const START = Date.parse("2026-03-10T12:00:10Z");
const START_ISO = "2026-03-10T12:00:10.000Z";
/** A well-formed bech32 address (the sandbox checks the shape only). */
const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

let sandbox: Sandbox;
let clock: ManualClock;
let http: HttpClient;
let api: AccountApi;
let token: string;
let session: AccountSession;

beforeEach(async () => {
  clock = new ManualClock(START);
  sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
  // Pinned prices: every EUR value below is exact and known.
  sandbox.setPrice("btc", "40000");
  sandbox.setPrice("eth", "2500");
  sandbox.setPrice("ltc", "70");
  sandbox.setPrice("xrp", "0.5");
  sandbox.setPrice("usdc", "0.9");
  http = new HttpClient({ baseUrl: sandbox.url, retryBaseDelayMs: 1 });
  api = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
  const login = await api.login({
    email: sandbox.demo.email,
    password: sandbox.demo.password,
    securityCode: sandbox.currentCode(),
  });
  token = login.access_token;
  session = api.session(token);
  sandbox.requests.length = 0;
});

afterEach(async () => {
  await http.close();
  await sandbox.close();
});

/** The one request that reached the sandbox since the last call; the record is then cleared. */
function sent(): RecordedRequest {
  const list = sandbox.requests.splice(0);
  expect(list, list.map((r) => `${r.method} ${r.path}`).join(", ")).toHaveLength(1);
  return list[0] as RecordedRequest;
}

/** Method, path and query of an authenticated request without a body. */
function expectGet(request: RecordedRequest, path: string, query: Record<string, string> = {}): void {
  expect(request.method).toBe("GET");
  expect(request.path).toBe(path);
  expect(request.query).toEqual(query);
  expect(request.headers.authorization).toBe(`Bearer ${token}`);
  expectNoBody(request);
}

function expectNoBody(request: RecordedRequest): void {
  expect(request.rawBody).toBe("");
  expect(request.body).toBeUndefined();
  expect(request.headers["content-type"]).toBeUndefined();
}

/** An authenticated POST with a JSON body and no query. */
function expectPost(request: RecordedRequest, path: string, body: Record<string, unknown>): void {
  expect(request.method).toBe("POST");
  expect(request.path).toBe(path);
  expect(request.query).toEqual({});
  expect(request.headers.authorization).toBe(`Bearer ${token}`);
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.body).toStrictEqual(body);
}

function demoAccount() {
  return sandbox.seeded.demo;
}

function balanceOf(currency: string): Big {
  return sandbox.state.balance(demoAccount(), currency);
}

describe("AccountApi.login and logout", () => {
  it("login: POST /v1/auth/login with the credentials, code as a string, no bearer", async () => {
    const code = sandbox.currentCode();
    const login = await api.login({
      email: sandbox.demo.email,
      password: sandbox.demo.password,
      securityCode: code,
    });
    const request = sent();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/auth/login");
    expect(request.query).toEqual({});
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.accept).toBe("application/json");
    expect(request.body).toStrictEqual({
      email: sandbox.demo.email,
      password: sandbox.demo.password,
      security_code: code,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    });
    expect(typeof (request.body as { security_code: unknown }).security_code).toBe("string");
    expect(typeof (request.body as { client_id: unknown }).client_id).toBe("number");

    expect(login.access_token).toMatch(/^\S{20,}$/);
    expect(login.expires_in).toBe(3600);
    expect(sandbox.state.accountForToken(login.access_token)?.email).toBe(sandbox.demo.email);
  });

  it("logout: POST /v1/auth/logout with no body; the token stops working", async () => {
    await expect(session.logout()).resolves.toBeUndefined();
    const request = sent();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/auth/logout");
    expect(request.query).toEqual({});
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expectNoBody(request);
    expect(sandbox.state.tokens.has(token)).toBe(false);

    const after = await failure(session.fiatBalance());
    expect(after.kind).toBe("unauthenticated");
    expect(after.status).toBe(401);
  });
});

describe("AccountSession, read-only resources", () => {
  it("userInfo: GET /v1/user/info", async () => {
    const info = await session.userInfo();
    expectGet(sent(), "/v1/user/info");
    expect(info).toEqual({
      name: "Ada",
      surname: "Lovelace",
      birth_of_date: "1990-12-10",
      address: "Sandstraße",
      building_number: "12",
      city: "Berlin",
      postal_code: "10115",
      country: "DE",
      street_address: "Sandstraße 12",
      email: sandbox.demo.email,
      account_type: "personal",
    });
    // Business fields come as null for a personal account and leave as undefined.
    expect(info.company_name).toBeUndefined();
    expect(info.vat_number).toBeUndefined();
  });

  it("fiatBalance: GET /v1/balance", async () => {
    const { balance } = await session.fiatBalance();
    expectGet(sent(), "/v1/balance");
    expect(balance).toBeInstanceOf(Big);
    expect(balance.toFixed(2)).toBe("10000.00");
  });

  it("totalBalance: GET /v1/total-balance (EUR plus every coin at its price)", async () => {
    const { balance } = await session.totalBalance();
    expectGet(sent(), "/v1/total-balance");
    // 10000 + 0.05×40000 + 1.2×2500 + 10×70 + 500×0.5 + 250×0.9
    expect(balance.eq("16175")).toBe(true);
  });

  it("cryptoBalances: GET /v1/crypto-balances, every coin", async () => {
    const list = await session.cryptoBalances();
    expectGet(sent(), "/v1/crypto-balances");
    expect(list.map((b) => b.currency_code)).toEqual(["btc", "eth", "ltc", "xrp", "usdc"]);
    const expected: Record<string, [string, string]> = {
      btc: ["0.05", "2000"],
      eth: ["1.2", "3000"],
      ltc: ["10", "700"],
      xrp: ["500", "250"],
      usdc: ["250", "225"],
    };
    for (const item of list) {
      const [balance, fiat] = expected[item.currency_code] ?? ["", ""];
      expect(item.balance.eq(balance), item.currency_code).toBe(true);
      expect(item.fiat_conversion.eq(fiat), item.currency_code).toBe(true);
    }
  });

  it("cryptoBalances: GET /v1/crypto-balances?currency_code=eth, one coin", async () => {
    const list = await session.cryptoBalances("eth");
    expectGet(sent(), "/v1/crypto-balances", { currency_code: "eth" });
    expect(list).toHaveLength(1);
    expect(list[0]?.currency_code).toBe("eth");
    expect(list[0]?.balance.toFixed()).toBe("1.2");
    expect(list[0]?.fiat_conversion.toFixed()).toBe("3000");
  });

  it("exchangeRate: GET /v1/exchange-rates?pair=btceur; date normalized to ISO", async () => {
    const rate = await session.exchangeRate("btceur");
    expectGet(sent(), "/v1/exchange-rates", { pair: "btceur" });
    expect(rate.pair).toBe("btceur");
    expect(rate.price.eq("40000")).toBe(true);
    // The sandbox sends "2026-03-10 12:00:10.000" (no zone); it leaves as UTC ISO.
    expect(rate.date).toBe(START_ISO);
    expect(rate.timestamp).toBe(START / 1000);
  });

  it("prices: GET /v1/prices", async () => {
    const prices = await session.prices();
    expectGet(sent(), "/v1/prices");
    expect(prices.map((p) => [p.currency_code, p.currency_name, p.price.toFixed()])).toEqual([
      ["btc", "Bitcoin", "40000"],
      ["eth", "Ethereum", "2500"],
      ["ltc", "Litecoin", "70"],
      ["xrp", "XRP", "0.5"],
      ["usdc", "USD Coin", "0.9"],
    ]);
    for (const item of prices) {
      const change = sandbox.market.change24h(item.currency_code, clock.now());
      expect(item["24hr_change"].eq(change), item.currency_code).toBe(true);
    }
  });

  it("minerFee: GET /v1/fees/miner-fee?currency_code=btc", async () => {
    const fee = await session.minerFee("btc");
    expectGet(sent(), "/v1/fees/miner-fee", { currency_code: "btc" });
    expect(fee.toFixed()).toBe("0.0001");
  });

  it("fee: GET /v1/fees/buy and /v1/fees/sell with the EUR amount as an exact string", async () => {
    const buy = await session.fee("buy", { amount: new Big("150.5") });
    expectGet(sent(), "/v1/fees/buy", { amount: "150.5" });
    // 1.5 % of 150.50 = 2.2575, half-up to the cent.
    expect(buy.toFixed(2)).toBe("2.26");

    const sell = await session.fee("sell", { amount: new Big("200.10") });
    expectGet(sent(), "/v1/fees/sell", { amount: "200.1" });
    expect(sell.eq("3")).toBe(true);
  });

  it("fee: GET /v1/fees/send?currency_code=btc, in the crypto", async () => {
    const fee = await session.fee("send", { currencyCode: "btc" });
    expectGet(sent(), "/v1/fees/send", { currency_code: "btc" });
    expect(fee.toFixed()).toBe("0.0002");
  });

  it("limits: GET /v1/limits without type gives all five records", async () => {
    const limits = await session.limits();
    expectGet(sent(), "/v1/limits");
    expect(limits.map((l) => l.limit.code)).toEqual([
      "fiat_deposit",
      "crypto_deposit",
      "fiat_withdrawal",
      "crypto_withdrawal",
      "credit_card_buy",
    ]);
    const fiatDeposit = limits[0];
    expect(fiatDeposit?.status).toBe("listed");
    expect(fiatDeposit?.limit).toMatchObject({ id: 1, tier: "basic", state: "active" });
    // Laravel's microsecond timestamps, normalized.
    expect(fiatDeposit?.limit.created_at).toBe("2026-02-08T12:00:10.000Z");
    expect(fiatDeposit?.limit.updated_at).toBe("2026-02-08T12:00:10.000Z");
    expect(fiatDeposit?.limit.daily.eq("15000")).toBe(true);
    expect(fiatDeposit?.limit.monthly.eq("50000")).toBe(true);
    expect(fiatDeposit?.spent.day_used.eq(0)).toBe(true);
    expect(fiatDeposit?.spent.month_used.eq(0)).toBe(true);
  });

  it("limits: GET /v1/limits?type=credit_card_buy gives one record (as a list), with what a buy used", async () => {
    await session.buy({ amount: new Big("150.5"), currencyCode: "btc" });
    sandbox.requests.length = 0;
    const limits = await session.limits("credit_card_buy");
    expectGet(sent(), "/v1/limits", { type: "credit_card_buy" });
    expect(limits).toHaveLength(1);
    const record = limits[0];
    expect(record?.limit.code).toBe("credit_card_buy");
    expect(record?.limit.id).toBe(5);
    expect(record?.limit.daily.eq("5000")).toBe(true);
    expect(record?.limit.monthly.eq("20000")).toBe(true);
    expect(record?.spent.day_used.toFixed(2)).toBe("150.50");
    expect(record?.spent.month_used.toFixed(2)).toBe("150.50");
  });

  it("minimum: GET /v1/limits/minimum/{type}?currency_code=", async () => {
    const buy = await session.minimum("buy", "btc");
    expectGet(sent(), "/v1/limits/minimum/buy", { currency_code: "btc" });
    expect(buy.toFixed(2)).toBe("10.00");

    const sell = await session.minimum("sell", "btc");
    expectGet(sent(), "/v1/limits/minimum/sell", { currency_code: "btc" });
    expect(sell.toFixed()).toBe("0.0002");

    const send = await session.minimum("send", "eth");
    expectGet(sent(), "/v1/limits/minimum/send", { currency_code: "eth" });
    expect(send.toFixed()).toBe("0.01");
  });

  it("assetStatus: GET /v1/assets-status/{type}?currency_code=, true or false", async () => {
    expect(await session.assetStatus("buy", "btc")).toBe(true);
    expectGet(sent(), "/v1/assets-status/buy", { currency_code: "btc" });

    sandbox.faults.closeAsset("receive", "eth");
    expect(await session.assetStatus("receive", "eth")).toBe(false);
    expectGet(sent(), "/v1/assets-status/receive", { currency_code: "eth" });
  });
});

describe("AccountSession, addresses", () => {
  it("addresses: GET /v1/addresses lists the seeded BTC address", async () => {
    const list = await session.addresses();
    expectGet(sent(), "/v1/addresses");
    const seeded = sandbox.state.addressesOf(demoAccount());
    expect(list).toEqual(
      seeded.map((a) => ({ currency_name: "Bitcoin", currency_code: "btc", address: a.address })),
    );
    expect(list[0]?.address).toMatch(/^bc1q/);
  });

  it("createAddress: POST /v1/addresses {currency_code}; the new address is then listed", async () => {
    const created = await session.createAddress("eth");
    expectPost(sent(), "/v1/addresses", { currency_code: "eth" });
    expect(created.currency_name).toBe("Ethereum");
    expect(created.currency_code).toBe("eth");
    expect(created.address).toMatch(/^0x[0-9a-f]{40}$/);

    const list = await session.addresses();
    sent();
    expect(list.map((a) => a.address)).toContain(created.address);
    expect(list).toHaveLength(2);
  });
});

describe("AccountSession, orders and money", () => {
  it("buy: POST /v1/buy {amount as exact string, currency_code}; EUR drops by amount plus fee, BTC grows on settling", async () => {
    await expect(session.buy({ amount: new Big("150.50"), currencyCode: "btc" })).resolves.toBeUndefined();
    const request = sent();
    expectPost(request, "/v1/buy", { amount: "150.5", currency_code: "btc" });
    expect(request.rawBody).toBe('{"amount":"150.5","currency_code":"btc"}');

    // The sandbox charges the 1.5 % fee on top: 150.50 + 2.26.
    expect((await session.fiatBalance()).balance.toFixed(2)).toBe("9847.24");
    // Crypto arrives when the order settles, not before.
    expect((await session.cryptoBalances("btc"))[0]?.balance.toFixed()).toBe("0.05");
    clock.advance(5_000);
    // 150.50 / 40000 = 0.0037625 BTC
    expect((await session.cryptoBalances("btc"))[0]?.balance.toFixed()).toBe("0.0537625");
    expect(balanceOf("btc").toFixed()).toBe("0.0537625");
  });

  it("sell: POST /v1/sell; the coin drops at once, EUR (less the fee) arrives on settling", async () => {
    await expect(session.sell({ amount: new Big("0.1"), currencyCode: "eth" })).resolves.toBeUndefined();
    expectPost(sent(), "/v1/sell", { amount: "0.1", currency_code: "eth" });
    expect(balanceOf("eth").toFixed()).toBe("1.1");
    expect(balanceOf("eur").toFixed(2)).toBe("10000.00");
    clock.advance(5_000);
    // 0.1 × 2500 = 250.00, fee 3.75
    expect((await session.fiatBalance()).balance.toFixed(2)).toBe("10246.25");
  });

  it("transactions: GET /v1/transactions shows the order opened, then success once the clock has moved", async () => {
    await session.buy({ amount: new Big("150.5"), currencyCode: "btc" });
    sandbox.requests.length = 0;

    const opened = await session.transactions();
    expectGet(sent(), "/v1/transactions");
    expect(opened).toHaveLength(1);
    const order = opened[0];
    expect(order).toMatchObject({
      id: 1001,
      state: "opened",
      transaction_type: "buy_crypto",
      created_at: START_ISO,
      updated_at: START_ISO,
      // Extra fields are kept.
      currency_code: "btc",
      amount: "150.50",
      fee: "2.26",
    });

    clock.advance(5_000);
    const settled = await session.transactions();
    sent();
    expect(settled[0]).toMatchObject({
      id: 1001,
      state: "success",
      created_at: START_ISO,
      updated_at: "2026-03-10T12:00:15.000Z",
    });
  });

  it("transactions: start, length and currency_code go out as query parameters", async () => {
    await session.buy({ amount: new Big("100"), currencyCode: "btc" }); // 1001
    await session.buy({ amount: new Big("50"), currencyCode: "eth" }); // 1002
    await session.sell({ amount: new Big("0.01"), currencyCode: "btc" }); // 1003
    sandbox.requests.length = 0;

    const page = await session.transactions({ start: 1, length: 1 });
    expectGet(sent(), "/v1/transactions", { start: "1", length: "1" });
    expect(page.map((t) => t.id)).toEqual([1002]);

    const btc = await session.transactions({ start: 0, length: 10, currencyCode: "btc" });
    expectGet(sent(), "/v1/transactions", { start: "0", length: "10", currency_code: "btc" });
    expect(btc.map((t) => [t.id, t.transaction_type])).toEqual([
      [1003, "sell_crypto"],
      [1001, "buy_crypto"],
    ]);
  });

  it("transaction: GET /v1/transactions/{id}", async () => {
    await session.buy({ amount: new Big("100"), currencyCode: "btc" });
    clock.advance(5_000);
    sandbox.requests.length = 0;
    const tx = await session.transaction(1001);
    expectGet(sent(), "/v1/transactions/1001");
    expect(tx).toMatchObject({
      id: 1001,
      state: "success",
      transaction_type: "buy_crypto",
      created_at: START_ISO,
      updated_at: "2026-03-10T12:00:15.000Z",
      crypto_amount: "0.0025",
    });
  });

  it("send: POST /v1/send with security_code as an integer; amount plus fees leave the balance", async () => {
    const code = sandbox.currentCode();
    await expect(
      session.send({
        amount: new Big("0.001"),
        address: BTC_ADDRESS,
        currencyCode: "btc",
        securityCode: code,
      }),
    ).resolves.toBeUndefined();
    const request = sent();
    expectPost(request, "/v1/send", {
      amount: "0.001",
      address: BTC_ADDRESS,
      currency_code: "btc",
      security_code: Number(code),
    });
    expect(typeof (request.body as { security_code: unknown }).security_code).toBe("number");
    // 0.05 − (0.001 + send fee 0.0002 + miner fee 0.0001)
    expect(balanceOf("btc").toFixed()).toBe("0.0487");

    const [tx] = await session.transactions();
    expect(tx).toMatchObject({ transaction_type: "crypto_withdraw", state: "opened", amount: "0.001" });
    const [limit] = await session.limits("crypto_withdrawal");
    expect(limit?.spent.day_used.eq("40")).toBe(true);
  });

  it("fiatWithdrawal: POST /v1/fiat-withdrawal {amount, reference_number, security_code integer}", async () => {
    const [bank] = await session.bankAccounts();
    sandbox.requests.length = 0;
    const reference = bank?.reference_number ?? "";
    const code = sandbox.currentCode();
    await expect(
      session.fiatWithdrawal({ amount: new Big("250.50"), referenceNumber: reference, securityCode: code }),
    ).resolves.toBeUndefined();
    const request = sent();
    expectPost(request, "/v1/fiat-withdrawal", {
      amount: "250.5",
      reference_number: reference,
      security_code: Number(code),
    });
    expect(typeof (request.body as { security_code: unknown }).security_code).toBe("number");
    expect((await session.fiatBalance()).balance.toFixed(2)).toBe("9749.50");
  });
});

describe("AccountSession, bank accounts", () => {
  it("bankAccounts: GET /v1/bank-accounts (a bare array) with timestamps normalized", async () => {
    const list = await session.bankAccounts();
    expectGet(sent(), "/v1/bank-accounts");
    expect(list).toHaveLength(1);
    const seeded = sandbox.state.bankAccountsOf(demoAccount())[0];
    expect(list[0]).toEqual({
      id: seeded?.id,
      name: "Sandbox Sparkasse",
      iban: "DE89370400440532013000",
      swift_bic: "COBADEFFXXX",
      reference_number: seeded?.reference_number,
      state: "verified",
      created_at: START_ISO,
      updated_at: START_ISO,
    });
    expect(list[0]?.reference_number).toMatch(/^RF\d{2}/);
  });

  it("addBankAccount: POST /v1/bank-accounts with name, iban, swift_bic, amount as QUERY parameters and no body", async () => {
    const reference = await session.addBankAccount({
      name: "Test Bank",
      iban: "GB33BUKB20201555555555",
      swiftBic: "BUKBGB22",
      amount: new Big("1.20"),
    });
    const request = sent();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/bank-accounts");
    expect(request.query).toEqual({
      name: "Test Bank",
      iban: "GB33BUKB20201555555555",
      swift_bic: "BUKBGB22",
      amount: "1.2",
    });
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expectNoBody(request);

    expect(reference).toMatch(/^RF\d{2}[0-9A-Z]+$/);
    const list = await session.bankAccounts();
    const added = list.find((b) => b.reference_number === reference);
    expect(added).toMatchObject({ name: "Test Bank", iban: "GB33BUKB20201555555555", state: "pending" });
  });

  it("removeBankAccount: DELETE /v1/bank-accounts/{id} with no body; the last one stays", async () => {
    const reference = await session.addBankAccount({
      name: "Test Bank",
      iban: "GB33BUKB20201555555555",
      swiftBic: "BUKBGB22",
      amount: new Big("1"),
    });
    const added = (await session.bankAccounts()).find((b) => b.reference_number === reference);
    const id = added?.id ?? 0;
    sandbox.requests.length = 0;

    await expect(session.removeBankAccount(id)).resolves.toBeUndefined();
    const request = sent();
    expect(request.method).toBe("DELETE");
    expect(request.path).toBe(`/v1/bank-accounts/${id}`);
    expect(request.query).toEqual({});
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expectNoBody(request);
    expect(sandbox.state.bankAccounts.has(id)).toBe(false);

    const [last] = await session.bankAccounts();
    const refused = await failure(session.removeBankAccount(last?.id ?? 0));
    expect(refused.kind).toBe("validation");
    expect(refused.fieldErrors.bank_account).toEqual(["At least one bank account must remain."]);
  });
});
