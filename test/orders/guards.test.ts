/**
 * The pipeline's guards (src/orders/guards.ts): the bot's own rules asked at the quote, the
 * Confirm and before the send, against the sandbox over HTTP and the harness's SQLite ledger. A
 * rule that starts to hold after the card was shown still stops the order, and the action is
 * cancelled, not left waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GuardStage, OrderGuard } from "../../src/orders/guards.ts";
import { OrderPipeline } from "../../src/orders/pipeline.ts";
import type { OrderRequest, QuoteRefusal } from "../../src/orders/quote.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness, testLogger } from "../support/harness.ts";

/** A guard that refuses buys from the stages it is told, and records what it was asked. */
class Switch implements OrderGuard {
  refuseAt = new Set<GuardStage>();
  asked: { stage: GuardStage; userId: number; request: OrderRequest }[] = [];
  async refusal(stage: GuardStage, userId: number, request: OrderRequest): Promise<QuoteRefusal | undefined> {
    this.asked.push({ stage, userId, request });
    return this.refuseAt.has(stage)
      ? { kind: request.kind, reason: "closed", vars: { code: "BTC" } }
      : undefined;
  }
}

describe("guards in the money pipeline", () => {
  let h: Harness;
  let ada: FakeUser;
  let guard: Switch;
  let orders: OrderPipeline;
  const buy = { kind: "buy", currency: "btc", amount: "50" } as const;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "60000");
    guard = new Switch();
    const { store, sessions, profiles } = h.deps;
    orders = new OrderPipeline({
      store,
      clock: h.clock,
      sessions,
      profiles,
      log: testLogger(),
      guards: [guard],
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("refuses at the quote before the exchange is asked, and records nothing", async () => {
    guard.refuseAt = new Set(["quote"]);
    const ordersBefore = h.sandbox.state.transactionsOf(h.sandbox.seeded.demo).length;
    const quoted = await orders.quoteAs(ada.id, buy);
    expect(quoted).toEqual({ ok: false, refusal: { kind: "buy", reason: "closed", vars: { code: "BTC" } } });
    expect(await orders.latestQuoted(ada.id)).toBeUndefined();
    expect(h.sandbox.state.transactionsOf(h.sandbox.seeded.demo)).toHaveLength(ordersBefore);
    expect(guard.asked.at(-1)).toEqual({ stage: "quote", userId: ada.id, request: buy });
  });

  it("refuses a Confirm when the rule started to hold after the card was shown, and cancels the action", async () => {
    guard.refuseAt = new Set();
    const quoted = await orders.quoteAs(ada.id, buy);
    if (!quoted.ok) throw new Error("no quote");
    guard.refuseAt = new Set(["confirm"]);
    const decision = await orders.confirm(quoted.action.id, ada.id);
    expect(decision).toMatchObject({ ok: false, reason: "guarded", refusal: { reason: "closed" } });
    expect((await orders.get(quoted.action.id))?.state).toBe("cancelled");
    // A second tap on the dead card hears the ledger's answer, not a second refusal text.
    guard.refuseAt = new Set();
    expect(await orders.confirm(quoted.action.id, ada.id)).toMatchObject({ ok: false, reason: "cancelled" });
  });

  it("refuses before the send claim when the rule holds after the Confirm, and nothing reaches the exchange", async () => {
    guard.refuseAt = new Set();
    const quoted = await orders.quoteAs(ada.id, buy);
    if (!quoted.ok) throw new Error("no quote");
    expect((await orders.confirm(quoted.action.id, ada.id)).ok).toBe(true);
    const before = h.sandbox.state.transactionsOf(h.sandbox.seeded.demo).length;
    guard.refuseAt = new Set(["place"]);
    const placed = await orders.place(quoted.action.id, ada.id);
    expect(placed).toMatchObject({
      kind: "guarded",
      refusal: { reason: "closed" },
      action: { state: "cancelled" },
    });
    expect(h.sandbox.state.transactionsOf(h.sandbox.seeded.demo)).toHaveLength(before);
  });

  it("lets everything through when no rule holds, asking at each of the three moments", async () => {
    guard.refuseAt = new Set();
    guard.asked = [];
    const quoted = await orders.quoteAs(ada.id, buy);
    if (!quoted.ok) throw new Error("no quote");
    expect((await orders.confirm(quoted.action.id, ada.id)).ok).toBe(true);
    const placed = await orders.place(quoted.action.id, ada.id);
    expect(placed.kind).toBe("placed");
    expect(guard.asked.map((a) => a.stage)).toEqual(["quote", "confirm", "place"]);
  });

  it("leaves another user's tap and a sent action to the ledger's own answer", async () => {
    guard.refuseAt = new Set();
    const quoted = await orders.quoteAs(ada.id, buy);
    if (!quoted.ok) throw new Error("no quote");
    guard.refuseAt = new Set(["confirm", "place"]);
    expect(await orders.confirm(quoted.action.id, ada.id + 1)).toMatchObject({
      ok: false,
      reason: "not-yours",
    });
    expect((await orders.get(quoted.action.id))?.state).toBe("quoted");
    guard.refuseAt = new Set();
    expect((await orders.place(quoted.action.id, ada.id)).kind).toBe("placed");
    guard.refuseAt = new Set(["confirm", "place"]);
    expect(await orders.place(quoted.action.id, ada.id)).toMatchObject({ kind: "refused" });
  });

  it("asks about a cancelled action too, so a tap on a card a Freeze cancelled says why", async () => {
    guard.refuseAt = new Set();
    const quoted = await orders.quoteAs(ada.id, buy);
    if (!quoted.ok) throw new Error("no quote");
    expect(await orders.cancel(quoted.action.id, ada.id)).toMatchObject({ ok: true });
    expect(await orders.place(quoted.action.id, ada.id)).toMatchObject({ kind: "refused" });
    guard.refuseAt = new Set(["confirm", "place"]);
    expect(await orders.confirm(quoted.action.id, ada.id)).toMatchObject({ ok: false, reason: "guarded" });
    expect(await orders.place(quoted.action.id, ada.id)).toMatchObject({ kind: "guarded" });
    expect((await orders.get(quoted.action.id))?.state).toBe("cancelled");
  });
});
