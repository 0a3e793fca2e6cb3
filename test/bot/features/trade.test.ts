import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArguments } from "../../../src/bot/features/trade.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { tradeFee } from "../../../src/sandbox/rules.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { actionIdOf, answerOf, liveCard } from "../../orders/helpers.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const posts = (h: Harness, path: "/v1/buy" | "/v1/sell") => h.sandbox.countRequests("POST", path);

describe("reading /buy and /sell arguments", () => {
  it("finds the currency and the amount in any order", () => {
    expect(readArguments("btc 100")).toEqual({ currency: "btc", amount: "100" });
    expect(readArguments("0,5 eth")).toEqual({ currency: "eth", amount: "0,5" });
    expect(readArguments("-5 btc")).toEqual({ currency: "btc", amount: "-5" });
    expect(readArguments("")).toEqual({});
  });
});

describe("/buy and /sell", () => {
  let h: Harness;
  let ada: FakeUser;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "60000");
    h.sandbox.setPrice("eth", "2000");
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 60_000, autoStart: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/buy btc 100");
    expect((await bob.waitForReply()).text).toContain("log in");
  });

  it("/buy btc 100: the quote card, Confirm, the exact order at the exchange, and its settlement", async () => {
    await ada.send("/buy btc 100");
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    const fee = tradeFee(new Big(100));
    expect(card.text).toContain("Rate: €60,000.00 per BTC");
    expect(card.text).toContain(`Fee: €${fee.toFixed(2)}`);
    expect(card.text).toContain("You pay: €101.50");
    expect(card.text).toContain(
      `You get about: ${new Big(100).div(60000).round(8, Big.roundDown).toFixed()} BTC`,
    );
    expect(card.text).toContain("Minimum: €10.00");
    // A buy from the euro balance is no card purchase: the card names no card-purchase limit.
    expect(card.text).not.toMatch(/credit_card_buy|Limit left/);
    expect(card.text).toContain("✅ Buying BTC is open.");
    expect(card.buttons).toEqual([["✅ Confirm"], ["✏️ Change amount", "✖️ Cancel"]]);
    // What the card was built from.
    for (const path of [
      "/v1/exchange-rates",
      "/v1/fees/buy",
      "/v1/limits/minimum/buy",
      "/v1/assets-status/buy",
    ]) {
      expect(h.sandbox.countRequests("GET", path), path).toBeGreaterThan(0);
    }
    const before = posts(h, "/v1/buy");
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/Order placed: buy BTC for €100.00/);
    expect(posts(h, "/v1/buy")).toBe(before + 1);
    const order = h.sandbox.requests.filter((r) => r.method === "POST" && r.path === "/v1/buy").at(-1);
    expect(order?.body).toEqual({ amount: "100", currency_code: "btc" });
    // The card lost its buttons: it cannot be tapped again.
    expect(ada.messages().find((m) => m.messageId === card.messageId)?.buttons).toEqual([]);

    h.clock.advance(6_000); // the sandbox settles orders after 5 s
    await jobs.tick();
    expect((await ada.waitForReply(/completed/)).text).toBe("🎉 Your order (buy BTC for €100.00) completed.");
    await jobs.tick();
    await expect(ada.waitForReply(/completed/, 300)).rejects.toThrow();
  });

  it("/sell step by step: currency button, amount with a comma, the exact order", async () => {
    await ada.send("/sell");
    await ada.waitForReply(/Which currency do you want to sell/);
    await ada.tap("ETH");
    await ada.waitForReply(/How much ETH do you want to sell/);
    await ada.send("0,5");
    const card = await ada.waitForReply(liveCard(/Sell ETH: your quote/));
    expect(card.text).toContain("You pay: 0.5 ETH");
    expect(card.text).toContain(`Fee: €${tradeFee(new Big(1000)).toFixed(2)}`);
    expect(card.text).toContain("You get about: €985.00");
    expect(card.text).toContain("No limit applies to sales.");
    // The fee was asked for the EUR value of the sale.
    expect(h.sandbox.requests.filter((r) => r.path === "/v1/fees/sell").at(-1)?.query).toMatchObject({
      amount: "1000",
    });
    const before = posts(h, "/v1/sell");
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/Order placed: sell 0.5 ETH/);
    expect(posts(h, "/v1/sell")).toBe(before + 1);
    expect(h.sandbox.requests.filter((r) => r.path === "/v1/sell").at(-1)?.body).toEqual({
      amount: "0.5",
      currency_code: "eth",
    });
  });

  it("a failed settlement is told with the outcome", async () => {
    h.sandbox.faults.settleOrdersAs("error");
    try {
      await ada.send("/buy eth 50");
      await ada.waitForReply(liveCard(/Buy ETH: your quote/));
      await ada.tap("✅ Confirm");
      await ada.waitForReply(/Order placed/);
      h.clock.advance(6_000);
      await jobs.tick();
      expect((await ada.waitForReply(/failed/)).text).toContain("buy ETH for €50.00");
    } finally {
      h.sandbox.faults.settleOrdersAs("success");
    }
  });

  it("refuses under the minimum, over the balance, over the limit, and a closed asset: no POST", async () => {
    const before = posts(h, "/v1/buy");
    await ada.send("/buy btc 5");
    expect((await ada.waitForReply(/minimum/)).text).toBe(
      "That is below the minimum of €10.00.\nSend another amount, or /cancel to stop.",
    );
    // The flow stays at the amount step.
    await ada.send("20000");
    expect((await ada.waitForReply(/balance/)).text).toMatch(
      /^Your euro balance is €[\d,.]+, but this buy needs €20,300.00/,
    );
    await ada.send("6000");
    expect((await ada.waitForReply(/lets you buy/)).text).toMatch(
      /That is more than the exchange lets you buy: €[\d,.]+ left today\. Try a smaller amount\./,
    );
    h.sandbox.faults.closeAsset("buy", "btc");
    try {
      await ada.send("100");
      expect((await ada.waitForReply(/closed/)).text).toContain("Buying BTC is closed");
    } finally {
      h.sandbox.faults.openAsset("buy", "btc");
    }
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    await ada.send("/sell btc 10");
    expect((await ada.waitForReply(/balance/)).text).toContain("but this sell needs 10 BTC");
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    expect(posts(h, "/v1/buy")).toBe(before);
  });

  describe("bad input at the amount step: a sentence, the flow stays, no POST", () => {
    const cases: [string, (u: FakeUser) => Promise<unknown>, RegExp][] = [
      ["negative", (u) => u.send("-5"), /cannot be negative/],
      ["zero", (u) => u.send("0"), /more than zero/],
      ["exponent", (u) => u.send("1e3"), /without an exponent/],
      ["letters", (u) => u.send("abc"), /not an amount/],
      ["too many decimals", (u) => u.send("100.123"), /at most 2 here/],
      ["above 1e12", (u) => u.send("2000000000000"), /too large/],
      ["empty", (u) => u.send("   "), /send an amount/],
      ["a sticker", (u) => u.sendSticker(), /waiting for a text message/],
      ["a photo", (u) => u.sendPhoto(), /waiting for a text message/],
      ["another command", (u) => u.send("/deposit"), /middle of something/],
    ];
    for (const [name, act, expected] of cases) {
      it(name, async () => {
        const before = posts(h, "/v1/buy");
        await ada.send("/buy btc");
        await ada.waitForReply(/How many euros of BTC/);
        await act(ada);
        await ada.waitForReply(expected);
        // Still at the amount step: a good amount now gives the card.
        await ada.send("20");
        await ada.waitForReply(liveCard(/Buy BTC: your quote/));
        await ada.tap("✖️ Cancel");
        await ada.waitForReply("Cancelled. Nothing was ordered.");
        expect(posts(h, "/v1/buy")).toBe(before);
      });
    }
    it("too many decimals for a crypto", async () => {
      await ada.send("/sell btc 0.000000001");
      expect((await ada.waitForReply(/decimals/)).text).toContain("at most 8 here");
      await ada.send("/cancel");
      await ada.waitForReply(/Cancelled/);
    });
  });

  it("an unknown currency is refused with the known ones, and the step repeats", async () => {
    await ada.send("/buy dogecoin 100");
    expect((await ada.waitForReply(/do not know/)).text).toContain("BTC");
    await ada.waitForReply(/Which currency do you want to buy/);
    await ada.send("bitcoin");
    await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    await ada.tap("✖️ Cancel");
    await ada.waitForReply("Cancelled. Nothing was ordered.");
  });

  it("/cancel at every step, and the card's Cancel: nothing is ordered", async () => {
    const before = posts(h, "/v1/buy");
    await ada.send("/buy");
    await ada.waitForReply(/Which currency/);
    await ada.sendSticker();
    await ada.waitForReply(/waiting for a text message/);
    await ada.send("/cancel");
    await ada.waitForReply("Cancelled. Nothing was changed.");
    await ada.send("/buy btc");
    await ada.waitForReply(/How many euros/);
    await ada.send("/cancel");
    await ada.waitForReply("Cancelled. Nothing was changed.");
    await ada.send("/buy btc 30");
    const card = await ada.waitForReply(liveCard(/your quote/));
    await ada.tap("✖️ Cancel");
    await ada.waitForReply("Cancelled. Nothing was ordered.");
    // Confirm on the cancelled card (raw data: its buttons are gone).
    const query = await ada.tapData(card.messageId, `ord:c:${actionIdOf(card)}`);
    expect(await answerOf(h, query)).toBe("This quote was cancelled. Nothing was ordered.");
    expect(posts(h, "/v1/buy")).toBe(before);
    // Tapped again and again: the card says "Cancelled." once, not once per tap.
    for (let tap = 0; tap < 2; tap++) {
      await answerOf(h, await ada.tapData(card.messageId, `ord:c:${actionIdOf(card)}`));
    }
    // A chat's updates are handled in order: once /help is answered, every tap's edit is done.
    await ada.send("/help");
    await ada.waitForReply((m) => !m.edited);
    const shown = ada.messages().find((m) => m.messageId === card.messageId);
    expect(shown?.text.match(/✖️ Cancelled\./g)).toHaveLength(1);
  });

  it("Change amount asks again and makes a new card; the old one is dead", async () => {
    const before = posts(h, "/v1/buy");
    await ada.send("/buy btc 30");
    const old = await ada.waitForReply(liveCard(/your quote/));
    await ada.tap("✏️ Change amount");
    await ada.waitForReply(/How many euros of BTC/);
    await ada.send("40");
    const card = await ada.waitForReply(liveCard(/your quote/));
    expect(card.text).toContain("You pay: €40.60");
    const query = await ada.tapData(old.messageId, `ord:c:${actionIdOf(old)}`);
    expect(await answerOf(h, query)).not.toContain("Placing");
    expect(posts(h, "/v1/buy")).toBe(before);
    await ada.tap("✅ Confirm", card);
    await ada.waitForReply(/Order placed: buy BTC for €40.00/);
    expect(posts(h, "/v1/buy")).toBe(before + 1);
  });

  it("the exchange's refusal of the POST is told, and nothing is retried", async () => {
    await ada.send("/buy btc 25");
    await ada.waitForReply(liveCard(/your quote/));
    h.sandbox.faults.closeAsset("buy", "btc"); // closes between the quote and the Confirm
    try {
      const before = posts(h, "/v1/buy");
      await ada.tap("✅ Confirm");
      expect((await ada.waitForReply(/refused/)).text).toBe(
        "❌ The exchange refused the order, so nothing was ordered. Check the amount and your balance, then try again.",
      );
      expect(posts(h, "/v1/buy")).toBe(before + 1);
    } finally {
      h.sandbox.faults.openAsset("buy", "btc");
    }
  });

  it("speaks German", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/buy btc 100");
    const card = await bea.waitForReply(liveCard(/kaufen: dein Angebot/));
    expect(card.text).toMatch(/Du zahlst: 101,50\s€/);
    expect(card.buttons[0]).toEqual(["✅ Bestätigen"]);
    await bea.tap("✖️ Abbrechen");
    await bea.waitForReply("Abgebrochen. Es wurde nichts beauftragt.");
  });
});

