import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccountSession } from "../../src/exchange/account.ts";
import { isValidRfReference } from "../../src/sandbox/rf-reference.ts";
import { call, failure, type Harness, harness, loginToken } from "./helpers.ts";

let h: Harness;
let session: AccountSession;
beforeEach(async () => {
  h = await harness({ rateLimitPerMinute: 0 });
  session = await h.login();
});
afterEach(async () => {
  await h.close();
});

const NEW_BANK = {
  name: "Bayern Bank",
  iban: "DE02 1203 0000 0000 2020 51",
  swiftBic: "BYLADEM1001",
  amount: new Big("0.37"),
};

describe("bank accounts", () => {
  it("start with one verified account whose reference is a valid RF reference", async () => {
    const [only, ...rest] = await session.bankAccounts();
    expect(rest).toEqual([]);
    expect(only?.state).toBe("verified");
    expect(isValidRfReference(only?.reference_number as string)).toBe(true);
  });

  it("are created from query parameters with no body, pending until the exact deposit arrives", async () => {
    const reference = await session.addBankAccount(NEW_BANK);
    expect(isValidRfReference(reference)).toBe(true);
    const request = h.sandbox.requests.at(-1);
    expect(request).toMatchObject({ method: "POST", path: "/v1/bank-accounts", rawBody: "" });
    expect(request?.query).toMatchObject({ name: "Bayern Bank", swift_bic: "BYLADEM1001", amount: "0.37" });

    const added = (await session.bankAccounts()).find((bank) => bank.reference_number === reference);
    expect(added).toMatchObject({
      state: "pending",
      iban: "DE02120300000000202051",
      swift_bic: "BYLADEM1001",
    });

    // A different amount is just a deposit; the exact one verifies.
    h.sandbox.deposit({ amount: new Big("0.36"), referenceNumber: reference });
    expect((await session.bankAccounts()).find((b) => b.reference_number === reference)?.state).toBe(
      "pending",
    );
    const result = h.sandbox.deposit({ amount: new Big("0.37"), referenceNumber: reference });
    expect(result.verifiedBankAccountId).toBe(added?.id);
    expect((await session.bankAccounts()).find((b) => b.reference_number === reference)?.state).toBe(
      "verified",
    );
    expect((await session.fiatBalance()).balance.toFixed(2)).toBe("10000.73");
    const [deposit] = await session.transactions();
    expect(deposit).toMatchObject({ transaction_type: "fiat_deposit", state: "success", amount: "0.37" });
  });

  it("verify themselves after 10 minutes of sandbox time", async () => {
    const reference = await session.addBankAccount(NEW_BANK);
    h.clock.advance(10 * 60_000 - 1);
    expect((await session.bankAccounts()).find((b) => b.reference_number === reference)?.state).toBe(
      "pending",
    );
    h.clock.advance(1);
    expect((await session.bankAccounts()).find((b) => b.reference_number === reference)?.state).toBe(
      "verified",
    );
  });

  it("refuse a bad IBAN checksum, a bad BIC, a missing amount and a duplicate", async () => {
    const token = await loginToken(h.sandbox);
    const bad = await call(
      h.sandbox,
      "POST",
      "/v1/bank-accounts?name=X&iban=DE02120300000000202052&swift_bic=BYLA1&amount=1",
      { token },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.iban).toEqual(["The iban field must be a valid IBAN."]);
    expect(bad.body.errors.swift_bic).toEqual(["The swift bic field must be a valid BIC."]);
    const noAmount = await call(
      h.sandbox,
      "POST",
      "/v1/bank-accounts?name=X&iban=DE02120300000000202051&swift_bic=BYLADEM1001",
      {
        token,
      },
    );
    expect(noAmount.body.errors.amount).toEqual(["The amount field is required."]);
    const duplicate = await failure(session.addBankAccount({ ...NEW_BANK, iban: "DE89370400440532013000" }));
    expect(duplicate.fieldErrors.iban).toEqual(["The iban has already been taken."]);
    expect(await session.bankAccounts()).toHaveLength(1);
  });

  it("keep at least one: the last cannot be deleted, others can", async () => {
    const [first] = await session.bankAccounts();
    const lastOne = await failure(session.removeBankAccount(first?.id as number));
    expect(lastOne.status).toBe(422);
    expect(lastOne.fieldErrors.bank_account?.[0]).toMatch(/At least one/);

    await session.addBankAccount(NEW_BANK);
    await session.removeBankAccount(first?.id as number);
    const left = await session.bankAccounts();
    expect(left).toHaveLength(1);
    expect(left[0]?.iban).toBe("DE02120300000000202051");
    expect((await failure(session.removeBankAccount(left[0]?.id as number))).status).toBe(422);
    expect((await failure(session.removeBankAccount(424242))).status).toBe(404);
  });
});

