/**
 * The settings that take words, asked step by step when the words are left out: a /safety daily
 * cap (which cap, then the amount or "No limit"), quiet hours (from, to, or none) and the time
 * zone (a city). Each guided path ends where the typed shortcut does: the same sentence, the same
 * setting saved. /cancel leaves each of them. Real sandbox, real SQLite, the Bot API double.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("guided /safety caps", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it("the screen's button: which cap, the amount; the same sentence, screen and cap as typed", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/safety");
    const screen = await ada.waitForReply(/Safety/);
    expect(screen.buttons.flat()).toContain("🔒 Set a daily limit…");
    await ada.tap("🔒 Set a daily limit…");
    const which = await ada.waitForReply(/Which daily limit/);
    expect(which.buttons.flat()).toEqual(["Withdraw", "Buy", "Sell", "Send crypto"]);
    await ada.tap("Withdraw");
    await ada.waitForReply(/Withdraw: how much at most in 24 hours, in EUR/);
    await ada.send("lots");
    await ada.waitForReply("That is not an amount. Send a number like 100 or 100.50.");
    await ada.send("500");
    const guided = await ada.waitForReply(/Limit set/);
    const guidedScreen = await ada.waitForReply(/Safety/);

    const bea = await h.loggedInUser();
    await bea.send("/safety cap withdraw 500");
    expect((await bea.waitForReply(/Limit set/)).text).toBe(guided.text);
    expect((await bea.waitForReply(/Safety/)).text).toBe(guidedScreen.text);
    expect(await h.deps.safety.caps.all(ada.id)).toEqual(await h.deps.safety.caps.all(bea.id));
  });

  it("/safety cap send alone asks the crypto, and No limit is `off`; /cancel leaves it", async () => {
    const cid = await h.loggedInUser();
    await cid.send("/safety cap send btc 0.5");
    await cid.waitForReply(/Limit set/);
    await cid.send("/safety cap send");
    await cid.waitForReply(/Sends of which crypto/);
    await cid.send("btc");
    await cid.waitForReply(/Send BTC: how much at most in 24 hours, in BTC/);
    await cid.tap("No limit");
    const guided = await cid.waitForReply(/holds from/);
    const dan = await h.loggedInUser();
    await dan.send("/safety cap send btc 0.5");
    await dan.waitForReply(/Limit set/);
    await dan.send("/safety cap send btc off");
    expect((await dan.waitForReply(/holds from/)).text).toBe(guided.text);

    await cid.send("/safety cap");
    await cid.waitForReply(/Which daily limit/);
    await cid.send("/cancel");
    await cid.waitForReply();
    await cid.send("200");
    expect((await cid.waitForReply()).text).not.toMatch(/Limit set/);
  });
});

describe("guided quiet hours and time zone", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it("Other hours…: the zone (a city), from, to; the same quiet hours as typed", async () => {
    const ada = h.user();
    await ada.send("/notifications");
    const menu = await ada.waitForReply(/Quiet hours/);
    expect(menu.buttons.flat()).toContain("🌙 Other hours…");
    await ada.tap("🌙 Other hours…");
    await ada.waitForReply(/Which time zone/);
    await ada.send("Berlin");
    await ada.waitForReply(/Time zone: Europe\/Berlin/);
    const from = await ada.waitForReply(/From what hour/);
    expect(from.buttons.flat()).toEqual(["20:00", "21:00", "22:00", "23:00", "00:00", "🌙 No quiet hours"]);
    await ada.tap("21:00");
    await ada.waitForReply(/Quiet from 21:00. Until what hour/);
    await ada.send("21");
    await ada.waitForReply(/another hour than the start/);
    await ada.send("6:00");
    const guided = await ada.waitForReply(/Quiet hours: 21:00–06:00/);

    const bea = h.user();
    await bea.send("/notifications zone Berlin");
    await bea.waitForReply(/Time zone: Europe\/Berlin/);
    await bea.waitForReply(/Quiet hours: off/);
    await bea.send("/notifications quiet 21 6");
    expect((await bea.waitForReply(/Quiet hours/)).text).toBe(guided.text);
    expect((await h.deps.profiles.get(bea.id)).quietHours).toEqual({ from: 21 * 60, to: 6 * 60 });

    // None at all, guided and typed.
    await ada.send("/notifications quiet");
    await ada.waitForReply(/From what hour/);
    await ada.tap("🌙 No quiet hours");
    await ada.waitForReply(/Quiet hours: off/);
    expect((await h.deps.profiles.get(ada.id)).quietHours).toBeUndefined();
    await bea.send("/notifications quiet off");
    await bea.waitForReply(/Quiet hours: off/);
    expect((await h.deps.profiles.get(bea.id)).quietHours).toBeUndefined();
  });

  it("/notifications zone alone asks for a city; /cancel leaves the question", async () => {
    const cid = h.user();
    await cid.send("/notifications zone");
    await cid.waitForReply(/Which time zone/);
    await cid.send("Lisbon");
    await cid.waitForReply(/Time zone: Europe\/Lisbon/);
    expect((await h.deps.profiles.get(cid.id)).timeZone).toBe("Europe/Lisbon");
    await cid.send("/notifications quiet");
    await cid.waitForReply(/From what hour/);
    await cid.send("/cancel");
    await cid.waitForReply();
    await cid.send("22");
    await cid.waitForReply();
    expect((await h.deps.profiles.get(cid.id)).quietHours).toBeUndefined();
  });
});
