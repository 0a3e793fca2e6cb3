/**
 * The home card: /start when logged in (or a partner user the exchange serves), /home and its
 * menu entry, its buttons. Real parts: the sandbox over HTTP, the Bot API double, SQLite.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MENU_COMMANDS, PARTNER_MENU_COMMANDS } from "../../../src/bot/commands.ts";
import { formatAmount } from "../../../src/domain/money.ts";
import { liveCard } from "../../orders/helpers.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const HOME = /🏠 Home/;

describe("the home card, account mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
    h.sandbox.setPrice("btc", "60000");
    h.sandbox.setPrice("eth", "2000");
  });
  afterAll(async () => {
    await h.stop();
  });

  it("logged out, /start stays the welcome with Log in", async () => {
    const bob = h.user();
    await bob.send("/start");
    const welcome = await bob.waitForReply();
    expect(welcome.text).toContain("Welcome");
    expect(welcome.buttons.flat()).toContain("🔐 Log in");
  });

  it("logged in: total balance, today's change of what is held or watched, open orders, actions", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/buy btc 100");
    await ada.tap("✅ Confirm", await ada.waitForReply(liveCard(/Buy BTC: your quote/)));
    await ada.waitForReply(/Order placed/);
    await ada.send("/alert eth below 1000");
    await ada.waitForReply(/Alert set/);

    await ada.send("/start");
    const home = await ada.waitForReply(HOME);
    const total = await h.deps.sessions.use(ada.id, (client) => client.totalBalance());
    expect(home.text).toContain(`🏠 Home · ${h.sandbox.demo.email}`);
    expect(home.text).toContain(`Total balance: ${formatAmount(total.balance, "eur", "en")}`);
    expect(home.text).toMatch(/Today \(24 h\):\nBTC €60,000\.00 \([+-]?[\d.]+%\)\nETH €2,000\.00/);
    // The buy is placed, not yet settled: open.
    expect(home.text).toContain("1 open order:\n• buy BTC for €100.00");
    expect(home.buttons).toEqual([["🛒 Buy", "💶 Sell"], ["🔔 Alerts", "📜 Transactions"], ["🔄 Refresh"]]);

    // Settled: Refresh edits the same message, and the order is no longer open.
    h.clock.advance(6_000);
    await h.deps.orders.reconcileUser(ada.id);
    await ada.tap("🔄 Refresh", home);
    await ada.waitForReply((m) => m.messageId === home.messageId && /No open orders/.test(m.text));

    await ada.tap("🛒 Buy", home);
    await ada.waitForReply(/Which currency do you want to buy/);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    await ada.tap("🔔 Alerts", home);
    expect((await ada.waitForReply(/Your price alerts/)).text).toContain("ETH below €1,000.00");
    await ada.tap("📜 Transactions", home);
    expect((await ada.waitForReply(/Your transactions/)).text).toContain("Buy · €100.00");
  });

  it("/home is the same card, first in the command menu; logged out it asks to log in", async () => {
    expect(Object.keys(MENU_COMMANDS)[0]).toBe("home");
    expect(Object.keys(PARTNER_MENU_COMMANDS)[0]).toBe("home");
    const ada = await h.loggedInUser();
    await ada.send("/home");
    expect((await ada.waitForReply(HOME)).text).toContain("Total balance: €");
    const cy = h.user(undefined, { languageCode: "de" });
    await cy.send("/home");
    expect((await cy.waitForReply()).text).toMatch(/anmelden|Melde dich/i);
  });

  it("an exchange that does not answer leaves the total out, not the card", async () => {
    const ada = await h.loggedInUser();
    h.sandbox.faults.failNext(10, 500, { method: "GET", path: "/v1/total-balance" });
    try {
      await ada.send("/home");
      const home = await ada.waitForReply(HOME);
      expect(home.text).toContain("Total balance: the exchange did not say just now.");
      expect(home.buttons.flat()).toContain("🔄 Refresh");
    } finally {
      h.sandbox.faults.reset();
    }
  });
});

describe("the home card, partner mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner", marketData: true });
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(async () => {
    await h.stop();
  });

  it("a served partner user's /start is the home card; German with du", async () => {
    const cora = await h.partnerUser(undefined, { eur: "250", languageCode: "de" });
    await cora.send("/start");
    const home = await cora.waitForReply(/🏠 Übersicht/);
    expect(home.text).toContain(`Gesamtguthaben: ${formatAmount(new Big(250), "eur", "de")}`);
    expect(home.text).toContain("Keine offenen Aufträge.");
    // Partner mode has no price alerts: no Alerts button.
    expect(home.buttons).toEqual([["🛒 Kaufen", "💶 Verkaufen"], ["📜 Transaktionen"], ["🔄 Aktualisieren"]]);
    await cora.send("/home");
    await cora.waitForReply((m) => /🏠 Übersicht/.test(m.text) && m.messageId !== home.messageId);
  });

  it("a partner user not served yet hears where verification stands", async () => {
    const dan = await h.partnerUser(undefined, { kycStatus: "pending" });
    await dan.send("/start");
    const said = await dan.waitForReply();
    expect(said.text).toMatch(/Welcome back/);
    expect(said.text).not.toMatch(HOME);
  });
});
