import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkAddress, cleanAddress } from "../../../src/domain/crypto-address.ts";
import { OrderClients } from "../../../src/orders/clients.ts";
import { Ledger } from "../../../src/orders/ledger.ts";
import { reconcileUser } from "../../../src/orders/reconcile.ts";
import type { RecordedRequest } from "../../../src/sandbox/server.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";
import { savedLongAgo } from "../../support/safety.ts";

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const ETH = "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe";

describe("recipient addresses", () => {
  it("cleans pasted addresses and payment links", () => {
    expect(cleanAddress(` bitcoin:${BTC.toUpperCase()}?amount=0.01&label=x `)).toBe(BTC);
    expect(cleanAddress("1A1z P1eP5QGefi2DMP\nTfTL5SLmv7DivfNa")).toBe("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
    expect(cleanAddress(`ethereum:${ETH}@1`)).toBe(ETH);
    expect(
      cleanAddress(
        `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH}&uint256=1e6`,
      ),
    ).toBe(ETH);
  });
  it("checks format and checksum per currency (bech32, base58, EIP-55, XRP; USDC as ERC-20)", async () => {
    const known = ["btc", "eth", "ltc", "xrp", "usdc"];
    expect(await checkAddress(BTC, "btc", known)).toMatchObject({ ok: true, checked: true });
    expect(await checkAddress("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "btc", known)).toMatchObject({
      ok: true,
    });
    expect(
      await checkAddress("bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297", "btc"),
    ).toMatchObject({
      ok: true,
    });
    expect(await checkAddress(`${BTC.slice(0, -1)}x`, "btc", known)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await checkAddress(ETH, "btc", known)).toEqual({
      ok: false,
      reason: "other-currency",
      other: "eth",
    });
    expect(await checkAddress(ETH, "usdc", known)).toMatchObject({ ok: true });
    expect(await checkAddress(ETH.replace("B", "b"), "eth", known)).toEqual({ ok: false, reason: "invalid" });
    expect(await checkAddress("LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1", "ltc", known)).toMatchObject({
      ok: true,
    });
    expect(await checkAddress("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh", "xrp", known)).toMatchObject({
      ok: true,
    });
    expect(await checkAddress("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLj", "xrp", known)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await checkAddress("whatever", "newcoin", known)).toMatchObject({ ok: true, checked: false });
  });
});

describe("/send", () => {
  let h: Harness;
  let ada: FakeUser;
  let mark = 0;
  const sends = (): RecordedRequest[] =>
    h.sandbox.requests.slice(mark).filter((r) => r.method === "POST" && r.path === "/v1/send");
  const sendTransactions = () =>
    [...h.sandbox.state.iterateTransactionsOf(h.sandbox.seeded.demo)].filter(
      (tx) => tx.type === "crypto_withdraw",
    ).length;
  /** A valid code that is not the current one (nor its neighbours, in all likelihood). */
  const wrongCode = () => String((Number(h.sandbox.currentCode()) + 500_000) % 1_000_000).padStart(6, "0");

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    // With the allowlist on (every new user's default), BTC goes only to a saved address past its cooling-off.
    await savedLongAgo(h, ada.id, "btc", BTC);
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(async () => {
    h.sandbox.setPrice("btc", "60000");
    await ada.send("/cancel");
    await ada.waitForReply();
    mark = h.sandbox.requests.length;
  });

  async function toAddress(): Promise<void> {
    await ada.send("/send");
    await ada.waitForReply(/Which currency/);
    await ada.tap("BTC");
    await ada.waitForReply(/BTC address/);
  }
  async function toAmount(address = BTC): Promise<void> {
    await toAddress();
    await ada.send(address);
    await ada.waitForReply(/How much BTC/);
  }
  async function toCard(amount = "0.001"): Promise<SentMessage> {
    await toAmount();
    await ada.send(amount);
    return ada.waitForReply(/Send BTC/);
  }

  it("sends end to end: quote card, Confirm, the typed code, POST v1/send with it", async () => {
    const card = await toCard("0,001");
    expect(card.text).toContain("Amount: 0.001 BTC (≈ €60.00)");
    expect(card.text).toContain(`To: ${BTC}`);
    expect(card.text).toContain("Exchange fee: 0.0002 BTC");
    expect(card.text).toContain("Miner fee: 0.0001 BTC");
    expect(card.text).toContain("Taken from your balance: 0.0013 BTC");
    expect(card.text).toContain("Minimum send: 0.0005 BTC");
    expect(card.text).toMatch(/Daily crypto-withdrawal limit left: €[\d,.]+/);
    expect(sends()).toEqual([]);

    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    expect(sends()).toEqual([]);
    const code = h.sandbox.currentCode();
    const typed = await ada.send(code);
    const placed = await ada.waitForReply(/accepted your order/);
    expect(placed.text).toContain(`0.001 BTC to ${BTC}`);
    // The code's message was deleted.
    expect(ada.deletedMessageIds()).toContain(typed.message_id);

    expect(sends()).toHaveLength(1);
    const post = sends()[0] as RecordedRequest;
    expect(post.body).toEqual({
      amount: "0.001",
      address: BTC,
      currency_code: "btc",
      security_code: Number(code),
    });
    // Recorded in the order ledger, placed, with its exchange transaction.
    const ledger = new Ledger(h.deps.store, h.deps.clock);
    const [open] = await ledger.open(ada.id);
    expect(open).toMatchObject({ kind: "send", state: "placed", amount: "0.001", address: BTC });
    expect(open?.transactionId).toBeTypeOf("number");

    // Followed to settlement: once the exchange settles it, reconciliation says so, once.
    h.clock.advance(6_000);
    const clients = new OrderClients(h.deps.sessions);
    const follow = { ledger, clients, profiles: h.deps.profiles, clock: h.deps.clock };
    const notices = await reconcileUser(follow, ada.id);
    expect(notices.map((n) => [n.kind, n.action.id])).toEqual([["settled", open?.id]]);
    expect(await reconcileUser(follow, ada.id)).toEqual([]);
  });

  it("accepts a pasted payment link with spaces, and a typed currency", async () => {
    await ada.send("/send");
    await ada.waitForReply(/Which currency/);
    await ada.send("bitcoin");
    await ada.waitForReply(/BTC address/);
    await ada.send(` bitcoin:${BTC.slice(0, 20)} ${BTC.slice(20)}?amount=0.5 `);
    await ada.waitForReply(/How much BTC/);
    await ada.send("0.0006");
    const card = await ada.waitForReply(/Send BTC/);
    expect(card.text).toContain(`To: ${BTC}`);
  });

  it("a double tap on Confirm asks for one code and places one order", async () => {
    const card = await toCard();
    const button = card.message.reply_markup?.inline_keyboard.flat()[0];
    const confirm = button && "callback_data" in button ? (button.callback_data ?? "") : "";
    expect(confirm).toMatch(/^ord:c:/);
    await Promise.all([ada.tapData(card.messageId, confirm), ada.tapData(card.messageId, confirm)]);
    await ada.waitForReply(/6-digit code/);
    await ada.waitForCall("answerCallbackQuery", (c) => /Already confirmed/.test(String(c.payload.text)));
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/accepted your order/);
    const asked = ada.messages().filter((m) => m.text.includes("6-digit code from your authenticator"));
    expect(asked.filter((m) => m.messageId > card.messageId)).toHaveLength(1);
    expect(sends()).toHaveLength(1);
    // A tap on the card after the order was placed does nothing.
    await ada.tapData(card.messageId, confirm);
    await ada.waitForCall("answerCallbackQuery", (c) => /no longer active/.test(String(c.payload.text)));
    expect(sends()).toHaveLength(1);
  });

  it("never reaches the exchange without a code: /cancel at the code step sends nothing", async () => {
    await toCard();
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    await ada.send("12345");
    expect((await ada.waitForReply()).text).toContain("type the 6-digit code");
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
    expect(sends()).toEqual([]);
  });

  it("a wrong code is asked again; the order carries the code typed last", async () => {
    const before = sendTransactions();
    await toCard();
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    const wrong = wrongCode();
    await ada.send(wrong);
    expect((await ada.waitForReply(/did not accept that code/)).text).toContain("Tries left: 2");
    const right = h.sandbox.currentCode();
    await ada.send(right);
    await ada.waitForReply(/accepted your order/);
    expect(sends().map((r) => (r.body as { security_code: number }).security_code)).toEqual([
      Number(wrong),
      Number(right),
    ]);
    expect(sendTransactions()).toBe(before + 1);
  });

  it("cancels after too many wrong codes, nothing sent", async () => {
    const before = sendTransactions();
    await toCard();
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    for (let i = 0; i < 3; i++) {
      await ada.send(wrongCode());
      await ada.waitForReply(/did not accept|refused too often/);
    }
    expect(ada.lastMessage()?.text).toContain("Nothing was sent");
    expect(sends()).toHaveLength(3);
    expect(sendTransactions()).toBe(before);
  });

  it("Cancel on the card sends nothing", async () => {
    await toCard();
    await ada.tap("✖️ Cancel");
    await ada.waitForReply(/Cancelled. Nothing was sent/);
    expect(sends()).toEqual([]);
  });

  it("a quote older than a minute is made again instead of confirmed", async () => {
    await toCard();
    h.clock.advance(61_000);
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/expired, so here is a fresh one/);
    const fresh = await ada.waitForReply(/Send BTC/);
    expect(fresh.buttons.flat()).toContain("✅ Confirm");
    expect(sends()).toEqual([]);
  });

  describe("bad input: a sentence, the flow stays, nothing is sent", () => {
    const amounts: [string, string][] = [
      ["-0.001", "cannot be negative"],
      ["0", "more than zero"],
      ["1e-3", "without an exponent"],
      ["abc", "not an amount"],
      ["0.000000001", "too many decimals"],
      ["2000000000000", "too large"],
      [" ", "Please send an amount"],
      ["0.0001", "below the minimum"],
      ["1", "The most you can send is 0.04"],
    ];
    for (const [typed, sentence] of amounts) {
      it(`amount “${typed}”`, async () => {
        await toAmount();
        await ada.send(typed);
        expect((await ada.waitForReply()).text).toContain(sentence);
        await ada.send("0.001");
        await ada.waitForReply(/Send BTC/);
        expect(sends()).toEqual([]);
      });
    }

    it("an amount over the crypto-withdrawal limit", async () => {
      h.sandbox.setPrice("btc", "200000");
      await toAmount();
      await ada.send("0.03");
      expect((await ada.waitForReply()).text).toContain(
        "more than is left of your daily crypto-withdrawal limit",
      );
      expect(sends()).toEqual([]);
    });

    it("an address of another currency", async () => {
      await toAddress();
      await ada.send(ETH);
      expect((await ada.waitForReply()).text).toContain("That is a ETH address, not a BTC address");
      await ada.send(BTC);
      await ada.waitForReply(/How much BTC/);
      expect(sends()).toEqual([]);
    });

    it("an address with a wrong checksum", async () => {
      await toAddress();
      await ada.send(`${BTC.slice(0, -1)}x`);
      expect((await ada.waitForReply()).text).toContain("not a valid BTC address");
      expect(sends()).toEqual([]);
    });

    it("a sticker, a photo and another command", async () => {
      await toAmount();
      await ada.sendSticker();
      expect((await ada.waitForReply()).text).toContain("waiting for a text message");
      await ada.sendPhoto();
      expect((await ada.waitForReply()).text).toContain("waiting for a text message");
      await ada.send("/balance");
      expect((await ada.waitForReply()).text).toContain("middle of something");
      await ada.send("0.001");
      await ada.waitForReply(/Send BTC/);
      expect(sends()).toEqual([]);
    });

    it("an unknown currency and euros", async () => {
      await ada.send("/send");
      await ada.waitForReply(/Which currency/);
      await ada.send("doge");
      expect((await ada.waitForReply()).text).toContain("do not know the currency “doge”");
      await ada.waitForReply(/Which currency/);
      await ada.send("eur");
      expect((await ada.waitForReply()).text).toContain("/withdraw");
      expect(sends()).toEqual([]);
    });

    it("/cancel at every step", async () => {
      const steps: (() => Promise<unknown>)[] = [
        async () => {
          await ada.send("/send");
          await ada.waitForReply(/Which currency/);
        },
        toAddress,
        () => toAmount(),
        () => toCard(),
        async () => {
          await toCard();
          await ada.tap("✅ Confirm");
          await ada.waitForReply(/6-digit code/);
        },
      ];
      for (const step of steps) {
        await step();
        await ada.send("/cancel");
        expect((await ada.waitForReply()).text).toContain("Cancelled");
      }
      expect(sends()).toEqual([]);
    });

    it("sending closed for the asset", async () => {
      h.sandbox.faults.closeAsset("send", "btc");
      try {
        await ada.send("/send btc");
        expect((await ada.waitForReply()).text).toContain("Sending BTC is paused");
        await ada.waitForReply(/Which currency/);
      } finally {
        h.sandbox.faults.openAsset("send", "btc");
      }
      expect(sends()).toEqual([]);
    });
  });

  it("answers in German", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/send");
    await bea.waitForReply(/Welche Währung/);
    await bea.tap("BTC");
    await bea.waitForReply(/BTC-Adresse/);
    await bea.send(ETH);
    expect((await bea.waitForReply()).text).toContain("Das ist eine ETH-Adresse");
  });
});
