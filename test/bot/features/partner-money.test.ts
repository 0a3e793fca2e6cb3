/**
 * Partner mode's money: /buy, /sell and /withdraw for a partner user go through the one pipeline
 * (the same Confirm, ledger and reconciliation as account mode), with an idempotency key fixed
 * before the first POST and the PIN step after a withdrawal's Confirm.
 */
import Big from "big.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Ledger } from "../../../src/orders/ledger.ts";
import { PIN_LOCK_MS } from "../../../src/partner/pins.ts";
import type { RecordedRequest } from "../../../src/sandbox/server.ts";
import type { SentMessage } from "../../../src/telegram-double/index.ts";
import { actionIdOf, answerOf } from "../../orders/helpers.ts";
import { type Harness, type PartnerFakeUser, startHarness } from "../../support/harness.ts";

const CARD = (m: SentMessage) => /your quote|Withdraw euros/.test(m.text) && m.buttons.length > 0;
const ALREADY = "This order was already placed. Nothing was ordered twice.";
const BANK = "🏦 Sandbox Partnerba… · •• 3000";

describe("partner mode: buy, sell and withdraw through the one pipeline", () => {
  let h: Harness;
  let cora: PartnerFakeUser;
  let mark = 0;
  const posts = (side: string): RecordedRequest[] =>
    h.sandbox.requests
      .slice(mark)
      .filter(
        (r) => r.method === "POST" && r.path === `/api/v1/partners/users/${cora.partnerUserId}/${side}`,
      );
  const ordersAtExchange = (type: string) => {
    const account = h.sandbox.state.partnerUser(cora.partnerUserId);
    return account === undefined
      ? []
      : h.sandbox.state.transactionsOf(account).filter((tx) => tx.type === type);
  };

  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
    cora = await h.partnerUser();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    h.sandbox.faults.reset();
    await cora.send("/cancel");
    await cora.waitForReply();
    mark = h.sandbox.requests.length;
  });

  it("buys: the card from the partner API's rate, minimum and balance; Confirm posts once with a key", async () => {
    await cora.send("/buy btc 100");
    const card = await cora.waitForReply(CARD);
    expect(card.text).toContain("Buy BTC: your quote");
    // No fee endpoint: the amount, and that the fee comes on top; never a total it cannot know.
    expect(card.text).toContain("You pay: €100.00, plus the exchange's fee");
    expect(card.text).not.toMatch(/Fee:/);
    expect(card.text).toContain("Minimum: €");
    expect(card.text).toContain("Your balance: €1,000.00");
    const before = ordersAtExchange("buy_crypto").length;
    await cora.tap("✅ Confirm", card);
    await cora.waitForReply(/Order placed: buy BTC for €100.00/);
    expect(posts("buy")).toHaveLength(1);
    const body = posts("buy")[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ amount: "100", pair: "btceur" });
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(ordersAtExchange("buy_crypto")).toHaveLength(before + 1);
    const action = await new Ledger(h.deps.store, h.deps.clock).latest(cora.id, "partner-buy");
    expect(action).toMatchObject({ state: "placed", idempotencyKey: body.idempotency_key });
    expect(action?.transactionId).toBe(ordersAtExchange("buy_crypto").at(-1)?.id);
  });

  /** A buy card for `eur` confirmed while the next `lost` answers to its POST are cut; the buys before. */
  async function confirmBuyLosingAnswers(eur: string, lost: number): Promise<number> {
    await cora.send(`/buy btc ${eur}`);
    const card = await cora.waitForReply(CARD);
    const before = ordersAtExchange("buy_crypto").length;
    h.sandbox.faults.dropAnswerNext(lost, {
      method: "POST",
      path: `/api/v1/partners/users/${cora.partnerUserId}/buy`,
    });
    await cora.tap("✅ Confirm", card);
    return before;
  }

  it("a buy whose answer is lost after the exchange applied it: asked again with the same key, one order", async () => {
    const before = await confirmBuyLosingAnswers("50", 1);
    await cora.waitForReply(/Order placed: buy BTC for €50.00/);
    const [first, retry] = posts("buy").map((r) => (r.body as { idempotency_key?: string }).idempotency_key);
    expect(posts("buy")).toHaveLength(2);
    expect(first).toBeDefined();
    expect(retry).toBe(first);
    expect(ordersAtExchange("buy_crypto")).toHaveLength(before + 1);
  });

  it("answers lost every time: unknown, never a second order, and reconciliation finds the one", async () => {
    const before = await confirmBuyLosingAnswers("40", 10);
    await cora.waitForReply(/even when asked again with the same order key/);
    const keys = new Set(posts("buy").map((r) => (r.body as { idempotency_key?: string }).idempotency_key));
    expect(posts("buy").length).toBeGreaterThan(1);
    expect(keys.size).toBe(1);
    expect(ordersAtExchange("buy_crypto")).toHaveLength(before + 1);
    h.sandbox.faults.reset();
    const notices = await h.deps.orders.reconcileUser(cora.id);
    expect(notices.map((n) => [n.kind, n.action.kind])).toContainEqual(["placed", "partner-buy"]);
  });

  it("a double tap on Confirm: one key, one POST, 'already placed' to the extra tap", async () => {
    await cora.send("/buy btc 30");
    const card = await cora.waitForReply(CARD);
    const data = `ord:c:${actionIdOf(card)}`;
    const [one, two] = await Promise.all([
      cora.tapData(card.messageId, data),
      cora.tapData(card.messageId, data),
    ]);
    const answers = [await answerOf(h, one), await answerOf(h, two)].sort();
    expect(answers).toEqual(["Placing your order…", ALREADY].sort());
    await cora.waitForReply(/Order placed/);
    expect(posts("buy")).toHaveLength(1);
  });

  it("sells through the partner API with the crypto amount", async () => {
    const account = h.sandbox.state.partnerUser(cora.partnerUserId);
    if (account) h.sandbox.state.credit(account, "btc", new Big("0.5"));
    await cora.send("/sell btc 0.01");
    const card = await cora.waitForReply(CARD);
    expect(card.text).toContain("Sell BTC: your quote");
    expect(card.text).toContain("You sell: 0.01 BTC");
    expect(card.text).toMatch(/You get about: €[\d,.]+, minus the exchange's fee/);
    await cora.tap("✅ Confirm", card);
    await cora.waitForReply(/Order placed: sell/);
    expect(posts("sell")[0]?.body).toMatchObject({ amount: "0.01", pair: "btceur" });
  });

  async function toWithdrawCard(amount: string): Promise<SentMessage> {
    await cora.send("/withdraw");
    await cora.waitForReply(/To which bank account/);
    await cora.tap(BANK);
    await cora.waitForReply(/How many euros/);
    await cora.send(amount);
    return cora.waitForReply(CARD);
  }

  it("withdraws with the PIN: asked after Confirm, its message deleted, then one POST", async () => {
    const card = await toWithdrawCard("25");
    expect(card.text).toContain("Amount: €25.00");
    expect(card.text).toMatch(/Daily withdrawal limit left: €/);
    expect(card.text).toContain("After Confirm I will ask for your PIN.");
    await cora.tap("✅ Confirm", card);
    await cora.waitForReply(/6-digit PIN/);
    expect(posts("withdraw")).toEqual([]);
    const typed = await cora.send(cora.pin);
    await cora.waitForReply(/accepted your withdrawal of €25.00/);
    expect(cora.deletedMessageIds()).toContain(typed.message_id);
    expect(posts("withdraw")).toHaveLength(1);
    expect(posts("withdraw")[0]?.body).toMatchObject({ amount: "25" });
    expect(JSON.stringify(h.sandbox.requests.slice(mark))).not.toContain(cora.pin);
  });

  it("five wrong PINs lock withdrawals for 15 minutes (said with the time); after that the PIN works", async () => {
    const card = await toWithdrawCard("10");
    await cora.tap("✅ Confirm", card);
    await cora.waitForReply(/6-digit PIN/);
    for (let left = 4; left >= 1; left--) {
      const typed = await cora.send("000000");
      expect((await cora.waitForReply(/PIN is wrong/)).text).toContain(`: ${left}.`);
      expect(cora.deletedMessageIds()).toContain(typed.message_id);
    }
    await cora.send("000000");
    const until = new Date(h.clock.now() + PIN_LOCK_MS).toISOString().slice(11, 16);
    expect((await cora.waitForReply(/locked until/)).text).toContain(until);
    expect(posts("withdraw")).toEqual([]);

    // Still locked: a new card's Confirm says so at once, with the right PIN or not.
    const second = await toWithdrawCard("10");
    await cora.tap("✅ Confirm", second);
    expect((await cora.waitForReply(/locked until/)).text).toContain(until);
    expect(posts("withdraw")).toEqual([]);

    h.clock.advance(PIN_LOCK_MS + 1_000);
    const third = await toWithdrawCard("10");
    await cora.tap("✅ Confirm", third);
    await cora.waitForReply(/6-digit PIN/);
    await cora.send(cora.pin);
    await cora.waitForReply(/accepted your withdrawal of €10.00/);
    expect(posts("withdraw")).toHaveLength(1);
  });
});
