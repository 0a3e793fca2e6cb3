/**
 * One tap from a fired alert to a quote: the alert's buttons (amounts from the ledger's last
 * orders of that currency, else the defaults), a tap opening the usual card through the one
 * pipeline (a double tap: one card, one order), a logged-out tap logging in first, and partner
 * mode's kinds. Real parts: the sandbox over HTTP, the Bot API double, SQLite, the delivery queue
 * on virtual timers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLBACK } from "../../../src/bot/ui/callback-data.ts";
import type { BackgroundJobs } from "../../../src/process/jobs.ts";
import { ManualTimers } from "../../../src/support/clock.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import { actionIdOf, answerOf, liveCard } from "../../orders/helpers.ts";
import { HARNESS_EPOCH, type Harness, startHarness } from "../../support/harness.ts";
import { drainQueue, jobsOnTimers } from "../../support/virtual-delivery.ts";

/** The harness, its jobs on virtual timers, and a price move that fires what it crosses. */
async function alertWorld(mode: "account" | "partner") {
  const timers = new ManualTimers(HARNESS_EPOCH);
  const h = await startHarness(mode === "partner" ? { mode, marketData: true } : { marketData: true });
  const jobs = jobsOnTimers(h, timers);
  async function moveTo(currency: string, price: string): Promise<void> {
    h.sandbox.setPrice(currency, price);
    h.clock.advance(11_000);
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }
  return { h, jobs, moveTo };
}

async function fire(
  world: { h: Harness; moveTo: (c: string, p: string) => Promise<void> },
  user: FakeUser,
  level: string,
): Promise<SentMessage> {
  await world.moveTo("btc", "60000");
  const added = await world.h.deps.alertBook.add(
    user.id,
    { currency: "btc", kind: "above", level },
    world.h.clock.now(),
    "en",
  );
  expect(added.ok).toBe(true);
  await world.moveTo("btc", String(Number(level) + 500));
  return user.waitForReply((m) => /at or above/.test(m.text) && m.buttons.length > 0);
}

const cards = (user: FakeUser) => user.messages().filter((m) => /Buy BTC: your quote/.test(m.text));

