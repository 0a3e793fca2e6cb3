/**
 * The sandbox's partner-mode switches: the service account's token on the partner paths, another
 * shape for the answers the spec leaves open, and an order carried out whose answer is lost.
 */
import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PARTNER_SERVICE } from "../../src/sandbox/seed.ts";
import { totpCodeAt } from "../../src/sandbox/totp.ts";
import { call, type Harness, harness } from "./helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = await harness({ rateLimitPerMinute: 0 });
});
afterEach(async () => {
  await h.close();
});

const P = "/api/v1/partners";

describe("sandbox partner switches", () => {
  it("accepts the partner service account's login token on the partner paths, until it expires", async () => {
    const session = await h.api.login({
      email: PARTNER_SERVICE.email,
      password: PARTNER_SERVICE.password,
      securityCode: totpCodeAt(PARTNER_SERVICE.totpSecret, h.clock.now()),
    });
    expect(session.expires_in).toBe(3600);
    expect((await call(h.sandbox, "GET", `${P}/pairs`, { token: session.access_token })).status).toBe(200);
    h.clock.advance(3601_000);
    expect((await call(h.sandbox, "GET", `${P}/pairs`, { token: session.access_token })).status).toBe(401);
  });

  it("answers the unspecified payloads in another shape when switched, and back", async () => {
    const token = h.sandbox.partnerToken;
    const before = (await call(h.sandbox, "GET", `${P}/currencies`, { token })).body;
    expect(Array.isArray(before.data)).toBe(true);
    h.sandbox.faults.alternateShapes(true);
    const after = (await call(h.sandbox, "GET", `${P}/currencies`, { token })).body;
    expect(after.status).toBe(true);
    expect(after.data.total).toBe(before.data.length);
    expect(after.data.items[0].decimals).toBe("2");
    const id = h.sandbox.seeded.partnerUser.id;
    const balances = (await call(h.sandbox, "GET", `${P}/users/${id}/balances`, { token })).body;
    expect(balances.data.items[0]).toMatchObject({ currency_code: "eur", balance: 1000 });
    // The documented answers keep their shape.
    const user = (await call(h.sandbox, "GET", `${P}/users/${id}`, { token })).body;
    expect(user.data.kyc_status).toBe("passed");
    h.sandbox.faults.reset();
    expect(Array.isArray((await call(h.sandbox, "GET", `${P}/currencies`, { token })).body.data)).toBe(true);
  });

  it("carries out an order and then cuts the answer, so the same key finds the one order", async () => {
    const id = h.sandbox.seeded.partnerUser.id;
    h.sandbox.faults.dropAnswerNext(1, { method: "POST", path: `${P}/users/${id}/buy` });
    const order = { amount: new Big("50"), pair: "btceur", idempotencyKey: "key-1" };
    await expect(h.partner.buy(id, order)).rejects.toMatchObject({ kind: "network" });
    const placed = h.sandbox.state.transactionsOf(h.sandbox.seeded.partnerUser);
    expect(placed).toHaveLength(1);
    const receipt = await h.partner.buy(id, order);
    expect(receipt.transaction_id).toBe(placed[0]?.id);
    expect(h.sandbox.state.transactionsOf(h.sandbox.seeded.partnerUser)).toHaveLength(1);
  });
});
