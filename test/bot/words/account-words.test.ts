/**
 * Each sentence a
 * user met that said something untrue or unhelpful, driven through the chat as a user would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArguments } from "../../../src/bot/flows/trade-steps.ts";
import { type Harness, logIn, startHarness } from "../../support/harness.ts";

describe("reading /buy's arguments", () => {
  it("takes letters as the currency and anything else as the amount", () => {
    expect(readArguments("btc 💯")).toEqual({ currency: "btc", amount: "💯" });
    expect(readArguments("bitcoin cash 12,5")).toEqual({ currency: "bitcoin cash", amount: "12,5" });
    expect(readArguments("100 btc")).toEqual({ currency: "btc", amount: "100" });
  });
});

describe("words that mislead (account mode)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(() => h.stop());

  for (const [languageCode, notAmount, again] of [
    ["en", "That is not an amount.", "Send another amount, or /cancel to stop."],
    ["de", "Das ist kein Betrag.", "Sende einen anderen Betrag, oder /cancel zum Abbrechen."],
  ] as const) {
    it(`/buy btc 💯 knows the currency and says the amount is not understood (${languageCode})`, async () => {
      const ada = await h.loggedInUser(undefined, { languageCode });
      await ada.send("/buy btc 💯");
      const reply = await ada.waitForReply();
      expect(reply.text).toContain(notAmount);
      expect(reply.text).toContain(again);
      expect(reply.text).not.toMatch(/btc 💯/);
      await ada.send("/cancel");
      await ada.waitForReply();
    });
  }

  for (const [languageCode, eth, btc] of [
    ["en", "also as a payment link (e.g. ethereum:…)", "also as a payment link (e.g. bitcoin:…)"],
    ["de", "auch als Zahlungslink (z. B. ethereum:…)", "auch als Zahlungslink (z. B. bitcoin:…)"],
  ] as const) {
    it(`the address prompt gives a payment link of the chosen currency (${languageCode})`, async () => {
      const ada = await h.loggedInUser(undefined, { languageCode });
      await ada.send("/send eth");
      const ethPrompt = await ada.waitForReply(/ETH/);
      expect(ethPrompt.text).toContain(eth);
      expect(ethPrompt.text).not.toContain("bitcoin:");
      await ada.send("/cancel");
      await ada.waitForReply();
      await ada.send("/send btc");
      expect((await ada.waitForReply(/BTC/)).text).toContain(btc);
      await ada.send("/cancel");
      await ada.waitForReply();
    });
  }
});

describe("/help in a group", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  for (const [languageCode, sentence, button] of [
    ["en", "In a group I answer /prices and /price", "Open a private chat with me"],
    ["de", "In einer Gruppe beantworte ich /prices und /price", "Privaten Chat mit mir öffnen"],
  ] as const) {
    it(`says what a group gets, with a button that opens the private chat (${languageCode})`, async () => {
      const bob = h.user(undefined, { languageCode });
      const mark = h.telegram.messageLog.items.length;
      await bob.sendInGroup("/help");
      const { item } = await h.telegram.messageLog.waitFor(
        mark,
        (m) => m.chatId < 0,
        5000,
        () => h.telegram.describeRecentCalls(8),
      );
      expect(item.text).toContain(sentence);
      expect(item.replyMarkup).toEqual({
        inline_keyboard: [
          [{ text: button, url: `https://t.me/${h.telegram.botInfo.username}?start=from-group` }],
        ],
      });
    });
  }
});

describe("times after the user chose a zone", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  for (const [languageCode, pattern] of [
    ["en", /until \d{1,2}:\d\d\s[AP]M \(Europe\/Berlin\)/],
    ["de", /\d\d:\d\d \(Europe\/Berlin\)/],
  ] as const) {
    it(`the login's session end is in Berlin time, named (${languageCode})`, async () => {
      const ada = h.user(undefined, { languageCode });
      await h.deps.profiles.update(ada.id, (p) => ({ ...p, timeZone: "Europe/Berlin" }));
      const notice = await logIn(ada, h.sandbox);
      // The security notice's time too.
      expect(notice.text).toContain("(Europe/Berlin)");
      const success = ada.messages().find((m) => /Logged in as|Angemeldet als/.test(m.text));
      expect(success?.text).toMatch(pattern);
      expect(success?.text).not.toMatch(/UTC/);
    });
  }
});
