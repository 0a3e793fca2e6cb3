import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCurrency } from "../../../src/bot/ui/currency-choice.ts";
import { formatDateTime } from "../../../src/bot/ui/format.ts";
import { changeArrow, formatPrice } from "../../../src/bot/ui/price-format.ts";
import { formatChange } from "../../../src/domain/money.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("resolveCurrency", () => {
  const list = [
    { code: "btc", name: "Bitcoin" },
    { code: "usdc", name: "USD Coin" },
  ];
  it("takes a code, a pair or a name, in any case", () => {
    for (const typed of [
      "btc",
      "BTC",
      " btceur ",
      "BTC/EUR",
      "btc-eur",
      "bitcoin",
      "Bitcoin",
      "bitcoineur",
    ]) {
      expect(resolveCurrency(typed, list)?.code).toBe("btc");
    }
    expect(resolveCurrency("usd coin", list)?.code).toBe("usdc");
    expect(resolveCurrency("USDCEUR", list)?.code).toBe("usdc");
  });
  it("knows nothing else", () => {
    for (const typed of ["", "eur", "doge", "btcusd", "bit coin x"])
      expect(resolveCurrency(typed, list)).toBeUndefined();
  });
});

describe("formatPrice", () => {
  it("shows cents from one euro on and more decimals below", () => {
    expect(formatPrice(new Big("60000"), "en")).toBe("€60,000.00");
    expect(formatPrice(new Big("0.5123"), "en")).toBe("€0.5123");
    expect(formatPrice(new Big("0.5123"), "de")).toBe("0,5123\u00a0€");
    expect(formatPrice(new Big("0.5"), "en")).toBe("€0.50");
  });
});

