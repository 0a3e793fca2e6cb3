/**
 * The limits and the operator's view of recurring plans (partner mode): RECURRING_MAX_PLANS
 * refuses one plan too many at its Confirm; a plan that ends after N runs stops and says so; the
 * desk's /plans counts active plans and the last 24 h's runs by outcome, names the failed ones
 * with their user, and /plans USER shows one user's. Sandbox over HTTP, SQLite, the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PLAN_SETTINGS } from "../../src/plans/book.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { buysOf, makePlan, tick, toNextRun } from "./support.ts";

const OPERATOR = 77_001;

describe("recurring plans: the limit, the end, the operator desk", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      mode: "partner",
      partner: { operatorIds: [OPERATOR] },
      recurring: { ...DEFAULT_PLAN_SETTINGS, maxPlans: 2, spreadMs: 0 },
    });
  });
  afterAll(() => h.stop());

  it("at most RECURRING_MAX_PLANS plans: the card of one more is refused at its Confirm", async () => {
    const ada = await h.partnerUser();
    await makePlan(h, ada, "btc 10 daily 9");
    await makePlan(h, ada, "eth 10 daily 9");
    await ada.send("/recurring btc 10 weekly fri 9");
    await ada.waitForReply(/New recurring buy/);
    await ada.tap(/Confirm/);
    const refused = await ada.waitForCall("answerCallbackQuery");
    expect(JSON.stringify(refused)).toContain("You have 2 recurring buys already");
    expect(await h.deps.plans.list(ada.id)).toHaveLength(2);
  });

  it("a plan that ends after 2 runs buys twice, says it has ended, and runs no more", async () => {
    const bea = await h.partnerUser();
    const plan = await makePlan(h, bea, "btc 10 daily 9 runs 2");
    for (let run = 0; run < 2; run++) {
      await toNextRun(h, plan.id);
      await tick(h);
      await bea.waitForReply(/bought/);
    }
    expect(bea.lastMessage()?.text).toContain("The plan has ended.");
    expect((await h.deps.plans.get(plan.id))?.state).toBe("ended");
    h.clock.advance(3 * 24 * 3_600_000);
    await tick(h);
    expect(buysOf(h, bea.partnerUserId)).toHaveLength(2);
  });

  it("/plans: active plans, the runs of the last 24 h by outcome, the failed one with its user; /plans USER", async () => {
    const cem = await h.partnerUser();
    const plan = await makePlan(h, cem, "btc 10 daily 9");
    await toNextRun(h, plan.id);
    // Only this user's order is refused (the other users' plans run in the same hour).
    h.sandbox.faults.failNext(1, 422, {
      method: "POST",
      path: `/api/v1/partners/users/${cem.partnerUserId}/buy`,
    });
    await tick(h);
    expect((await cem.waitForReply(/refused the order/)).text).toContain("nothing was bought");

    const operator = h.user(OPERATOR);
    await operator.send("/plans");
    const summary = await operator.waitForReply(/Recurring plans:/);
    const live = (await h.deps.plans.all()).filter((p) => p.state === "active").length;
    expect(summary.text).toContain(`Recurring plans: ${live} active`);
    expect(summary.text).toMatch(/failed: 1/);
    expect(summary.text).toContain(`plan ${plan.id} · Telegram ${cem.id} · failed`);

    await operator.send(`/plans ${cem.partnerUserId}`);
    const one = await operator.waitForReply(/Plans of partner user/);
    expect(one.text).toContain(`Plans of partner user ${cem.partnerUserId} (Telegram ${cem.id})`);
    expect(one.text).toContain(`${plan.id} · active`);

    // Not an operator: the desk does not exist for them.
    await cem.send("/plans");
    expect((await cem.waitForReply()).text).not.toContain("Recurring plans:");
  });
});
