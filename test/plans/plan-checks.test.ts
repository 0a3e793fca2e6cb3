/**
 * What /recurring refuses before a plan exists, and its buttons once it does: an end date already
 * past, an amount below the exchange's smallest buy (read from the exchange in both modes, the
 * sandbox's €10), Stop asked about before it acts, and an old button of a stopped plan answered as
 * such. Sandbox over HTTP, SQLite, the Bot API double, the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLBACK } from "../../src/bot/ui/callback-data.ts";
import { BUY_MINIMUM_EUR } from "../../src/sandbox/rules.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { makePlan } from "./support.ts";

describe("/recurring refuses a plan that cannot run as asked (partner mode)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("an end date already past is refused with a sentence, and no card is shown", async () => {
    const ada = await h.partnerUser();
    await ada.send("/recurring btc 25 daily 9 until 2020-01-01");
    const asked = await ada.waitForReply(/time zone|already passed/);
    if (/time zone/.test(asked.text)) await ada.send("Berlin");
    const refused = await ada.waitForReply(/already passed/);
    expect(refused.text).toContain("Jan 1, 2020 has already passed");
    expect(ada.messages().some((m) => /New recurring buy/.test(m.text ?? ""))).toBe(false);
    expect(await h.deps.plans.list(ada.id)).toHaveLength(0);
  });

  it("an end date before the first run is refused with the first run named", async () => {
    const dan = await h.partnerUser();
    await makePlan(h, dan, "btc 20 daily 9"); // the time zone, asked once: Berlin
    const day = 86_400_000;
    const berlin = (at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(at);
    const weekday = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "Europe/Berlin" })
      .format(h.clock.now() + 3 * day)
      .toLowerCase();
    const until = berlin(h.clock.now() + day);
    await dan.send(`/recurring btc 20 weekly ${weekday} 9 until ${until}`);
    const refused = await dan.waitForReply(/before its first run/);
    expect(refused.text).toMatch(/^The plan would end on \w{3} \d{1,2}, \d{4}, before its first run \(/);
    expect(await h.deps.plans.list(dan.id)).toHaveLength(1);
  });

  it("an amount below the exchange's smallest buy is refused with the minimum named, in German too", async () => {
    expect(BUY_MINIMUM_EUR).toBe("10.00");
    const bea = await h.partnerUser();
    await bea.send("/recurring btc 5 daily 9");
    const refused = await bea.waitForReply(/smallest buy/);
    expect(refused.text).toContain("The smallest buy of BTC is €10.00");
    expect(await h.deps.plans.list(bea.id)).toHaveLength(0);

    const eva = await h.partnerUser(undefined, { languageCode: "de" });
    await eva.send("/recurring btc 9,99 täglich 9");
    const german = await eva.waitForReply(/kleinste Kauf/);
    expect(german.text).toMatch(/ist 10,00\s€/);
  });

  it("Stop asks first; Keep it leaves the plan; Yes stops it; an old Pause or Resume says what the plan is", async () => {
    const cem = await h.partnerUser();
    const plan = await makePlan(h, cem, "btc 20 daily 9");
    await cem.send("/recurring");
    const line = await cem.waitForReply(/every day/);
    await cem.tap("⏸ Pause", line);
    const paused = await cem.waitForReply((m) => m.edited && /Paused/.test(m.text));
    expect(paused.buttons.flat()).toContain("▶️ Resume");

    // A Pause shown before (another device, a client that missed the edit): it does not resume it.
    await cem.tapData(line.messageId, CALLBACK.plan.data("a", plan.id));
    const stillPaused = await cem.waitForCall("answerCallbackQuery");
    expect(stillPaused.payload.text).toBe("This plan is paused already.");
    expect((await h.deps.plans.get(plan.id))?.state).toBe("paused");

    await cem.send("/recurring");
    const again = await cem.waitForReply(/every day/);
    await cem.tap("🗑 Stop", again);
    const asked = await cem.waitForReply((m) => m.edited && /Stop this plan for good/.test(m.text));
    expect((await h.deps.plans.get(plan.id))?.state).toBe("paused");
    await cem.tap("↩️ Keep it", asked);
    const kept = await cem.waitForReply((m) => m.edited && !/Stop this plan/.test(m.text));
    expect(kept.buttons.flat()).toContain("🗑 Stop");
    expect((await h.deps.plans.get(plan.id))?.state).toBe("paused");

    await cem.tap("🗑 Stop", kept);
    const askedAgain = await cem.waitForReply((m) => m.edited && /Stop this plan for good/.test(m.text));
    await cem.tap("🗑 Yes, stop it", askedAgain);
    await cem.waitForReply((m) => m.edited && /Stopped/.test(m.text));
    expect((await h.deps.plans.get(plan.id))?.state).toBe("cancelled");

    // The Resume of the earlier message is still on the screen: it says the plan is stopped.
    await cem.tap("▶️ Resume", paused);
    const answer = await cem.waitForCall("answerCallbackQuery");
    expect(JSON.stringify(answer.payload)).toContain("This plan is stopped, so nothing changed");
    expect(JSON.stringify(answer.payload)).not.toContain("Resumed");
    expect((await h.deps.plans.get(plan.id))?.state).toBe("cancelled");
  });
});

describe("/recurring in account mode: the minimum read from the user's session", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
  });
  afterAll(() => h.stop());

  it("a €5 plan is refused with the exchange's minimum", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/recurring btc 5 weekly monday 9");
    const refused = await ada.waitForReply(/smallest buy/);
    expect(refused.text).toContain("€10.00");
    expect(await h.deps.plans.list(ada.id)).toHaveLength(0);
  });
});