describe("/buy when the session expires in the middle", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("logs in again inside the flow and shows the quote the user asked for, without ordering", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/buy btc");
    await ada.waitForReply(/How many euros/);
    h.sandbox.faults.expireAllTokens();
    await ada.send("100");
    await ada.waitForReply(/Log in again and we carry on/);
    await ada.waitForReply(/password of/);
    await ada.send(h.sandbox.demo.password);
    await ada.waitForReply(/6-digit/);
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/Logged in/);
    const card = await ada.waitForReply((m) => m.buttons.flat().some((b) => /Confirm/.test(b)));
    expect(card.text).toContain("BTC");
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(0);
  });
});

describe("/buy when the session expires while the user is locked out of logging in", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("says when to try again instead of asking for the password (SECURITY.md, rule 3)", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/buy btc");
    await ada.waitForReply(/How many euros/);
    // Five failed logins of this Telegram user (from another device, say): locked for 15 minutes.
    const wrong = { email: h.sandbox.demo.email, password: "not-the-password", securityCode: "000000" };
    for (let i = 0; i < 5; i++) await h.deps.sessions.login(ada.id, wrong);
    h.sandbox.faults.expireAllTokens();
    const seen = ada.messages().length;
    await ada.send("100");
    await ada.waitForReply(/Log in again and we carry on/);
    expect((await ada.waitForReply()).text).toMatch(/Too many failed logins.*wait until \d\d:\d\d/);
    await h.telegram.waitUntilIdle({ quietMs: 100 });
    expect(
      ada
        .messages()
        .slice(seen)
        .some((m) => /password/.test(m.text)),
    ).toBe(false);
  });
});

describe("another command in the middle of /sell", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("gets a hint, runs nothing, and the flow takes the amount afterwards", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/sell eth");
    await ada.waitForReply(/ETH/);
    const before = h.sandbox.requests.length;
    for (const command of ["/balance", "/me", "/transactions", "/send"]) {
      await ada.send(command);
      await ada.waitForReply(/middle of something|finish|\/cancel/i);
    }
    // None of those commands reached the exchange.
    expect(h.sandbox.requests.slice(before).map((r) => r.path)).toEqual([]);
    await ada.send("0.1");
    await ada.waitForReply((m) => m.buttons.flat().some((b) => /Confirm/.test(b)));
  });
});
