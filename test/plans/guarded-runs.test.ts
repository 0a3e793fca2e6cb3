/**
 * A run goes through the pipeline's guards (src/orders/guards.ts: a frozen user, a cap the user
 * set…): a rule that holds at the quote or just before the send skips the run, nothing reaches
 * the exchange's order endpoint, and the user's message words the rule as a card would. The
 * runner and the pipeline are the real ones over the harness's parts, with one guard added.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planEventText } from "../../src/bot/ui/plan-text.ts";
import type { Translate } from "../../src/domain/translate.ts";
import type { GuardStage, OrderGuard } from "../../src/orders/guards.ts";
import { OrderPipeline } from "../../src/orders/pipeline.ts";
import type { OrderRequest, QuoteRefusal } from "../../src/orders/quote.ts";
import { PlanRunner } from "../../src/plans/runner.ts";
import { type Harness, startHarness, testLogger } from "../support/harness.ts";
import { buysOf, makePlan, tick, toNextRun } from "./support.ts";

/** The user's own daily cap, used up: refuses at the stage it is set to. */
class CapUsedUp implements OrderGuard {
  stage: GuardStage = "quote";
  async refusal(
    stage: GuardStage,
    _userId: number,
    request: OrderRequest,
  ): Promise<QuoteRefusal | undefined> {
    return stage === this.stage
      ? { kind: request.kind, reason: "limit", vars: { left: "0", type: "buy", period: "day" } }
      : undefined;
  }
}

describe("a plan's run and the bot's own rules", () => {
  let h: Harness;
  let runner: PlanRunner;
  const guard = new CapUsedUp();
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    const { store, sessions, profiles, partner } = h.deps;
    const orders = new OrderPipeline({
      store,
      clock: h.clock,
      sessions,
      profiles,
      log: testLogger(),
      ...(partner ? { partner } : {}),
      guards: [guard],
    });
    runner = PlanRunner.over({ ...h.deps, orders });
  });
  afterAll(() => h.stop());

  for (const stage of ["quote", "place"] as const) {
    it(`a rule holding at the ${stage}: skipped, nothing ordered, told as a card would say it`, async () => {
      guard.stage = stage;
      const ada = await h.partnerUser();
      const plan = await makePlan(h, ada, "btc 20 daily 9");
      await toNextRun(h, plan.id);
      const events = (await runner.tick()).filter((event) => event.plan.id === plan.id);
      expect(events.map((event) => event.kind)).toEqual(["skipped"]);
      expect(buysOf(h, ada.partnerUserId)).toHaveLength(0);
      expect(h.sandbox.countRequests("POST", `/api/v1/partners/users/${ada.partnerUserId}/buy`)).toBe(0);
      const t: Translate = (key, vars) => h.deps.i18n.t("en", key, vars);
      const [event] = events;
      if (event === undefined) throw new Error("no event");
      const text = planEventText(t, event, undefined, "en");
      expect(text).toContain("was skipped, nothing was bought");
      expect(text).toContain(
        h.deps.i18n.t("en", "trade-refused-limit", { left: "€0.00", type: "buy", period: "day" }),
      );
      expect((await h.deps.plans.get(plan.id))?.last).toMatchObject({ outcome: "skipped", reason: "limit" });
    });
  }
});

describe("a plan's run and the safety net's own rules, as the bot is built", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("a user frozen by the operator desk: the run is skipped and said so, nothing ordered", async () => {
    const ada = await h.partnerUser();
    const plan = await makePlan(h, ada, "btc 20 daily 9");
    await h.deps.freezes.freeze(ada.id, "operator");
    await toNextRun(h, plan.id);
    await tick(h);
    const told = await ada.waitForReply(/was skipped, nothing was bought/);
    expect(told.text).toContain(h.deps.i18n.t("en", "freeze-refused", { family: "buy", mode: "partner" }));
    expect(buysOf(h, ada.partnerUserId)).toHaveLength(0);
    expect((await h.deps.plans.get(plan.id))?.last).toMatchObject({ outcome: "skipped", reason: "frozen" });
  });

  it("a buy cap the user set counts the run: over it, skipped and said so", async () => {
    const bea = await h.partnerUser();
    const plan = await makePlan(h, bea, "btc 30 daily 9");
    await h.deps.safety.setCap(bea.id, "buy", "20");
    await toNextRun(h, plan.id);
    await tick(h);
    await bea.waitForReply(/was skipped, nothing was bought/);
    expect(buysOf(h, bea.partnerUserId)).toHaveLength(0);
    expect((await h.deps.plans.get(plan.id))?.last).toMatchObject({
      outcome: "skipped",
      reason: "own-limit",
    });
  });
});