describe("a fired alert's buttons, account mode", () => {
  let world: Awaited<ReturnType<typeof alertWorld>>;
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    world = await alertWorld("account");
    ({ h, jobs } = world);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("offers Buy €50 and €100, Sell (asks the amount), Set another alert and Remove by default", async () => {
    const ada = await h.loggedInUser();
    const alert = await fire(world, ada, "61000");
    expect(alert.buttons).toEqual([
      ["🛒 Buy €50.00", "🛒 Buy €100.00"],
      ["💶 Sell BTC…", "🔔 Set another alert"],
      ["🗑 Remove this alert"],
    ]);
    await ada.tap("💶 Sell BTC…", alert);
    await ada.waitForReply(/How much BTC do you want to sell/);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    await ada.tap("🔔 Set another alert", alert);
    const another = await ada.waitForReply(/Set another alert for BTC/);
    expect(another.text).toContain("/alert btc above 64575");
    expect(another.text).toContain("/alert btc below 58425");
    // Remove takes the alert and its own button; Buy and Sell stay.
    await ada.tap("🗑 Remove this alert", alert);
    const kept = await ada.waitForReply((m) => m.messageId === alert.messageId && m.edited);
    expect(kept.buttons).toEqual([
      ["🛒 Buy €50.00", "🛒 Buy €100.00"],
      ["💶 Sell BTC…", "🔔 Set another alert"],
    ]);
    expect(await h.deps.alertBook.list(ada.id)).toEqual([]);
  });

  it("a double tap on Buy: one card, and its Confirm is one order at the exchange", async () => {
    const ada = await h.loggedInUser();
    const alert = await fire(world, ada, "62000");
    const data = CALLBACK.alertTrade.data("buy", "btc", "50");
    const before = h.sandbox.countRequests("POST", "/v1/buy");
    await ada.tapData(alert.messageId, data);
    const second = await ada.tapData(alert.messageId, data);
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(card.text).toContain("You pay: €50.75");
    // The second tap is answered with a toast, not a second card.
    expect(await answerOf(h, second)).toBe("Your quote is on its way: one card per tap.");
    expect(cards(ada)).toHaveLength(1);
    await ada.tap("✅ Confirm", card);
    // A second Confirm on the same card (its data, as a quick second tap sends it).
    const again = await ada.tapData(card.messageId, CALLBACK.order.data("c", actionIdOf(card)));
    await ada.waitForReply(/Order placed: buy BTC for €50.00/);
    expect(await answerOf(h, again)).toMatch(/already|Placing/);
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(before + 1);
    // Once its card has expired, the same button quotes again.
    h.clock.advance(h.deps.orders.ledger.quoteTtlMs + 1);
    await ada.tapData(alert.messageId, data);
    await ada.waitForReply((m) => liveCard(/Buy BTC: your quote/)(m) && m.messageId !== card.messageId);
  });

  it("offers the amounts of the user's last buy and sell of that currency", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/buy btc 200");
    await ada.tap("✅ Confirm", await ada.waitForReply(liveCard(/Buy BTC: your quote/)));
    await ada.waitForReply(/Order placed/);
    await ada.send("/sell btc 0.001");
    await ada.tap("✅ Confirm", await ada.waitForReply(liveCard(/Sell BTC: your quote/)));
    await ada.waitForReply(/Order placed/);
    const alert = await fire(world, ada, "63000");
    expect(alert.buttons[0]).toEqual(["🛒 Buy €50.00", "🛒 Buy €200.00"]);
    expect(alert.buttons[1]).toEqual(["💶 Sell 0.001 BTC", "🔔 Set another alert"]);
    const before = h.sandbox.countRequests("POST", "/v1/sell");
    await ada.tap("💶 Sell 0.001 BTC", alert);
    const card = await ada.waitForReply(liveCard(/Sell BTC: your quote/));
    await ada.tap("✅ Confirm", card);
    await ada.waitForReply(/Order placed: sell 0.001 BTC/);
    expect(h.sandbox.countRequests("POST", "/v1/sell")).toBe(before + 1);
  });

  it("logged out: the login steps first, then the card", async () => {
    const bob = h.user();
    const alert = await fire(world, bob, "64000");
    await bob.tap("🛒 Buy €100.00", alert);
    await bob.waitForReply(/Log in first; your quote follows/);
    await bob.waitForReply(/e-mail/);
    await bob.send(h.sandbox.demo.email);
    await bob.waitForReply(/password/);
    await bob.send(h.sandbox.demo.password);
    await bob.waitForReply(/6-digit/);
    await bob.send(h.sandbox.currentCode());
    await bob.waitForReply(/Logged in/);
    const card = await bob.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(card.text).toContain("You pay: €101.50");
    const before = h.sandbox.countRequests("POST", "/v1/buy");
    await bob.tap("✅ Confirm", card);
    await bob.waitForReply(/Order placed: buy BTC for €100.00/);
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(before + 1);
  });
});

describe("a fired alert's buttons, partner mode", () => {
  let world: Awaited<ReturnType<typeof alertWorld>>;
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    world = await alertWorld("partner");
    ({ h, jobs } = world);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("a tap quotes a partner buy, a double tap is one card and one order", async () => {
    const cora = await h.partnerUser();
    const alert = await fire(world, cora, "61000");
    const data = CALLBACK.alertTrade.data("buy", "btc", "100");
    await cora.tapData(alert.messageId, data);
    const second = await cora.tapData(alert.messageId, data);
    const card = await cora.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(card.text).toContain("You pay: €100.00, plus the exchange's fee");
    expect(await answerOf(h, second)).toBe("Your quote is on its way: one card per tap.");
    expect(cards(cora)).toHaveLength(1);
    await cora.tap("✅ Confirm", card);
    await cora.waitForReply(/Order placed: buy BTC for €100.00/);
    const path = `/api/v1/partners/users/${cora.partnerUserId}/buy`;
    expect(h.sandbox.countRequests("POST", path)).toBe(1);
    const latest = await h.deps.orders.ledger.latest(cora.id, "partner-buy");
    expect(latest?.state).toBe("placed");
  });

  it("the KYC gate stands in front of the tap", async () => {
    const dan = await h.partnerUser(undefined, { kycStatus: "pending" });
    const alert = await fire(world, dan, "62000");
    await dan.tap("🛒 Buy €50.00", alert);
    expect((await dan.waitForReply()).text).not.toMatch(/your quote/);
    expect(cards(dan)).toHaveLength(0);
  });
});