describe("/prices and /price", () => {
  let h: Harness;
  let ada: FakeUser;
  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
  });
  afterAll(async () => {
    await h.stop();
  });

  const now = () => h.clock.now();
  /** Past the market feed's TTL (10 s by default), so a price just set is read again. */
  const nextTick = () => h.clock.advance(10_000);

  it("answers a user who never logged in, from the shared feed", async () => {
    const bob = h.user();
    await bob.send("/prices");
    const reply = await bob.waitForReply(/Prices in euros/);
    expect(reply.text).toContain("Bitcoin (BTC): ");
    await bob.send("/price btc");
    expect((await bob.waitForReply()).text).toContain("Bitcoin (BTC): ");
  });

  it("many readers in one TTL cost one exchange request", async () => {
    nextTick();
    const before = h.sandbox.countRequests("GET", "/v1/prices");
    const users = [h.user(), h.user(), ada];
    for (const user of users) await user.send("/prices");
    for (const user of users) await user.waitForReply(/Prices in euros/);
    await ada.send("/price eth");
    await ada.waitForReply(/Ethereum/);
    expect(h.sandbox.countRequests("GET", "/v1/prices")).toBe(before + 1);
  });

  it("/price in a group answers there; /price alone says how; other commands still go private", async () => {
    const bob = h.user();
    await bob.sendInGroup("/price btc");
    const card = await h.telegram.messageLog.waitFor(
      0,
      (m) => m.chatId < 0 && m.text.includes("Bitcoin (BTC): "),
      5000,
      () => h.telegram.describeRecentCalls(8),
    );
    expect(card.item.text).toMatch(/24 h: [▲▼•] /);
    await bob.sendInGroup(`/prices@${h.telegram.botInfo.username}`);
    const list = await h.telegram.messageLog.waitFor(
      card.index + 1,
      (m) => m.chatId < 0 && m.text.includes("Prices in euros"),
      5000,
      () => h.telegram.describeRecentCalls(8),
    );
    await bob.sendInGroup("/price");
    const usage = await h.telegram.messageLog.waitFor(
      list.index + 1,
      (m) => m.chatId < 0,
      5000,
      () => h.telegram.describeRecentCalls(8),
    );
    expect(usage.item.text).toBe(
      "Send /price with a currency, for example /price btc. Known currencies: BTC, ETH, LTC, XRP, USDC.",
    );
    await bob.sendInGroup("/balance");
    const redirect = await h.telegram.messageLog.waitFor(
      usage.index + 1,
      (m) => m.chatId < 0,
      5000,
      () => h.telegram.describeRecentCalls(8),
    );
    expect(redirect.item.text).toContain("private chat");
  });

  it("/prices lists every currency with its price and 24 h change, as the exchange quotes them", async () => {
    await ada.send("/prices");
    const reply = await ada.waitForReply(/Prices in euros/);
    const currencies = h.sandbox.market.currencies();
    expect(currencies.length).toBeGreaterThan(3);
    for (const currency of currencies) {
      const price = h.sandbox.market.price(currency.code, now());
      const change = h.sandbox.market.change24h(currency.code, now());
      expect(reply.text).toContain(
        `${changeArrow(change)} ${currency.name} (${currency.code.toUpperCase()}): ${formatPrice(price, "en")} (${formatChange(change, "en")} in 24 h)`,
      );
    }
    expect(reply.text).toContain("/price btc");
  });

  it("shows an arrow up for a rise and down for a fall", async () => {
    // Pinned from now on: the price 24 h ago is still the drifting one, near the base price.
    h.sandbox.setPrice("ltc", "160");
    h.sandbox.setPrice("eth", "1500");
    nextTick();
    await ada.send("/prices");
    const reply = await ada.waitForReply(/Prices in euros/);
    const ltc = formatChange(h.sandbox.market.change24h("ltc", now()), "en");
    const eth = formatChange(h.sandbox.market.change24h("eth", now()), "en");
    expect(reply.text).toContain(`▲ Litecoin (LTC): €160.00 (${ltc} in 24 h)`);
    expect(reply.text).toContain(`▼ Ethereum (ETH): €1,500.00 (${eth} in 24 h)`);
  });

  it("/price btc, BTC, btceur and bitcoin all give the BTC rate with its time", async () => {
    h.sandbox.setPrice("btc", "12345.67");
    nextTick();
    for (const typed of ["btc", "BTC", "btceur", "bitcoin"]) {
      await ada.send(`/price ${typed}`);
      const reply = await ada.waitForReply(/Bitcoin/);
      expect(reply.text).toContain("Bitcoin (BTC): €12,345.67");
      expect(reply.text).toContain(`Rate of ${formatDateTime(now(), "en")}`);
      expect(reply.text).toMatch(/24 h: [▲▼•] /);
    }
  });

  it("shows coins under one euro with more than cents", async () => {
    h.sandbox.setPrice("xrp", "0.5123");
    nextTick();
    await ada.send("/price xrp");
    expect((await ada.waitForReply(/XRP/)).text).toContain("XRP (XRP): €0.5123");
  });

  it("answers an unknown currency with the list of known codes", async () => {
    await ada.send("/price doge");
    const reply = await ada.waitForReply();
    expect(reply.text).toBe("I do not know the currency “doge”. Known currencies: BTC, ETH, LTC, XRP, USDC.");
  });

  it("/price alone asks which, with a button per currency; a tap answers", async () => {
    await ada.send("/price");
    const question = await ada.waitForReply(/Which currency/);
    expect(question.buttons.flat()).toEqual(h.sandbox.market.currencies().map((c) => c.code.toUpperCase()));
    await ada.tap("ETH");
    const reply = await ada.waitForReply(/Ethereum/);
    expect(reply.text).toContain(
      `Ethereum (ETH): ${formatPrice(h.sandbox.market.price("eth", now()), "en")}`,
    );
  });

  it("/price alone also takes the currency typed, and asks again after an unknown one", async () => {
    await ada.send("/price");
    await ada.waitForReply(/Which currency/);
    await ada.send("dogecoin");
    expect((await ada.waitForReply()).text).toContain("Known currencies: BTC, ETH, LTC, XRP, USDC");
    await ada.send("Litecoin");
    expect((await ada.waitForReply(/Litecoin/)).text).toContain("Litecoin (LTC): €160.00");
  });

  it("a button of an old question still answers", async () => {
    await ada.send("/price");
    const question = await ada.waitForReply(/Which currency/);
    await ada.send("btc");
    await ada.waitForReply(/Bitcoin/);
    await ada.tap("LTC", question);
    expect((await ada.waitForReply(/Litecoin/)).text).toContain("Litecoin (LTC): €160.00");
  });

  it("another command while the question waits is simply handled", async () => {
    await ada.send("/price");
    await ada.waitForReply(/Which currency/);
    await ada.send("/prices");
    await ada.waitForReply(/Prices in euros/);
    // The question is gone: plain text is no longer read as a currency.
    await ada.send("/price eth");
    await ada.waitForReply(/Ethereum/);
  });

  it("answers in German", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/price btc");
    const reply = await ute.waitForReply(/Bitcoin/);
    expect(reply.text).toContain("Bitcoin (BTC): 12.345,67\u00a0€");
    expect(reply.text).toContain(`Kurs vom ${formatDateTime(now(), "de")}`);
    await ute.send("/prices");
    const ltc = formatChange(h.sandbox.market.change24h("ltc", now()), "de");
    expect((await ute.waitForReply(/Kurse in Euro/)).text).toContain(
      `▲ Litecoin (LTC): 160,00\u00a0€ (${ltc} in 24 h)`,
    );
    await ute.send("/price doge");
    expect((await ute.waitForReply()).text).toContain("Die Währung „doge“ kenne ich nicht");
  });
});

describe("/prices and /price when the feed has nothing, or only old data", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("nobody logged in and no market-data account: a sentence, in groups too", async () => {
    const bob = h.user();
    await bob.send("/prices");
    expect((await bob.waitForReply()).text).toBe(
      "I have no connection to the exchange's prices yet. Log in with /login, or try again later.",
    );
    await bob.send("/price btc");
    expect((await bob.waitForReply()).text).toContain("I have no connection");
    const ute = h.user(undefined, { languageCode: "de" });
    await ute.send("/price");
    expect((await ute.waitForReply()).text).toContain("Ich habe noch keine Verbindung");
  });

  it("exchange down: the last prices with their age", async () => {
    const ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "50000");
    h.clock.advance(10_000);
    await ada.send("/price btc");
    expect((await ada.waitForReply(/Bitcoin/)).text).not.toContain("As of");

    h.clock.advance(5 * 60_000);
    h.sandbox.faults.failNext(100, 503, { method: "GET", path: "/v1/prices" });
    await ada.send("/price btc");
    const stale = await ada.waitForReply(/Bitcoin/, 15_000);
    expect(stale.text).toContain("Bitcoin (BTC): €50,000.00");
    expect(stale.text).toContain("⚠️ As of 5 minutes ago: the exchange cannot be reached right now.");
    await ada.send("/prices");
    expect((await ada.waitForReply(/Prices in euros/)).text).toContain("As of 5 minutes ago");
    h.sandbox.faults.reset();
  }, 20_000);
});
