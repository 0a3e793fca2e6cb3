/**
 * /recurring without words: the plan asked step by step from the list's "New plan" button
 * (currency buttons, the EUR amount with the exchange's minimum named, how often, the weekday or
 * day, the hour, the end), ending at the same card, with Confirm, that the typed form gives;
 * /cancel leaves it at any step. Both modes, real sandbox, the Bot API double.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

/** The card of `/recurring <words>` (the zone asked first when the user has none). */
async function typedCard(user: FakeUser, words: string): Promise<string> {
  await user.send(`/recurring ${words}`);
  const asked = await user.waitForReply(/time zone|recurring buy:/);
  if (/Which time zone/.test(asked.text)) {
    await user.send("Berlin");
    return (await user.waitForReply(/New recurring buy/)).text;
  }
  return asked.text;
}

/** A card with the first run's minute masked: each plan runs at a minute of its own (the spread). */
const sameCard = (text: string) => text.replace(/((?:First run|Erste Ausführung): .*\d\d):\d\d/, "$1:mm");

/** The zone is asked before the hour (the hour is the zone's), and the hour's question names it. */
async function zoneThenHour(user: FakeUser): Promise<string> {
  await user.waitForReply(/Which time zone/);
  await user.send("Berlin");
  return (await user.waitForReply(/At what hour/)).text;
}

async function card(user: FakeUser): Promise<string> {
  return (await user.waitForReply(/New recurring buy/)).text;
}

