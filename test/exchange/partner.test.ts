/**
 * Every partner API method of the client against the running sandbox, over real HTTP on loopback:
 * the request (prefix, `X-Requested-With`, the partner bearer, query and body) and the result,
 * parsed where the spec gives a shape and read tolerantly into a typed result where it does not
 * (exchange/partner-schemas.ts; its tolerance for other shapes: partner-schemas.test.ts).
 */

import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../src/exchange/http.ts";
import { PartnerApi } from "../../src/exchange/partner.ts";
import { type RecordedRequest, type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { failure } from "../support/failure.ts";

const START = Date.parse("2026-03-10T12:00:10Z");
const P = "/api/v1/partners";

let sandbox: Sandbox;
let clock: ManualClock;
let http: HttpClient;
let partner: PartnerApi;
/** The seeded partner user: passed KYC, 1000 EUR, one verified bank account. */
let userId: number;

beforeEach(async () => {
  clock = new ManualClock(START);
  sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
  sandbox.setPrice("btc", "40000");
  sandbox.setPrice("eth", "2500");
  http = new HttpClient({ baseUrl: sandbox.url, retryBaseDelayMs: 1 });
  partner = new PartnerApi(http, sandbox.partnerToken);
  userId = sandbox.seeded.partnerUser.id;
});

afterEach(async () => {
  await http.close();
  await sandbox.close();
});

/** The one request that reached the sandbox since the last call, with the partner headers. */
function sent(method: string, path: string, query: Record<string, string> = {}): RecordedRequest {
  const list = sandbox.requests.splice(0);
  expect(list, list.map((r) => `${r.method} ${r.path}`).join(", ")).toHaveLength(1);
  const request = list[0] as RecordedRequest;
  expect(request.method).toBe(method);
  expect(request.path).toBe(path);
  expect(request.query).toEqual(query);
  expect(request.headers["x-requested-with"]).toBe("XMLHttpRequest");
  expect(request.headers.authorization).toBe(`Bearer ${sandbox.partnerToken}`);
  return request;
}

function expectNoBody(request: RecordedRequest): void {
  expect(request.rawBody).toBe("");
  expect(request.body).toBeUndefined();
  expect(request.headers["content-type"]).toBeUndefined();
}

function expectJsonBody(request: RecordedRequest, body: Record<string, unknown>): void {
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.body).toStrictEqual(body);
}

function seededBank() {
  const bank = sandbox.state.bankAccountsOf(sandbox.seeded.partnerUser)[0];
  if (!bank) throw new Error("the seeded partner user has no bank account");
  return bank;
}

describe("PartnerApi, users and KYC", () => {
  it("createUser: POST /api/v1/partners/users; the new id is parsed", async () => {
    const created = await partner.createUser({
      email: "nina@example.com",
      name: "Nina",
      surname: "Neu",
      phone: "+49301234567",
    });
    const request = sent("POST", `${P}/users`);
    expectJsonBody(request, {
      email: "nina@example.com",
      name: "Nina",
      surname: "Neu",
      phone: "+49301234567",
    });
    expect(created).toEqual({ id: expect.any(Number) });
    expect(sandbox.state.partnerUser(created.id)?.email).toBe("nina@example.com");
  });

  it("getUser: GET /api/v1/partners/users/{id}; kyc_status parsed", async () => {
    const user = await partner.getUser(userId);
    expectNoBody(sent("GET", `${P}/users/${userId}`));
    expect(user).toMatchObject({
      email: "partner-user@sandbox.test",
      name: "Pat",
      surname: "Partner",
      phone: "+43123456789",
      date_of_birth: "1992-03-04",
      country: "AUT",
      status: "active",
      kyc_status: "passed",
      edd_status: "not_required",
    });

    const { id } = await partner.createUser({ email: "new@example.com", name: "N", surname: "U" });
    sandbox.requests.length = 0;
    expect((await partner.getUser(id)).kyc_status).toBe("not_started");
    sent("GET", `${P}/users/${id}`);
  });

  it("updateUser: POST /api/v1/partners/users with the id in the body; the answer is an acknowledgement", async () => {
    const reply = await partner.updateUser({ id: userId, city: "Graz" });
    expectJsonBody(sent("POST", `${P}/users`), { id: userId, city: "Graz" });
    expect(reply).toEqual({ kind: "ack", status: true });
    expect((await partner.getUser(userId)).city).toBe("Graz");
  });

  it("importKyc: POST /v1/users/{id}/kyc-import (no partner prefix) {token}; status parsed", async () => {
    const { id } = await partner.createUser({ email: "kyc@example.com", name: "K", surname: "Y" });
    sandbox.requests.length = 0;
    expect(await partner.importKyc(id, "share-token-abc")).toBe(true);
    expectJsonBody(sent("POST", `/v1/users/${id}/kyc-import`), { token: "share-token-abc" });

    expect((await partner.getUser(id)).kyc_status).toBe("pending");
    clock.advance(60_000);
    expect((await partner.getUser(id)).kyc_status).toBe("passed");
  });
});

