/**
 * Price alerts through the whole bot: set by chat, the sandbox price moved, one background tick
 * (market fetched once, alerts evaluated through the index), the notice delivered through the
 * queue to the Bot API double.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AlertBook } from "../../../src/alerts/book.ts";
import type { BackgroundJobs } from "../../../src/process/jobs.ts";
import { ManualTimers } from "../../../src/support/clock.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { HARNESS_EPOCH, type Harness, startHarness } from "../../support/harness.ts";
import { drainQueue, jobsOnTimers } from "../../support/virtual-delivery.ts";

describe("price alerts through the bot", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  // The delivery queue paces a chat's notices a second apart: on these timers, not the wall clock.
  const timers = new ManualTimers(HARNESS_EPOCH);

  const startJobs = () => {
    jobs = jobsOnTimers(h, timers);
  };

  beforeAll(async () => {
    h = await startHarness();
    // The market feed borrows a token from any logged-in session (no market-data account here);
    // the users who set alerts below never log in.
    await h.loggedInUser();
    startJobs();
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  /** Moves a sandbox price, lets the feed's cache run out, ticks once and waits for delivery. */
  async function moveTo(currency: string, price: string): Promise<void> {
    h.sandbox.setPrice(currency, price);
    h.clock.advance(11_000);
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }

  const fired = (user: FakeUser, pattern: RegExp) =>
    user.messages().filter((m) => pattern.test(m.text)).length;

  async function setAlert(user: FakeUser, args: string): Promise<void> {
    await user.send(`/alert ${args}`);
    await user.waitForReply(/Alert set|Alarm gesetzt/);
  }

  it("asks step by step without arguments and refuses what it cannot read", async () => {
    const ada = h.user();
    await ada.send("/alert");
    expect((await ada.waitForReply()).text).toMatch(/A new price alert. For which currency/);
    await ada.send("/cancel");
    await ada.waitForReply();
    await ada.send("/alert btc above -5");
    expect((await ada.waitForReply()).text).toBe("The amount cannot be negative.");
    await ada.send("/alert btc above 1e5");
    expect((await ada.waitForReply()).text).toMatch(/without an exponent/);
    await ada.send("/alert doge above 1");
    expect((await ada.waitForReply()).text).toMatch(/do not know the currency “doge”.*BTC, ETH/);
    await ada.send("/alert btc sideways 5");
    expect((await ada.waitForReply()).text).toContain("Set a price alert");
  });

  it("guided: currency, above, the level end at the typed form's message and alert; a bad level is asked again", async () => {
    const gia = h.user();
    await gia.send("/alert");
    const currency = await gia.waitForReply(/For which currency/);
    expect(currency.buttons.flat()).toContain("ETH");
    await gia.tap("ETH");
    const kind = await gia.waitForReply(/When should I tell you about ETH\? It is at €/);
    expect(kind.buttons.flat()).toEqual(["📈 Above a price", "📉 Below a price", "↕️ A 24 h move in %"]);
    await gia.tap("📈 Above a price");
    await gia.waitForReply(/Above which price in EUR\? ETH is at €/);
    await gia.send("-5");
    await gia.waitForReply("The amount cannot be negative.");
    await gia.send("9000");
    const guided = await gia.waitForReply(/Alert set/);

    const hal = h.user();
    await hal.send("/alert eth above 9000");
    expect((await hal.waitForReply(/Alert set/)).text).toBe(guided.text);
    const alerts = async (id: number) =>
      (await h.deps.alertBook.loadUser(id)).alerts.map(({ currency, kind, level }) => ({
        currency,
        kind,
        level,
      }));
    expect(await alerts(gia.id)).toEqual(await alerts(hal.id));
    expect(await alerts(gia.id)).toEqual([{ currency: "eth", kind: "above", level: "9000" }]);
  });

  it("guided from /alerts' New alert and from /alert with the currency alone: a 24 h change", async () => {
    const ivy = h.user();
    await ivy.send("/alert btc");
    await ivy.waitForReply(/When should I tell you about BTC/);
    await ivy.tap("↕️ A 24 h move in %");
    await ivy.waitForReply(/By how many percent/);
    await ivy.send("5%");
    await ivy.waitForReply(/Alert set: BTC moves/);
    await ivy.send("/alerts");
    await ivy.waitForReply(/Your price alerts/);
    await ivy.tap("➕ New alert");
    await ivy.waitForReply(/For which currency/);
    await ivy.send("litecoin");
    await ivy.waitForReply(/When should I tell you about LTC/);
    await ivy.tap("📉 Below a price");
    await ivy.waitForReply(/Below which price/);
    await ivy.send("20");
    await ivy.waitForReply(/Alert set: LTC below €20\.00/);
    expect((await h.deps.alertBook.loadUser(ivy.id)).alerts).toHaveLength(2);
  });

  it("refuses a change alert of ±500 % (a price cannot fall by more than all of it) with its bounds, in German too", async () => {
    const ada = h.user();
    await ada.send("/alert btc ±500%");
    expect((await ada.waitForReply()).text).toMatch(
      /^A 24 h change alert needs a level from 0\.5\s?% to 100\s?%/,
    );
    await ada.send("/alert btc change 500 %");
    expect((await ada.waitForReply()).text).toMatch(/from 0\.5\s?% to 100\s?%/);
    const eva = h.user(undefined, { languageCode: "de" });
    await eva.send("/alert btc änderung 500%");
    expect((await eva.waitForReply()).text).toMatch(/von 0,5\s?% bis 100\s?%/);
    expect(await h.deps.alertBook.list(ada.id)).toHaveLength(0);
  });

  it("/alerts with an alert after it (or after add) adds it, as /alert does; alone it lists", async () => {
    const ida = h.user();
    await ida.send("/alerts add btc above 70000");
    await ida.waitForReply(/Alert set: BTC above €70,000\.00/);
    await ida.send("/alerts eth below 100");
    await ida.waitForReply(/Alert set: ETH below €100\.00/);
    await ida.send("/alerts");
    const list = await ida.waitForReply(/Your price alerts/);
    expect(list.buttons.flat()).toEqual(["🗑 BTC above €70,000.00", "🗑 ETH below €100.00", "➕ New alert"]);
  });

  it("fires when the price crosses up, and when it crosses down", async () => {
    await moveTo("btc", "60000");
    await moveTo("eth", "2100");
    const ada = h.user();
    await setAlert(ada, "btc above 61000");
    await ada.send("/alert eth below 2000");
    const set = await ada.waitForReply(/Alert set/);
    expect(set.text).toContain("ETH below €2,000.00");
    expect(set.text).toContain("Now: €2,100.00");

    await moveTo("btc", "60500");
    expect(fired(ada, /at or above/)).toBe(0);
    await moveTo("btc", "61200");
    const up = await ada.waitForReply(/at or above/);
    expect(up.text).toContain("Bitcoin (BTC) reached €61,000.00 (at or above): €61,200.00");
    // One tap to a quote (test/bot/features/alert-trade.test.ts), and Remove last.
    expect(up.buttons.flat()).toEqual([
      "🛒 Buy €50.00",
      "🛒 Buy €100.00",
      "💶 Sell BTC…",
      "🔔 Set another alert",
      "🗑 Remove this alert",
    ]);

    await moveTo("eth", "1999.99");
    expect((await ada.waitForReply(/at or below/)).text).toContain(
      "Ethereum (ETH) reached €2,000.00 (at or below): €1,999.99",
    );
  });

  it("hysteresis: a price hovering at the level gives one message; back past the margin and across again, a second", async () => {
    await moveTo("ltc", "79");
    const bo = h.user();
    await setAlert(bo, "ltc above 80");
    for (const price of ["80.5", "79.9", "80.1", "79.5", "80.3", "79.3", "80.9"]) await moveTo("ltc", price);
    // 1 % of 80 is 0.80: nothing under 79.20 was seen, so the alert never re-armed.
    expect(fired(bo, /at or above/)).toBe(1);
    await moveTo("ltc", "79.1");
    expect(fired(bo, /at or above/)).toBe(1);
    await moveTo("ltc", "80.2");
    expect(fired(bo, /at or above/)).toBe(2);
  });

  it("a 24 h change alert fires either way and re-arms under four fifths of its level", async () => {
    const cy = h.user();
    await moveTo("xrp", "0.5");
    h.clock.advance(24 * 60 * 60_000); // a day later, xrp has been 0.5 all day: change 0 %
    await h.loggedInUser(); // the feed's borrowed token expired meanwhile
    await setAlert(cy, "xrp änderung 5 %");
    await moveTo("xrp", "0.524"); // +4.8 %
    expect(fired(cy, /🔔.*moved/)).toBe(0);
    await moveTo("xrp", "0.53"); // +6 %
    expect((await cy.waitForReply(/🔔.*moved/)).text).toContain(
      "XRP (XRP) moved +6.00% in 24 h (your alert: ±5%)",
    );
    // One rounding rule for a change: the same moment reads the same in /price, /prices and inline.
    await cy.send("/price xrp");
    expect((await cy.waitForReply(/XRP/)).text).toContain("+6.00%");
    await cy.send("/prices");
    expect((await cy.waitForReply(/Prices|prices/)).text).toMatch(/XRP\)[^\n]*\+6\.00%/);
    const results = await cy.inlineResults(await cy.inlineQuery("xrp"));
    expect(JSON.stringify(results)).toContain("+6.00%");
    await moveTo("xrp", "0.519"); // +3.8 %: re-armed
    await moveTo("xrp", "0.47"); // −6 %
    expect((await cy.waitForReply(/🔔.*moved/)).text).toContain("moved -6.00%");
  });

  it("alerts and their fired state survive a restart", async () => {
    await moveTo("btc", "60000");
    const di = h.user();
    await setAlert(di, "btc above 62000");
    await setAlert(di, "btc below 58000");
    await moveTo("btc", "58500");
    await jobs.stop();
    await h.restartBot();
    startJobs();
    await moveTo("btc", "62100");
    expect((await di.waitForReply(/at or above/)).text).toContain("€62,000.00");
    await jobs.stop();
    await h.restartBot();
    startJobs();
    // Fired before the restart: hovering after it does not fire again.
    await moveTo("btc", "61900");
    await moveTo("btc", "62200");
    expect(fired(di, /at or above/)).toBe(1);
    await di.send("/alerts");
    const list = await di.waitForReply(/Your price alerts/);
    expect(list.text).toContain("1. BTC above €62,000.00 (fired; waits for the price to move back)");
    expect(list.text).toContain("2. BTC below €58,000.00");
  });

  it("keeps at most 20 alerts per user, with a sentence saying so", async () => {
    const ed = h.user();
    for (let i = 1; i <= 20; i++) await setAlert(ed, `eth above ${5000 + i}`);
    await ed.send("/alert eth above 9000");
    expect((await ed.waitForReply()).text).toBe(
      "You already have 20 alerts, the most one person can have. Remove one in /alerts first.",
    );
    await ed.send("/alert eth above 5001");
    expect((await ed.waitForReply()).text).toBe("You already have this alert: ETH above €5,001.00.");
    expect(await new AlertBook(h.deps.store).list(ed.id)).toHaveLength(20);
  });

  it("removes an alert with its button, for its owner only", async () => {
    const fe = h.user();
    const mallory = h.user();
    await setAlert(fe, "btc above 70000");
    await setAlert(fe, "ltc below 50");
    await fe.send("/alerts");
    const list = await fe.waitForReply(/Your price alerts/);
    expect(list.buttons.flat()).toEqual(["🗑 BTC above €70,000.00", "🗑 LTC below €50.00", "➕ New alert"]);
    const first = list.message.reply_markup?.inline_keyboard[0]?.[0];
    const callback = first && "callback_data" in first ? (first.callback_data ?? "") : "";
    expect(callback).toMatch(/^alert:rm:/);
    expect(Buffer.byteLength(callback)).toBeLessThan(64);

    // Another user replaying the same data removes nothing.
    await mallory.send("/alerts");
    const theirs = await mallory.waitForReply(/no price alerts/);
    await mallory.tapData(theirs.messageId, callback);
    const answer = await mallory.waitForCall("answerCallbackQuery");
    expect(answer.payload.text).toBe("That alert no longer exists.");
    expect(await new AlertBook(h.deps.store).list(fe.id)).toHaveLength(2);

    await fe.tap("🗑 BTC above €70,000.00");
    const edited = await fe.waitForReply((m) => m.edited);
    expect(edited.text).toContain("1. LTC below €50.00");
    expect(edited.text).not.toContain("BTC");
    expect(edited.buttons.flat()).toEqual(["🗑 LTC below €50.00", "➕ New alert"]);
    await fe.tap("🗑 LTC below €50.00");
    expect((await fe.waitForReply((m) => m.edited)).text).toContain("You have no price alerts");
  });

  it("pauses the alerts of a user who blocked the bot (403), and resumes them when they write again", async () => {
    await moveTo("eth", "3000");
    const gus = h.user();
    await setAlert(gus, "eth above 3100");
    const book = new AlertBook(h.deps.store);
    h.telegram.blockBot(gus.id);
    const sendsTo = () =>
      h.telegram.calls.filter((c) => c.method === "sendMessage" && c.payload.chat_id === gus.id).length;
    const before = sendsTo();
    await moveTo("eth", "3200");
    expect(sendsTo()).toBe(before + 1); // one try, answered 403
    await expect.poll(() => book.isPaused(gus.id)).toBe(true);
    // Paused: out of the index, so moving back and across again tries nothing.
    await moveTo("eth", "3000");
    await moveTo("eth", "3200");
    await moveTo("eth", "3000");
    expect(sendsTo()).toBe(before + 1);
    expect(jobs.notifier.queue.stats.blocked).toBeGreaterThanOrEqual(1);

    h.telegram.unblockBot(gus.id);
    await gus.send("/alerts");
    await gus.waitForReply(/Your price alerts/);
    expect(await book.isPaused(gus.id)).toBe(false);
    // It fired (the notice met the 403): back under the margin and across again.
    await moveTo("eth", "3000");
    await moveTo("eth", "3200");
    expect((await gus.waitForReply(/at or above/)).text).toContain("ETH");
  });

  it("respects the alerts switch in /settings", async () => {
    await moveTo("ltc", "70");
    const hu = h.user();
    await setAlert(hu, "ltc above 75");
    await hu.send("/settings alerts off");
    await hu.waitForReply();
    await moveTo("ltc", "76");
    expect(fired(hu, /at or above/)).toBe(0);
  });

  afterEach(async () => {
    await drainQueue(jobs.notifier.queue, timers);
  });
});