describe("fiat withdrawal", () => {
  it("pays to a verified account with a fresh code and counts against the limit", async () => {
    const [bank] = await session.bankAccounts();
    const reference = bank?.reference_number as string;
    const noCode = await failure(
      session.fiatWithdrawal({ amount: new Big("250"), referenceNumber: reference, securityCode: "111111" }),
    );
    expect(noCode.fieldErrors.security_code).toBeDefined();
    await session.fiatWithdrawal({
      amount: new Big("250"),
      referenceNumber: reference,
      securityCode: h.sandbox.currentCode(),
    });
    expect((await session.fiatBalance()).balance.toFixed(2)).toBe("9750.00");
    const [tx] = await session.transactions();
    expect(tx).toMatchObject({
      transaction_type: "fiat_withdraw",
      state: "opened",
      reference_number: reference,
    });
    const [limit] = await session.limits("fiat_withdrawal");
    expect(limit?.spent.day_used.toFixed()).toBe("250");
    h.clock.advance(5_000);
    expect((await session.transaction(tx?.id as number)).state).toBe("success");
  });

  it("refuses a pending account and an unknown reference", async () => {
    const pending = await session.addBankAccount(NEW_BANK);
    const error = await failure(
      session.fiatWithdrawal({
        amount: new Big("10"),
        referenceNumber: pending,
        securityCode: h.sandbox.currentCode(),
      }),
    );
    expect(error.fieldErrors.reference_number?.[0]).toMatch(/not verified/);
    const unknown = await failure(
      session.fiatWithdrawal({
        amount: new Big("10"),
        referenceNumber: "RF18539007547034",
        securityCode: h.sandbox.currentCode(),
      }),
    );
    expect(unknown.fieldErrors.reference_number).toEqual(["The selected reference number is invalid."]);
  });
});

describe("addresses", () => {
  it("lists the seeded one and generates plausible new ones per currency", async () => {
    const before = await session.addresses();
    expect(before).toHaveLength(1);
    expect(before[0]?.currency_name).toBe("Bitcoin");
    const shapes: Record<string, RegExp> = {
      btc: /^bc1q[02-9ac-hj-np-z]{38}$/,
      eth: /^0x[0-9a-f]{40}$/,
      usdc: /^0x[0-9a-f]{40}$/,
      ltc: /^ltc1q[02-9ac-hj-np-z]{38}$/,
      xrp: /^r[1-9A-HJ-NP-Za-km-z]{33}$/,
    };
    for (const [code, shape] of Object.entries(shapes)) {
      const created = await session.createAddress(code);
      expect(created.address).toMatch(shape);
    }
    expect(await session.addresses()).toHaveLength(6);
  });

  it("refuses a new address while receiving is closed, and a crypto deposit to one credits its owner", async () => {
    h.sandbox.faults.closeAsset("receive", "eth");
    expect(await session.assetStatus("receive", "eth")).toBe(false);
    expect((await failure(session.createAddress("eth"))).status).toBe(422);
    h.sandbox.faults.openAsset("receive", "eth");
    const { address } = await session.createAddress("eth");
    h.sandbox.deposit({ amount: new Big("0.5"), address });
    const [eth] = await session.cryptoBalances("eth");
    expect(eth?.balance.toFixed()).toBe("1.7");
  });
});