describe("PartnerApi, balances and limits", () => {
  it("userBalance: GET /api/v1/partners/users/{id}/balances; balances read, each with its EUR value", async () => {
    const reply = await partner.userBalance(userId);
    expectNoBody(sent("GET", `${P}/users/${userId}/balances`));
    expect(reply.rest).toEqual([]);
    expect(reply.rows[0]?.currency).toBe("eur");
    expect(reply.rows[0]?.amount.toFixed(2)).toBe("1000.00");
    expect(reply.rows[0]?.eur?.toFixed(2)).toBe("1000.00");
    expect(reply.rows.map((b) => b.currency)).toEqual(["eur", "btc", "eth", "ltc", "xrp", "usdc"]);
    expect(reply.spendable.get("eur")?.toFixed(2)).toBe("1000.00");
  });

  it("masterBalance: GET /api/v1/partners/balances?currency_code=; balance parsed to Big", async () => {
    const btc = await partner.masterBalance("btc");
    expectNoBody(sent("GET", `${P}/balances`, { currency_code: "btc" }));
    expect(btc.currency_code).toBe("btc");
    expect(btc.balance).toBeInstanceOf(Big);
    expect(btc.balance.eq("5")).toBe(true);

    const eur = await partner.masterBalance("eur");
    sent("GET", `${P}/balances`, { currency_code: "eur" });
    expect(eur.balance.toFixed(2)).toBe("250000.00");
  });

  it("userLimits: GET /api/v1/partners/users/{id}/limits, with and without type; limits read", async () => {
    const one = await partner.userLimits(userId, "fiat_withdrawal");
    expectNoBody(sent("GET", `${P}/users/${userId}/limits`, { type: "fiat_withdrawal" }));
    expect(one.rest).toEqual([]);
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0]).toMatchObject({ type: "fiat_withdrawal", currency: "eur" });
    expect(one.rows[0]?.daily?.toFixed()).toBe("5000");
    expect(one.rows[0]?.monthUsed?.toFixed()).toBe("0");
    expect(one.asked?.daily.toFixed()).toBe("5000");
    expect(one.asked?.monthly.toFixed()).toBe("20000");
    expect(one.asked?.dayUsed.toFixed()).toBe("0");

    const both = await partner.userLimits(userId);
    sent("GET", `${P}/users/${userId}/limits`);
    expect(both.rows.map((l) => l.type)).toEqual(["fiat_deposit", "fiat_withdrawal"]);
    expect(both.asked).toBeUndefined();
  });

  it("minimumLimits: GET /api/v1/partners/limits/minimum with the given query; the pair's minimums", async () => {
    const reply = await partner.minimumLimits({ pair: "btceur" });
    expectNoBody(sent("GET", `${P}/limits/minimum`, { pair: "btceur" }));
    expect(reply.buy?.toFixed(2)).toBe("10.00");
    expect(reply.sell?.toFixed()).toBe("0.0002");

    const all = await partner.minimumLimits();
    sent("GET", `${P}/limits/minimum`);
    expect(all).toEqual({});
  });
});

