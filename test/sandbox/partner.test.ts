import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, failure, type Harness, harness } from "./helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = await harness({ rateLimitPerMinute: 0 });
  h.sandbox.setPrice("btc", "40000");
});
afterEach(async () => {
  await h.close();
});

const P = "/api/v1/partners";
const partnerCall = (method: string, path: string, body?: unknown) =>
  call(h.sandbox, method, path, { token: h.sandbox.partnerToken, ...(body === undefined ? {} : { body }) });
/** The sandbox's answer as it is sent (the client hands on only its typed reading of it). */
async function answer(method: string, path: string, body?: unknown) {
  const reply = await partnerCall(method, path, body);
  expect(reply.status).toBeLessThan(300);
  return reply.body;
}

async function newUser(email = "new.user@example.com") {
  return h.partner.createUser({ email, name: "Nina", surname: "Neu", phone: "+49301234567" });
}

async function passedUserWithEur(amount: string) {
  const { id } = await newUser();
  h.sandbox.faults.setPartnerUserStatus(id, { kyc_status: "passed" });
  h.sandbox.deposit({ accountId: id, amount: new Big(amount) });
  return id;
}

describe("partner API", () => {
  it("needs the partner bearer token", async () => {
    expect((await call(h.sandbox, "GET", `${P}/pairs`)).status).toBe(401);
    expect((await call(h.sandbox, "GET", `${P}/pairs`, { token: "wrong" })).status).toBe(401);
    const demoToken = await h.api.login({ ...h.sandbox.demo, securityCode: h.sandbox.currentCode() });
    expect((await call(h.sandbox, "GET", `${P}/pairs`, { token: demoToken.access_token })).status).toBe(401);
    expect((await partnerCall("GET", `${P}/pairs`)).body.data[0]).toEqual({
      pair: "btceur",
      base_currency: "btc",
      quote_currency: "eur",
    });
  });

  it("creates, reads and updates users", async () => {
    const { id } = await newUser();
    const user = await h.partner.getUser(id);
    expect(user).toMatchObject({
      email: "new.user@example.com",
      name: "Nina",
      surname: "Neu",
      phone: "+49301234567",
      status: "active",
      kyc_status: "not_started",
      edd_status: "not_required",
    });
    const updated = await partnerCall("POST", `${P}/users`, { id, city: "Berlin", country: "deu" });
    expect(updated.status).toBe(200);
    expect((await h.partner.getUser(id)).country).toBe("DEU");
    expect((await h.partner.getUser(id)).city).toBe("Berlin");

    const duplicate = await partnerCall("POST", `${P}/users`, {
      email: "new.user@example.com",
      name: "A",
      surname: "B",
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors.email).toEqual(["The email has already been taken."]);
    expect((await partnerCall("GET", `${P}/users/999999`)).status).toBe(404);
    expect((await partnerCall("POST", `${P}/users`, { id: 999999, name: "X" })).status).toBe(404);
  });

  it("imports KYC: pending at once, passed a minute of sandbox time later", async () => {
    const { id } = await newUser();
    expect(await h.partner.importKyc(id, "share-token-abc")).toBe(true);
    expect((await h.partner.getUser(id)).kyc_status).toBe("pending");
    h.clock.advance(60_000);
    expect((await h.partner.getUser(id)).kyc_status).toBe("passed");

    const other = await newUser("declined@example.com");
    await h.partner.importKyc(other.id, "please-decline-me");
    h.clock.advance(60_000);
    expect((await h.partner.getUser(other.id)).kyc_status).toBe("declined");
  });

  it("refuses orders for a user who has not passed KYC (403)", async () => {
    const { id } = await newUser();
    const error = await failure(
      h.partner.buy(id, { amount: new Big("50"), pair: "btceur", idempotencyKey: "k-kyc" }),
    );
    expect(error.status).toBe(403);
    h.sandbox.faults.setPartnerUserStatus(id, { kyc_status: "passed", edd_status: "confirmed" });
    const user = await h.partner.getUser(id);
    expect(user.edd_status).toBe("confirmed");
  });

  it("buys once per idempotency key, and refuses the key with a different body", async () => {
    const id = await passedUserWithEur("1000");
    const order = { amount: new Big("100"), pair: "btceur", idempotencyKey: "order-1" };
    const first = await h.partner.buy(id, order);
    const again = await h.partner.buy(id, order);
    expect(again.transaction_id).toBe(first.transaction_id);
    const user = h.sandbox.state.partnerUser(id);
    expect(h.sandbox.state.balance(user as NonNullable<typeof user>, "eur").toFixed(2)).toBe("898.50");
    expect(
      h.sandbox.state.transactionsOf(user as NonNullable<typeof user>).filter((t) => t.type === "buy_crypto"),
    ).toHaveLength(1);

    const changed = await failure(h.partner.buy(id, { ...order, amount: new Big("101") }));
    expect(changed.status).toBe(422);
    expect(changed.fieldErrors.idempotency_key).toBeDefined();

    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => h.partner.buy(id, { ...order, idempotencyKey: "order-2" })),
    );
    expect(new Set(concurrent.map((r) => r.transaction_id)).size).toBe(1);

    h.clock.advance(5_000);
    const tx = await answer("GET", `${P}/users/${id}/transactions/${first.transaction_id}`);
    expect(tx.data).toMatchObject({
      id: first.transaction_id,
      state: "success",
      user_id: id,
      crypto_amount: "0.0025",
    });
    const balances = (await answer("GET", `${P}/users/${id}/balances`)) as {
      data: { currency_code: string; balance: string }[];
    };
    // order-1 and order-2: two buys of 0.0025 BTC each.
    expect(balances.data.find((b) => b.currency_code === "btc")?.balance).toBe("0.005");
  });

  it("sells, lists transactions and applies minimums", async () => {
    const id = await passedUserWithEur("1000");
    await h.partner.buy(id, { amount: new Big("400"), pair: "btceur", idempotencyKey: "b" });
    h.clock.advance(5_000);
    const small = await failure(
      h.partner.sell(id, { amount: new Big("0.0001"), pair: "btceur", idempotencyKey: "s0" }),
    );
    expect(small.status).toBe(422);
    await h.partner.sell(id, { amount: new Big("0.005"), pair: "btceur", idempotencyKey: "s1" });
    const list = (await answer("GET", `${P}/users/${id}/transactions`)) as {
      data: { transaction_type: string }[];
    };
    expect(list.data.map((t) => t.transaction_type)).toEqual(["sell_crypto", "buy_crypto", "fiat_deposit"]);
    const all = (await answer("GET", `${P}/users-transactions`)) as { data: { user_id: number }[] };
    expect(all.data.every((t) => typeof t.user_id === "number")).toBe(true);
    const minimums = await answer("GET", `${P}/limits/minimum?pair=btceur`);
    expect(minimums.data).toEqual([{ pair: "btceur", buy: "10.00", sell: "0.0002" }]);
  });

  it("reads master balance, currencies, rates, limits and deposit instructions", async () => {
    const master = await h.partner.masterBalance("eur");
    expect(master.balance.toFixed()).toBe("250000");
    expect(master.currency_code).toBe("eur");
    expect((await partnerCall("GET", `${P}/balances`)).status).toBe(422);
    const currencies = (await answer("GET", `${P}/currencies`)) as { data: { code: string }[] };
    expect(currencies.data.map((c) => c.code)).toEqual(["eur", "btc", "eth", "ltc", "xrp", "usdc"]);
    const rates = (await answer("GET", `${P}/exchange-rates?pair=btceur`)) as { data: { price: number }[] };
    expect(rates.data[0]?.price).toBe(40000);

    const { id } = await newUser();
    const limits = await answer("GET", `${P}/users/${id}/limits?type=fiat_withdrawal`);
    expect(limits.data).toMatchObject({ type: "fiat_withdrawal", daily: 5000, day_used: 0 });
    const both = await answer("GET", `${P}/users/${id}/limits`);
    expect(both.data).toHaveLength(2);
    const instructions = await answer("GET", `${P}/users/${id}/deposit-instructions`);
    expect(instructions.data.reference).toMatch(/^RF\d{2}/);
  });

  it("manages bank accounts (deprecated add, list, view, keep-one remove) and withdraws", async () => {
    const id = await passedUserWithEur("500");
    const added = await answer("POST", `${P}/users/${id}/bank-accounts`, {
      name: "Erste",
      iban: "AT611904300234573201",
      swift_bic: "GIBAATWW",
    });
    expect(added.data.state).toBe("verified");
    const bad = await failure(
      h.partner.addBankAccount(id, { name: "X", iban: "AT611904300234573202", swift_bic: "GIBAATWW" }),
    );
    expect(bad.fieldErrors.iban).toBeDefined();
    await h.partner.addBankAccount(id, {
      name: "Zweite",
      iban: "DE89370400440532013000",
      swift_bic: "COBADEFFXXX",
    });

    const list = await h.partner.bankAccounts(id);
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(
      ["iban", "id", "name", "reference_number", "state", "swift_bic"].sort(),
    );
    const view = await answer("GET", `${P}/users/${id}/bank-accounts/${added.data.id}`);
    expect(view.data.name).toBe("Erste");

    const withdrawn = await answer("POST", `${P}/users/${id}/withdraw`, {
      amount: "120",
      bank_account_id: added.data.id,
    });
    expect(withdrawn.data.transaction_id).toBeGreaterThan(0);
    const user = h.sandbox.state.partnerUser(id);
    expect(h.sandbox.state.balance(user as NonNullable<typeof user>, "eur").toFixed(2)).toBe("380.00");

    await h.partner.removeBankAccount(id, list[1]?.id as number);
    expect((await failure(h.partner.removeBankAccount(id, added.data.id))).status).toBe(422);
    expect((await failure(h.partner.bankAccount(id, 999))).status).toBe(404);
  });

  it("the seeded partner user can trade at once", async () => {
    const seeded = h.sandbox.seeded.partnerUser;
    const receipt = await h.partner.buy(seeded.id, {
      amount: new Big("10"),
      pair: "btceur",
      idempotencyKey: "x",
    });
    expect(receipt.transaction_id).toBeGreaterThan(1000);
  });
});