describe("guided /recurring, account mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
  });
  afterAll(() => h.stop());

  it("a weekly plan with a number of runs: buttons and prompts end at the typed form's card", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/recurring");
    await ada.waitForReply(/no recurring buys yet/);
    await ada.tap("➕ New plan");
    const currency = await ada.waitForReply(/Which currency/);
    expect(currency.buttons.flat()).toContain("BTC");
    await ada.tap("BTC");
    const amount = await ada.waitForReply(/How many euros of BTC/);
    expect(amount.text).toMatch(/At least €\d+\.\d\d/);
    await ada.send("5");
    expect((await ada.waitForReply(/below the exchange's minimum/)).text).toMatch(/€\d+\.\d\d/);
    await ada.send("50");
    await ada.waitForReply(/How often/);
    await ada.tap("Every week");
    const weekday = await ada.waitForReply(/day of the week/);
    expect(weekday.buttons.flat()).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
    await ada.tap("Mon");
    expect(await zoneThenHour(ada)).toContain("(your time, Europe/Berlin)");
    await ada.send("25");
    await ada.waitForReply(/whole hour from 0 to 23/);
    await ada.tap("09:00");
    await ada.waitForReply(/end by itself/);
    await ada.tap("After a number of runs");
    await ada.waitForReply(/how many runs/);
    await ada.send("12");
    const guided = await card(ada);
    expect(ada.lastMessage()?.buttons.flat()).toEqual(["✅ Confirm", "✖️ Cancel"]);

    const bea = await h.loggedInUser();
    expect(sameCard(guided)).toBe(sameCard(await typedCard(bea, "btc 50 weekly monday 9 runs 12")));

    await ada.tap("✅ Confirm");
    await ada.waitForReply(/Recurring buy set up/);
    const [plan] = await h.deps.plans.list(ada.id);
    expect(plan?.schedule).toEqual({ every: "week", weekday: 1, hour: 9 });
    expect(plan?.end).toEqual({ runs: 12 });
  });

  it("a monthly plan until a date, typed day and hour; a past date is asked again", async () => {
    const cid = await h.loggedInUser();
    await cid.send("/recurring");
    await cid.waitForReply(/no recurring buys yet/);
    await cid.tap("➕ New plan");
    await cid.waitForReply(/Which currency/);
    await cid.send("Ethereum");
    await cid.waitForReply(/How many euros of ETH/);
    await cid.send("25");
    await cid.waitForReply(/How often/);
    await cid.tap("Every month");
    await cid.waitForReply(/day of the month/);
    await cid.send("15");
    await zoneThenHour(cid);
    await cid.send("18:00");
    await cid.waitForReply(/end by itself/);
    await cid.tap("Until a date");
    // The example is in the locale's own date format; that form is read, and ISO too.
    await cid.waitForReply(/Until which date\? Type it like 06\/30\/2027\./);
    await cid.send("2020-01-01");
    await cid.waitForReply(/has passed/);
    await cid.send("30.06.2027x");
    await cid.waitForReply(/cannot read that date\. Please type it like 06\/30\/2027\./);
    await cid.send("6/30/2027");
    const guided = await card(cid);
    const dan = await h.loggedInUser();
    expect(sameCard(guided)).toBe(sameCard(await typedCard(dan, "eth 25 monthly 15 18 until 2027-06-30")));
  });

  it("in German: the same steps in German, the German card of the typed form", async () => {
    const jan = await h.loggedInUser(undefined, { languageCode: "de" });
    await jan.send("/recurring");
    await jan.waitForReply(/noch keinen Sparplan/);
    await jan.tap("➕ Neuer Sparplan");
    await jan.waitForReply(/Welche Währung/);
    await jan.tap("BTC");
    expect((await jan.waitForReply(/Für wie viel Euro BTC/)).text).toMatch(/Mindestens \d+,\d\d\s€/);
    await jan.send("50");
    await jan.waitForReply(/Wie oft/);
    await jan.tap("Jeden Monat");
    await jan.waitForReply(/Tag des Monats/);
    await jan.tap("Letzter Tag");
    await jan.waitForReply(/In welcher Zeitzone/);
    await jan.send("Berlin");
    expect((await jan.waitForReply(/Um wie viel Uhr/)).text).toContain("(deine Zeit, Europe/Berlin)");
    await jan.tap("09:00");
    await jan.waitForReply(/von selbst enden/);
    await jan.tap("Bis zu einem Datum");
    await jan.waitForReply(/Schreib es so: 30\.06\.2027/);
    await jan.send("30.06.2027");
    const guided = (await jan.waitForReply(/Neuer Sparplan:/)).text;
    const kai = await h.loggedInUser(undefined, { languageCode: "de" });
    await kai.send("/recurring btc 50 monatlich letzter 9 bis 30.06.2027");
    await kai.waitForReply(/In welcher Zeitzone/);
    await kai.send("Berlin");
    expect(sameCard(guided)).toBe(sameCard((await kai.waitForReply(/Neuer Sparplan:/)).text));
  });

  it("logged out, the amount's question still names the exchange's minimum (asked as the market feed asks)", async () => {
    const fay = h.user();
    await fay.send("/recurring");
    await fay.waitForReply(/no recurring buys yet/);
    await fay.tap("➕ New plan");
    await fay.waitForReply(/Which currency/);
    await fay.tap("BTC");
    expect((await fay.waitForReply(/How many euros of BTC/)).text).toMatch(/At least €\d+\.\d\d/);
  });

  it("/cancel leaves it at any step, and a later /recurring starts afresh", async () => {
    const eve = await h.loggedInUser();
    await eve.send("/recurring");
    await eve.waitForReply(/no recurring buys yet/);
    await eve.tap("➕ New plan");
    await eve.waitForReply(/Which currency/);
    await eve.tap("BTC");
    await eve.waitForReply(/How many euros/);
    await eve.send("/cancel");
    await eve.waitForReply();
    await eve.send("30");
    const after = await eve.waitForReply();
    expect(after.text).not.toMatch(/How often/);
    expect(await h.deps.plans.list(eve.id)).toEqual([]);
  });
});

describe("guided /recurring, partner mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("a daily plan with no end: the minimum from the partner API, the same card as typed", async () => {
    const ada = await h.partnerUser();
    await ada.send("/recurring");
    await ada.waitForReply(/no recurring buys yet/);
    await ada.tap("➕ New plan");
    await ada.waitForReply(/Which currency/);
    await ada.tap("BTC");
    expect((await ada.waitForReply(/How many euros of BTC/)).text).toMatch(/At least €\d+\.\d\d/);
    await ada.send("50");
    await ada.waitForReply(/How often/);
    await ada.tap("Every day");
    await zoneThenHour(ada);
    await ada.tap("09:00");
    await ada.waitForReply(/end by itself/);
    await ada.tap("No end");
    const guided = await card(ada);
    const bea = await h.partnerUser();
    expect(sameCard(guided)).toBe(sameCard(await typedCard(bea, "btc 50 daily 9")));
  });
});