describe("PartnerApi, bank accounts and withdrawal", () => {
  it("addBankAccount (deprecated): POST /api/v1/partners/users/{id}/bank-accounts with the fields as JSON", async () => {
    const reply = await partner.addBankAccount(userId, {
      name: "Second Bank",
      iban: "GB33BUKB20201555555555",
      swift_bic: "BUKBGB22",
    });
    expectJsonBody(sent("POST", `${P}/users/${userId}/bank-accounts`), {
      name: "Second Bank",
      iban: "GB33BUKB20201555555555",
      swift_bic: "BUKBGB22",
    });
    expect(reply).toEqual({ kind: "ack", status: true });
    const added = (await partner.bankAccounts(userId)).find((b) => b.iban === "GB33BUKB20201555555555");
    expect(added).toMatchObject({ name: "Second Bank", swift_bic: "BUKBGB22", state: "verified" });
    expect(added?.reference_number).toMatch(/^RF\d{2}/);
  });

  it("bankAccounts: GET /api/v1/partners/users/{user}/bank-accounts; parsed list without timestamps", async () => {
    const list = await partner.bankAccounts(userId);
    expectNoBody(sent("GET", `${P}/users/${userId}/bank-accounts`));
    const bank = seededBank();
    expect(list).toEqual([
      {
        id: bank.id,
        name: "Sandbox Volksbank",
        iban: "AT611904300234573201",
        swift_bic: "BKAUATWW",
        reference_number: bank.reference_number,
        state: "verified",
      },
    ]);
  });

  it("bankAccount: GET /api/v1/partners/users/{user}/bank-accounts/{bankId}; the account, and the answer as it came", async () => {
    const bank = seededBank();
    const reply = await partner.bankAccount(userId, bank.id);
    expectNoBody(sent("GET", `${P}/users/${userId}/bank-accounts/${bank.id}`));
    const fields = {
      id: bank.id,
      name: "Sandbox Volksbank",
      iban: "AT611904300234573201",
      swift_bic: "BKAUATWW",
      reference_number: bank.reference_number,
      state: "verified",
    };
    expect(reply).toEqual({ kind: "bank", bank: fields, answer: { status: true, data: fields } });
  });

  it("removeBankAccount: DELETE /api/v1/partners/users/{user}/bank-accounts/{bankId}, no body", async () => {
    await partner.addBankAccount(userId, {
      name: "Second Bank",
      iban: "GB33BUKB20201555555555",
      swift_bic: "BUKBGB22",
    });
    const addedId = (await partner.bankAccounts(userId)).find((b) => b.name === "Second Bank")?.id ?? 0;
    sandbox.requests.length = 0;
    const reply = await partner.removeBankAccount(userId, addedId);
    expectNoBody(sent("DELETE", `${P}/users/${userId}/bank-accounts/${addedId}`));
    expect(reply).toEqual({ kind: "ack", status: true });
    expect(sandbox.state.bankAccounts.has(addedId)).toBe(false);

    const last = await failure(partner.removeBankAccount(userId, seededBank().id));
    expect(last.kind).toBe("validation");
  });

  it("depositInstructions: GET /api/v1/partners/users/{user}/deposit-instructions; the transfer's details read", async () => {
    const reply = await partner.depositInstructions(userId);
    expectNoBody(sent("GET", `${P}/users/${userId}/deposit-instructions`));
    expect(reply.view).toMatchObject({
      currency: "eur",
      iban: "DE02120300000000202051",
      reference: sandbox.seeded.partnerUser.depositReference,
    });
  });

  it("withdraw: POST /api/v1/partners/users/{user}/withdraw with the fields as JSON; EUR leaves, its id read", async () => {
    const bank = seededBank();
    const reply = await partner.withdraw(userId, { amount: "100.50", bank_account_id: bank.id });
    expectJsonBody(sent("POST", `${P}/users/${userId}/withdraw`), {
      amount: "100.50",
      bank_account_id: bank.id,
    });
    expect(reply).toEqual({ kind: "receipt", transactionId: expect.any(Number) });
    expect(sandbox.state.balance(sandbox.seeded.partnerUser, "eur").toFixed(2)).toBe("899.50");
  });
});

describe("PartnerApi, market", () => {
  it("pairs: GET /api/v1/partners/pairs; the pairs read", async () => {
    const reply = await partner.pairs();
    expectNoBody(sent("GET", `${P}/pairs`));
    expect(reply.pairs.map((p) => `${p.base}${p.quote}`)).toEqual([
      "btceur",
      "etheur",
      "ltceur",
      "xrpeur",
      "usdceur",
    ]);
    expect(reply.bases).toEqual(["btc", "eth", "ltc", "xrp", "usdc"]);
    expect(reply.items).toHaveLength(5);
  });

  it("exchangeRates: GET /api/v1/partners/exchange-rates with the given query; the rates read", async () => {
    const reply = await partner.exchangeRates({ pair: "btceur" });
    expectNoBody(sent("GET", `${P}/exchange-rates`, { pair: "btceur" }));
    expect(reply.rest).toEqual([]);
    expect(reply.rows).toHaveLength(1);
    expect(reply.rows[0]).toMatchObject({ base: "btc", quote: "eur", time: START });
    expect(reply.rows[0]?.price.toFixed()).toBe("40000");
    expect(reply.asked?.toFixed()).toBe("40000");

    const all = await partner.exchangeRates();
    sent("GET", `${P}/exchange-rates`);
    expect(all.rows).toHaveLength(5);
    expect(all.asked).toBeUndefined();
  });

  it("currencies: GET /api/v1/partners/currencies; codes and names read", async () => {
    const reply = await partner.currencies();
    expectNoBody(sent("GET", `${P}/currencies`));
    expect(reply.codes).toEqual(["eur", "btc", "eth", "ltc", "xrp", "usdc"]);
    expect([...reply.names.keys()]).toEqual(["eur", "btc", "eth", "ltc", "xrp", "usdc"]);
    expect(reply.listed.get("btc")).toBe(reply.names.get("btc"));
  });
});

