import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCurrency } from "../../../src/bot/ui/currency-choice.ts";
import { formatDateTime } from "../../../src/bot/ui/format.ts";
import { changeArrow, formatPrice } from "../../../src/bot/ui/price-format.ts";
import { formatPercent } from "../../../src/money.ts";
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

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/prices");
    const reply = await bob.waitForReply();
    expect(reply.text).toContain("log in");
    expect(reply.buttons.flat()).toContain("🔐 Log in");
    await bob.send("/price btc");
    expect((await bob.waitForReply()).text).toContain("log in");
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
        `${changeArrow(change)} ${currency.name} (${currency.code.toUpperCase()}): ${formatPrice(price, "en")} (${formatPercent(change, "en")} in 24 h)`,
      );
    }
    expect(reply.text).toContain("/price btc");
  });

  it("shows an arrow up for a rise and down for a fall", async () => {
    // Pinned from now on: the price 24 h ago is still the drifting one, near the base price.
    h.sandbox.setPrice("ltc", "160");
    h.sandbox.setPrice("eth", "1500");
    await ada.send("/prices");
    const reply = await ada.waitForReply(/Prices in euros/);
    const ltc = formatPercent(h.sandbox.market.change24h("ltc", now()), "en");
    const eth = formatPercent(h.sandbox.market.change24h("eth", now()), "en");
    expect(reply.text).toContain(`▲ Litecoin (LTC): €160.00 (${ltc} in 24 h)`);
    expect(reply.text).toContain(`▼ Ethereum (ETH): €1,500.00 (${eth} in 24 h)`);
  });

  it("/price btc, BTC, btceur and bitcoin all give the BTC rate with its time", async () => {
    h.sandbox.setPrice("btc", "12345.67");
    for (const typed of ["btc", "BTC", "btceur", "bitcoin"]) {
      await ada.send(`/price ${typed}`);
      const reply = await ada.waitForReply(/Bitcoin/);
      expect(reply.text).toContain("Bitcoin (BTC): €12,345.67");
      expect(reply.text).toContain(`Rate of ${formatDateTime(now(), "en")} UTC`);
      expect(reply.text).toMatch(/24 h: [▲▼•] /);
    }
  });

  it("shows coins under one euro with more than cents", async () => {
    h.sandbox.setPrice("xrp", "0.5123");
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
    expect(reply.text).toContain(`Kurs vom ${formatDateTime(now(), "de")} UTC`);
    await ute.send("/prices");
    const ltc = formatPercent(h.sandbox.market.change24h("ltc", now()), "de");
    expect((await ute.waitForReply(/Kurse in Euro/)).text).toContain(
      `▲ Litecoin (LTC): 160,00\u00a0€ (${ltc} in 24 h)`,
    );
    await ute.send("/price doge");
    expect((await ute.waitForReply()).text).toContain("Die Währung „doge“ kenne ich nicht");
  });
});
