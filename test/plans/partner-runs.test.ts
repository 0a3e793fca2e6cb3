/**
 * Recurring buys in partner mode, end to end: the plan made through /recurring's card, the jobs'
 * tick running it against the sandbox's partner API (real HTTP), the user's one message per run,
 * on the harness's injected clock. Proves: a bought run is one order carrying the run's derived
 * key; KYC turned pending and a balance too small are skipped and said (with what to do, both
 * locales); three days of downtime give one catch-up run at most, the rest told as missed; a
 * daily plan keeps its 09:00 across the summer-time change and a month's end.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localTime } from "../../src/domain/time-zone.ts";
import { runIdempotencyKey } from "../../src/plans/runner.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { buysOf, makePlan, tick, toNextRun } from "./support.ts";

const HOUR = 3_600_000;

describe("recurring buys in partner mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("a due run buys once, with the key derived from the plan and the date, and says so", async () => {
    const ada = await h.partnerUser();
    const plan = await makePlan(h, ada, "btc 50 daily 9");
    expect(plan.next).toBeDefined();
    await toNextRun(h, plan.id);
    await tick(h);
    const message = await ada.waitForReply(/bought/);
    expect(message.text).toMatch(/bought .* BTC for €50\.00 at/);
    expect(message.text).toMatch(/Next run:/);
    const buys = buysOf(h, ada.partnerUserId);
    expect(buys).toHaveLength(1);
    expect(buys[0]?.idempotencyKey).toBe(runIdempotencyKey(plan.id, plan.next?.date ?? ""));
    // A second tick in the same hour finds nothing due: still one order, no second message.
    await tick(h);
    expect(buysOf(h, ada.partnerUserId)).toHaveLength(1);
    const after = await h.deps.plans.get(plan.id);
    expect(after?.last).toEqual({ date: plan.next?.date, outcome: "bought" });
    expect(after?.next?.date).not.toBe(plan.next?.date);
  });

  it("KYC turned pending before a run: skipped, nothing ordered, and the user is told what to do", async () => {
    const bea = await h.partnerUser();
    const plan = await makePlan(h, bea, "eth 30 weekly monday 18");
    h.sandbox.faults.setPartnerUserStatus(bea.partnerUserId, { kyc_status: "pending" });
    await toNextRun(h, plan.id);
    await tick(h);
    const message = await bea.waitForReply(/skipped/);
    expect(message.text).toContain("verification is not passed (status: in progress)");
    expect(message.text).toContain("/verify");
    expect(buysOf(h, bea.partnerUserId)).toHaveLength(0);
    expect((await h.deps.plans.get(plan.id))?.last).toEqual({
      date: plan.next?.date,
      outcome: "skipped",
      reason: "kyc",
    });
  });

  it("a balance too small: skipped and said, in the user's language (German)", async () => {
    const cem = await h.partnerUser(undefined, { eur: "20", languageCode: "de" });
    const plan = await makePlan(h, cem, "btc 50 monatlich letzter 9");
    await toNextRun(h, plan.id);
    await tick(h);
    const message = await cem.waitForReply(/ausgelassen/);
    expect(message.text).toContain("Dein EUR-Guthaben ist 20,00");
    expect(message.text).toContain("/deposit");
    expect(message.text).toMatch(/Nächste Ausführung: .*(Dez|Jan)/);
    expect(buysOf(h, cem.partnerUserId)).toHaveLength(0);
  });

  it("buying the asset closed at the exchange: refused there, said with what happens next, bought at the next run", async () => {
    const hal = await h.partnerUser();
    const plan = await makePlan(h, hal, "ltc 15 daily 11");
    h.sandbox.faults.closeAsset("buy", "ltc");
    await toNextRun(h, plan.id);
    await tick(h);
    // The partner API still quotes a closed asset; its POST is refused (a 4xx: nothing happened).
    const message = await hal.waitForReply(/refused the order/);
    expect(message.text).toContain("nothing was bought. The plan tries again at its next run");
    // The exchange's own English reason is not passed on: the sentence is the bot's, in the user's language.
    expect(message.text).not.toMatch(/currently unavailable|\(.*Buying/);
    expect(buysOf(h, hal.partnerUserId)).toHaveLength(0);
    h.sandbox.faults.openAsset("buy", "ltc");
    await toNextRun(h, plan.id);
    await tick(h);
    await hal.waitForReply(/bought/);
    expect(buysOf(h, hal.partnerUserId)).toHaveLength(1);
  });

  it("three days down: the older runs are missed and told, the latest runs only if it is not too late", async () => {
    const dan = await h.partnerUser();
    const plan = await makePlan(h, dan, "btc 25 daily 7");
    const first = await toNextRun(h, plan.id);
    // Down for three days: the jobs come back an hour after the fourth date's run was due.
    h.clock.advance(3 * 24 * HOUR + HOUR);
    await tick(h);
    const missed = await dan.waitForReply(/missed/);
    expect(missed.text).toMatch(/3 run\(s\) missed/);
    await dan.waitForReply(/bought/);
    expect(buysOf(h, dan.partnerUserId)).toHaveLength(1);
    const runs = await h.deps.plans.recentRuns(h.clock.now(), 5 * 24 * HOUR);
    const outcomes = runs.filter((run) => run.planId === plan.id).map((run) => run.outcome);
    expect(outcomes.sort()).toEqual(["bought", "missed", "missed", "missed"]);
    expect(first).toBeLessThan(h.clock.now());

    // Down again, past the catch-up window for the latest date too: nothing is bought at all.
    const eve = await h.partnerUser();
    const late = await makePlan(h, eve, "btc 25 daily 7");
    await toNextRun(h, late.id, 3 * 24 * HOUR + 5 * HOUR);
    await tick(h);
    expect((await eve.waitForReply(/missed/)).text).toMatch(/4 run\(s\) missed/);
    expect(buysOf(h, eve.partnerUserId)).toHaveLength(0);
  });

  it("a paused plan does not run; a skipped date does not either, and the next one does", async () => {
    const fay = await h.partnerUser();
    const plan = await makePlan(h, fay, "btc 20 daily 10");
    await fay.send("/recurring");
    await fay.waitForReply(/Next run/);
    await fay.tap(/Skip next/);
    await fay.waitForReply(/will be skipped/);
    await toNextRun(h, plan.id);
    await tick(h);
    expect(buysOf(h, fay.partnerUserId)).toHaveLength(0);
    expect((await h.deps.plans.get(plan.id))?.last?.outcome).toBe("skipped-once");
    await toNextRun(h, plan.id);
    await tick(h);
    await fay.waitForReply(/bought/);
    expect(buysOf(h, fay.partnerUserId)).toHaveLength(1);
    await fay.send("/recurring");
    await fay.waitForReply(/Next run/);
    await fay.tap(/Pause/);
    await fay.waitForReply(/Paused/);
    h.clock.advance(2 * 24 * HOUR);
    await tick(h);
    expect(buysOf(h, fay.partnerUserId)).toHaveLength(1);
  });
});

describe("a daily plan across the summer-time change and a month's end", () => {
  let h: Harness;
  beforeAll(async () => {
    // Thursday 2027-03-25, 12:00 UTC: Berlin goes to summer time on Sunday the 28th, March ends on the 31st.
    h = await startHarness({ mode: "partner", clock: new ManualClock(Date.parse("2027-03-25T12:00:00Z")) });
  });
  afterAll(() => h.stop());

  it("runs every day at 09:xx Berlin time, 08:xx UTC before the change and 07:xx after, into April", async () => {
    const gus = await h.partnerUser(undefined, { eur: "5000" });
    const daily = await makePlan(h, gus, "btc 10 daily 9");
    const last = await makePlan(h, gus, "eth 10 monthly last 9");
    const offset = h.deps.plans.offsetOf(daily.id);
    const seen: { date: string; utcHour: number; localHour: number }[] = [];
    // The jobs tick at each plan's run, whichever comes first, as a running bot's ticks would.
    while (seen.length < 8) {
      const plans = await Promise.all([daily.id, last.id].map((id) => h.deps.plans.get(id)));
      const [dailyNow, lastNow] = plans;
      const dailyDue = dailyNow ? h.deps.plans.dueAt(dailyNow) : undefined;
      const lastDue = lastNow ? h.deps.plans.dueAt(lastNow) : undefined;
      if (dailyDue === undefined) throw new Error("the daily plan has no next run");
      if (lastDue !== undefined && lastDue < dailyDue) {
        await toNextRun(h, last.id);
        await tick(h);
        await gus.waitForReply(/bought/);
        continue;
      }
      const due = await toNextRun(h, daily.id);
      await tick(h);
      await gus.waitForReply(/bought/);
      seen.push({
        date: dailyNow?.next?.date ?? "",
        utcHour: new Date(due).getUTCHours(),
        localHour: localTime("Europe/Berlin", due - offset).hour,
      });
    }
    expect(seen.map((s) => s.date)).toEqual([
      "2027-03-26",
      "2027-03-27",
      "2027-03-28",
      "2027-03-29",
      "2027-03-30",
      "2027-03-31",
      "2027-04-01",
      "2027-04-02",
    ]);
    expect(seen.every((s) => s.localHour === 9)).toBe(true);
    expect(seen.map((s) => s.utcHour)).toEqual([8, 8, 7, 7, 7, 7, 7, 7]);
    // The month's-last plan ran once, on the 31st.
    const lastRuns = (await h.deps.plans.recentRuns(h.clock.now(), 10 * 24 * HOUR)).filter(
      (run) => run.planId === last.id,
    );
    expect(lastRuns.map((run) => [run.date, run.outcome])).toEqual([["2027-03-31", "bought"]]);
    const buys = buysOf(h, gus.partnerUserId);
    expect(buys).toHaveLength(9);
    expect(buys.every((tx) => new Big(tx.amount).eq(10))).toBe(true);
  });
});
