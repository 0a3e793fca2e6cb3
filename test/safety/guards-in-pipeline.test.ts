/**
 * The safety net's guards in the one money pipeline, against the sandbox over HTTP and the
 * harness's SQLite ledger, every delay on the injected clock: an address saved a minute ago is
 * refused with the time it opens and one saved 25 hours ago goes; the allowlist turned off holds
 * only after the cooling-off; a raised cap only after 24 hours; two orders placed at once cannot
 * pass a cap together; a bank account added through the bot waits its cooling-off; a send above
 * half of the user's own cap raises a notice.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusalText } from "../../src/bot/ui/order-card.ts";
import { HOUR_MS } from "../../src/safety/cooling.ts";
import type { SecurityEvent } from "../../src/safety/security-events.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, logIn, startHarness } from "../support/harness.ts";

const OLD = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const NEW = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
const en = (key: string, vars?: Record<string, unknown>) => `${key} ${JSON.stringify(vars ?? {})}`;

describe("the safety net's guards in the money pipeline", () => {
  let h: Harness;
  let ada: FakeUser;
  const told: { userId: number; event: SecurityEvent }[] = [];
  const send = (address: string, amount = "0.001") =>
    ({ kind: "send", currency: "btc", address, amount }) as const;

  /** The clock moved on: the exchange session ended, so the user logs in again. */
  async function later(ms: number, ...users: FakeUser[]): Promise<void> {
    h.clock.advance(ms);
    for (const user of users) await logIn(user, h.sandbox);
  }

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
    h.watchSecurityNotices((userId, event) => void told.push({ userId, event }));
    ada = await h.loggedInUser();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("refuses a send to an address saved a minute ago with the time it opens, and sends to one saved 25 h ago", async () => {
    const { safety, orders } = h.deps;
    await safety.saveAddress(ada.id, { currency: "btc", label: "Old", address: OLD });
    await later(25 * HOUR_MS, ada);
    const saved = await safety.saveAddress(ada.id, { currency: "btc", label: "New", address: NEW });
    if (!saved.ok) throw new Error("not saved");
    h.clock.advance(60_000);

    const refused = await orders.quoteAs(ada.id, send(NEW));
    expect(refused).toEqual({
      ok: false,
      refusal: { kind: "send", reason: "address-cooling", vars: { at: String(saved.saved.usableAt) } },
    });
    if (!refused.ok) {
      expect(refusalText(en, refused.refusal, "en")).toContain("safety-refused-address-cooling");
    }
    expect(saved.saved.usableAt).toBe(h.clock.now() - 60_000 + 24 * HOUR_MS);

    const before = h.sandbox.countRequests("POST", "/v1/send");
    const quoted = await orders.quoteAs(ada.id, send(OLD));
    if (!quoted.ok) throw new Error(`refused: ${quoted.refusal.reason}`);
    expect((await orders.confirm(quoted.action.id, ada.id)).ok).toBe(true);
    const placed = await orders.place(quoted.action.id, ada.id, h.sandbox.currentCode());
    expect(placed.kind).toBe("placed");
    expect(h.sandbox.countRequests("POST", "/v1/send")).toBe(before + 1);
  });

  it("refuses a send to an address that is not saved, while the allowlist is on", async () => {
    const other = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    expect(await h.deps.orders.quoteAs(ada.id, send(other))).toMatchObject({
      ok: false,
      refusal: { reason: "address-unsaved", vars: { currency: "btc" } },
    });
  });

  it("turns the allowlist off only after the cooling-off", async () => {
    const bob = await h.loggedInUser();
    const other = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    const off = await h.deps.safety.setAllowlist(bob.id, false);
    expect(off).toEqual({ ok: true, effectiveAt: h.clock.now() + 24 * HOUR_MS });
    expect(told.at(-1)).toEqual({
      userId: bob.id,
      event: { type: "allowlist-changed", on: false, effectiveAt: off.ok ? off.effectiveAt : 0 },
    });
    await later(23 * HOUR_MS, bob);
    expect(await h.deps.orders.quoteAs(bob.id, send(other))).toMatchObject({
      ok: false,
      refusal: { reason: "address-unsaved" },
    });
    await later(HOUR_MS, bob);
    expect(await h.deps.orders.quoteAs(bob.id, send(other))).toMatchObject({ ok: true });
  });

  it("holds a raised cap only after 24 hours, and refuses over it with the figures", async () => {
    const cleo = await h.loggedInUser();
    const buy = { kind: "buy", currency: "btc", amount: "100" } as const;
    await h.deps.safety.setCap(cleo.id, "buy", "50");
    const refused = await h.deps.orders.quoteAs(cleo.id, buy);
    expect(refused).toEqual({
      ok: false,
      refusal: { kind: "buy", reason: "own-limit", vars: { cap: "50", left: "50", currency: "eur" } },
    });
    await h.deps.safety.setCap(cleo.id, "buy", "500");
    await later(24 * HOUR_MS - 60_000, cleo);
    expect(await h.deps.orders.quoteAs(cleo.id, buy)).toMatchObject({
      ok: false,
      refusal: { reason: "own-limit" },
    });
    h.clock.advance(60_000);
    expect(await h.deps.orders.quoteAs(cleo.id, buy)).toMatchObject({ ok: true });
  });

  it("lets only one of two orders quoted at once through a cap they would pass together", async () => {
    const dan = await h.loggedInUser();
    const { orders, safety } = h.deps;
    await safety.setCap(dan.id, "buy", "150");
    const buy = { kind: "buy", currency: "btc", amount: "100" } as const;
    // Each fits the cap on its own, so each quote and Confirm passes (two cards, two devices)…
    const first = await orders.quoteAs(dan.id, buy);
    if (!first.ok) throw new Error("the first quote fits the cap on its own");
    expect((await orders.confirm(first.action.id, dan.id)).ok).toBe(true);
    const second = await orders.quoteAs(dan.id, buy);
    if (!second.ok) throw new Error("the second quote fits the cap on its own");
    expect((await orders.confirm(second.action.id, dan.id)).ok).toBe(true);
    // …and placed at the same moment, only one is reserved against the cap and sent.
    const before = h.sandbox.countRequests("POST", "/v1/buy");
    const placed = await Promise.all([
      orders.place(first.action.id, dan.id),
      orders.place(second.action.id, dan.id),
    ]);
    expect(placed.map((p) => p.kind).sort()).toEqual(["guarded", "placed"]);
    expect(placed.find((p) => p.kind === "guarded")).toMatchObject({
      refusal: { reason: "own-limit", vars: { cap: "150", left: "50" } },
    });
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(before + 1);
  });

  it("counts a sell in EUR at its Confirm (its rate is the quote's)", async () => {
    const eve = await h.loggedInUser();
    await h.deps.safety.setCap(eve.id, "sell", "30");
    const quoted = await h.deps.orders.quoteAs(eve.id, { kind: "sell", currency: "btc", amount: "0.001" });
    if (!quoted.ok) throw new Error(`refused: ${quoted.refusal.reason}`);
    expect(await h.deps.orders.confirm(quoted.action.id, eve.id)).toMatchObject({
      ok: false,
      reason: "guarded",
      refusal: { reason: "own-limit", vars: { cap: "30", currency: "eur" } },
    });
  });

  it("tells of a send above half of the user's own cap, once", async () => {
    const fay = await h.loggedInUser();
    const { orders, safety } = h.deps;
    await safety.addresses.save(
      fay.id,
      { currency: "btc", label: "Old", address: OLD },
      h.clock.now() - HOUR_MS,
    );
    await safety.setCap(fay.id, "send:btc", "0.002");
    const quoted = await orders.quoteAs(fay.id, send(OLD, "0.0015"));
    if (!quoted.ok) throw new Error(`refused: ${quoted.refusal.reason}`);
    await orders.confirm(quoted.action.id, fay.id);
    expect(await orders.place(quoted.action.id, fay.id, h.sandbox.currentCode())).toMatchObject({
      kind: "placed",
    });
    expect(told.filter((t) => t.userId === fay.id && t.event.type === "large-outflow")).toEqual([
      { userId: fay.id, event: { type: "large-outflow", kind: "send", amount: "0.0015", currency: "btc" } },
    ]);
    expect((await safety.caps.left(fay.id, "send:btc", async () => "placed"))?.toFixed()).toBe("0.0005");
  });

  it("holds a withdrawal to a bank account added through the bot until its cooling-off ends", async () => {
    const gus = await h.loggedInUser();
    const bank = h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Neue Bank",
      iban: "DE02120300000000202051",
      swift_bic: "BYLADEM1001",
      verificationAmount: new Big("1.00"),
      verified: true,
    });
    const usableAt = await h.deps.safety.bankAdded(gus.id, {
      reference: bank.reference_number,
      iban: "DE02 •••• 2051",
    });
    expect(told.at(-1)).toEqual({
      userId: gus.id,
      event: { type: "bank-added", iban: "DE02 •••• 2051", usableAt },
    });
    const withdraw = { kind: "withdraw", amount: "10", referenceNumber: bank.reference_number } as const;
    expect(await h.deps.orders.quoteAs(gus.id, withdraw)).toEqual({
      ok: false,
      refusal: { kind: "withdraw", reason: "bank-cooling", vars: { at: String(usableAt) } },
    });
    await later(24 * HOUR_MS, gus);
    expect(await h.deps.orders.quoteAs(gus.id, withdraw)).toMatchObject({ ok: true });
  });
});