describe("PartnerApi, orders and transactions", () => {
  it("buy: POST /api/v1/partners/users/{id}/buy {amount string, pair, idempotency_key}; transaction_id parsed", async () => {
    const receipt = await partner.buy(userId, {
      amount: new Big("100.50"),
      pair: "btceur",
      idempotencyKey: "order-1",
    });
    const request = sent("POST", `${P}/users/${userId}/buy`);
    expectJsonBody(request, { amount: "100.5", pair: "btceur", idempotency_key: "order-1" });
    expect(receipt).toEqual({ transaction_id: expect.any(Number) });
    // 100.50 + 1.51 fee
    expect(sandbox.state.balance(sandbox.seeded.partnerUser, "eur").toFixed(2)).toBe("897.99");
  });

  it("buy with the same idempotency key twice: the same transaction_id, one order", async () => {
    const order = { amount: new Big("100"), pair: "btceur", idempotencyKey: "same-key" };
    const first = await partner.buy(userId, order);
    const second = await partner.buy(userId, order);
    expect(second.transaction_id).toBe(first.transaction_id);
    expect(sandbox.requests.map((r) => r.body)).toEqual([
      { amount: "100", pair: "btceur", idempotency_key: "same-key" },
      { amount: "100", pair: "btceur", idempotency_key: "same-key" },
    ]);
    const orders = [...sandbox.state.transactions.values()].filter((t) => t.idempotencyKey === "same-key");
    expect(orders).toHaveLength(1);
    expect(sandbox.state.transactionsOf(sandbox.seeded.partnerUser)).toHaveLength(1);
    expect(sandbox.state.balance(sandbox.seeded.partnerUser, "eur").toFixed(2)).toBe("898.50");
  });

  it("sell: POST /api/v1/partners/users/{id}/sell; transaction_id parsed", async () => {
    await partner.buy(userId, { amount: new Big("400"), pair: "btceur", idempotencyKey: "b1" });
    clock.advance(5_000);
    sandbox.requests.length = 0;
    const receipt = await partner.sell(userId, {
      amount: new Big("0.005"),
      pair: "btceur",
      idempotencyKey: "s1",
    });
    expectJsonBody(sent("POST", `${P}/users/${userId}/sell`), {
      amount: "0.005",
      pair: "btceur",
      idempotency_key: "s1",
    });
    expect(receipt.transaction_id).toEqual(expect.any(Number));
    // 400 / 40000 = 0.01 BTC bought, 0.005 sold.
    expect(sandbox.state.balance(sandbox.seeded.partnerUser, "btc").toFixed()).toBe("0.005");
  });

  it("allTransactions: GET /api/v1/partners/users-transactions with the given query; rows read", async () => {
    const { transaction_id } = await partner.buy(userId, {
      amount: new Big("100"),
      pair: "btceur",
      idempotencyKey: "k",
    });
    sandbox.requests.length = 0;
    const reply = await partner.allTransactions({ start: 0, length: 10 });
    expectNoBody(sent("GET", `${P}/users-transactions`, { start: "0", length: "10" }));
    expect(reply.items).toHaveLength(1);
    expect(reply.items[0]).toMatchObject({
      kind: "transaction",
      tx: { id: String(transaction_id), transaction_type: "buy_crypto" },
      restWithIds: { user_id: userId },
      fields: { id: transaction_id, user_id: userId, transaction_type: "buy_crypto" },
    });
    expect(reply.matches).toEqual([
      { ok: true, tx: expect.objectContaining({ id: transaction_id, transaction_type: "buy_crypto" }) },
    ]);
  });

  it("userTransactions: GET /api/v1/partners/users/{user}/transactions; rows read", async () => {
    const { transaction_id } = await partner.buy(userId, {
      amount: new Big("100"),
      pair: "btceur",
      idempotencyKey: "k",
    });
    sandbox.requests.length = 0;
    const reply = await partner.userTransactions(userId, { currency_code: "btc" });
    expectNoBody(sent("GET", `${P}/users/${userId}/transactions`, { currency_code: "btc" }));
    expect(reply.matches.map((t) => (t.ok ? [t.tx.id, t.tx.state] : undefined))).toEqual([
      [transaction_id, "opened"],
    ]);
  });

  it("userTransaction: GET /api/v1/partners/users/{user}/transactions/{id}: opened, then success", async () => {
    const { transaction_id } = await partner.buy(userId, {
      amount: new Big("100"),
      pair: "btceur",
      idempotencyKey: "k",
    });
    sandbox.requests.length = 0;
    const opened = await partner.userTransaction(userId, transaction_id);
    expectNoBody(sent("GET", `${P}/users/${userId}/transactions/${transaction_id}`));
    expect(opened.match).toMatchObject({
      ok: true,
      tx: { id: transaction_id, state: "opened", amount: "100" },
    });
    expect(opened.item).toMatchObject({ kind: "transaction", tx: { state: "opened", amount: "100" } });

    clock.advance(5_000);
    const settled = await partner.userTransaction(userId, transaction_id);
    expect(settled.match).toMatchObject({ ok: true, tx: { state: "success", crypto_amount: "0.0025" } });
  });
});
