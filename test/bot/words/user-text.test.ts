/**
 * Text a user typed comes back without its bidirectional controls, so a
 * crafted right-to-left override cannot reorder what the bot appears to say.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasBidiControl, userText } from "../../../src/bot/ui/user-text.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const RLO = "\u202E";
const CONTROLS = [
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  RLO,
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u200F",
  "\u061C",
];

describe("userText", () => {
  it("removes every bidi control and keeps the letters, also of right-to-left scripts", () => {
    for (const control of CONTROLS) expect(userText(`a${control}b`)).toBe("ab");
    expect(userText("مرحبا btc")).toBe("مرحبا btc");
    expect(hasBidiControl(userText(CONTROLS.join("x")))).toBe(false);
  });

  it("cuts to a number of characters without splitting an emoji", () => {
    expect(userText("🚀🚀🚀", 2)).toBe("🚀🚀");
    expect(userText(`${RLO}abc`, 2)).toBe("ab");
  });
});

describe("echoes of typed text in replies", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(() => h.stop());

  for (const [languageCode, sentence] of [
    ["en", "I do not know the currency “png”"],
    ["de", "Die Währung „png“ kenne ich nicht"],
  ] as const) {
    it(`/price with a right-to-left override answers without it (${languageCode})`, async () => {
      const ada = await h.loggedInUser(undefined, { languageCode });
      await ada.send(`/price ${RLO}png`);
      const reply = await ada.waitForReply();
      expect(hasBidiControl(reply.text)).toBe(false);
      // The override is gone, so the letters stand in the order they were typed.
      expect(reply.text).toContain(sentence);
    });
  }

  it("the trade flow, /send and the fee lookup answer an unknown currency without the controls", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/buy");
    await ada.waitForReply(/Which currency/);
    await ada.send(`${RLO}xyz${"\u2066"}`);
    const buy = await ada.waitForReply(/I do not know the currency/);
    expect(hasBidiControl(buy.text)).toBe(false);
    expect(buy.text).toContain("“xyz”");
    await ada.send("/cancel");
    await ada.waitForReply();
    await ada.send("/send");
    await ada.waitForReply(/Which currency/);
    await ada.send(`${RLO}xyz`);
    const send = await ada.waitForReply(/I do not know the currency/);
    expect(hasBidiControl(send.text)).toBe(false);
    await ada.send("/cancel");
    await ada.waitForReply();
  });
});

describe("every echo of a typed currency goes through userText", () => {
  it("no `{ input: … }` handed to a sentence without it", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const root = new URL("../../../src/bot/", import.meta.url).pathname;
    const offenders: string[] = [];
    for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts")) continue;
      const lines = readFileSync(join(root, entry), "utf8").split("\n");
      for (const [i, line] of lines.entries()) {
        // The variable of "I do not know the currency “…”" in every feature's sentence.
        if (/\binput: (?!userText\()/.test(line) && /t\(|vars/.test(line))
          offenders.push(`${entry}:${i + 1}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
