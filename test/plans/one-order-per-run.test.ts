/**
 * One order per run, whatever happens: the exchange carries out a run's POST and its answer never
 * comes back (the instance that sent it is as good as dead); a run claimed by an instance that
 * died before it asked the exchange anything; two instances on one Redis store ticking at the same
 * moment. Each time the sandbox holds exactly one order under the run's derived idempotency key.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotDeps } from "../../src/bot/deps.ts";
import { KEYED_ATTEMPTS } from "../../src/orders/place.ts";
import { PlanRunner, runIdempotencyKey } from "../../src/plans/runner.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { redisAvailable, redisUnavailableReason } from "../support/redis.ts";
import { type SecondInstance, twoInstancesOnRedis } from "../support/two-instances.ts";
import { buysOf, makePlan, tick, toNextRun } from "./support.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const BUY_POST = { method: "POST", path: /^\/api\/v1\/partners\/users\/\d+\/buy$/ };

/** A runner over an instance's parts, as its jobs build it (a fresh one: what a restarted instance has). */
const runnerOf = (deps: BotDeps) => PlanRunner.over(deps);

describe("a run's order when the answer is lost, the instance dies or the exchange says 429", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("the POST is carried out and no answer ever comes: the next tick sends nothing, reconciliation finds the one order", async () => {
    const ada = await h.partnerUser();
    const plan = await makePlan(h, ada, "btc 40 daily 9");
    const date = plan.next?.date ?? "";
    await toNextRun(h, plan.id);
    // The first POST is carried out and held; every attempt after it loses its connection.
    h.sandbox.faults.hold({ ...BUY_POST, apply: true, count: 1 });
    const crashed = runnerOf(h.deps).tick();
    await vi.waitFor(() => expect(h.sandbox.faults.held).toHaveLength(1));
    h.sandbox.faults.dropNext(KEYED_ATTEMPTS - 1, BUY_POST);
    h.sandbox.faults.release({ answer: false });
    expect(await crashed).toEqual([]); // unknown outcome: the run tells nothing itself
    const run = await h.deps.plans.getRun(plan.id, date);
    expect(run?.outcome).toBe("unknown");
    expect(run?.actionId).toBeDefined();

    // The next tick (any instance): no second order for that date; reconciliation tells the user.
    await tick(h);
    await tick(h);
    const buys = buysOf(h, ada.partnerUserId);
    expect(buys).toHaveLength(1);
    expect(buys[0]?.idempotencyKey).toBe(runIdempotencyKey(plan.id, date));
    expect(h.sandbox.state.idempotency.has(runIdempotencyKey(plan.id, date))).toBe(true);
    expect(h.sandbox.countRequests("POST", `/api/v1/partners/users/${ada.partnerUserId}/buy`)).toBe(
      KEYED_ATTEMPTS,
    );
    const action = await h.deps.orders.get(run?.actionId ?? "");
    expect(action?.state).toMatch(/placed|settled/);
  });

  it("an instance died after claiming a run and before asking the exchange: the run is taken over, one order", async () => {
    const bea = await h.partnerUser();
    const plan = await makePlan(h, bea, "btc 15 daily 9");
    const date = plan.next?.date ?? "";
    const due = await toNextRun(h, plan.id);
    // What the dead instance left: the date claimed, nothing asked of the exchange.
    expect(
      await h.deps.plans.claimRun({
        planId: plan.id,
        userId: bea.id,
        date,
        dueAt: due,
        startedAt: h.clock.now(),
        outcome: "running",
      }),
    ).toBe(true);
    await tick(h);
    expect(buysOf(h, bea.partnerUserId)).toHaveLength(0); // it may still be under way: left alone
    h.clock.advance(11 * 60_000);
    await tick(h);
    await bea.waitForReply(/bought/);
    const buys = buysOf(h, bea.partnerUserId);
    expect(buys).toHaveLength(1);
    expect(buys[0]?.idempotencyKey).toBe(runIdempotencyKey(plan.id, date));
  });

  it("a run's POST answered 429: nothing ordered or told, the run goes again after Retry-After, once", async () => {
    const eve = await h.partnerUser();
    const plan = await makePlan(h, eve, "btc 30 daily 9");
    const date = plan.next?.date ?? "";
    await toNextRun(h, plan.id);
    const post = { method: "POST", path: `/api/v1/partners/users/${eve.partnerUserId}/buy` };
    h.sandbox.faults.rateLimitNext(1, 30, post);
    await tick(h);
    expect(buysOf(h, eve.partnerUserId)).toHaveLength(0);
    expect(await h.deps.plans.getRun(plan.id, date)).toBeUndefined();
    expect(eve.messages().some((m) => /refused|bought/.test(m.text ?? ""))).toBe(false);
    // Before the Retry-After is over the runner starts nothing new; after it, the date runs.
    h.clock.advance(31_000);
    await tick(h);
    await eve.waitForReply(/bought/);
    const buys = buysOf(h, eve.partnerUserId);
    expect(buys).toHaveLength(1);
    expect(buys[0]?.idempotencyKey).toBe(runIdempotencyKey(plan.id, date));
    expect(h.sandbox.countRequests("POST", post.path)).toBe(2);
  });
});

describe.skipIf(!redisAvailable())("two instances on one Redis store", () => {
  const pair = twoInstancesOnRedis({ mode: "partner" });
  let h: Harness;
  let second: SecondInstance;
  beforeAll(() => {
    ({ h, second } = pair);
  });

  it("both tick at the run's time: one order, one message", async () => {
    const cem = await h.partnerUser();
    const plan = await makePlan(h, cem, "btc 35 daily 9");
    await toNextRun(h, plan.id);
    await Promise.all([tick(h), tick(h, second.deps, second.bot.api)]);
    await cem.waitForReply(/bought/);
    expect(buysOf(h, cem.partnerUserId)).toHaveLength(1);
  });

  it("even with the jobs lease out of the way, two runners at once make one order (the run's claim)", async () => {
    const dan = await h.partnerUser();
    const plan = await makePlan(h, dan, "btc 45 daily 9");
    await toNextRun(h, plan.id);
    const [first, other] = await Promise.all([runnerOf(h.deps).tick(), runnerOf(second.deps).tick()]);
    // (The first test's plan is due again at this hour: only this plan's events count here.)
    const bought = [...first, ...other].filter(
      (event) => event.kind === "bought" && event.plan.id === plan.id,
    );
    expect(bought).toHaveLength(1);
    const buys = buysOf(h, dan.partnerUserId);
    expect(buys).toHaveLength(1);
    expect(buys[0]?.idempotencyKey).toBe(runIdempotencyKey(plan.id, plan.next?.date ?? ""));
    // Told once: only the run that bought has a message to send.
    const messages = dan.messages().filter((m) => /bought/.test(m.text ?? ""));
    expect(messages.length).toBeLessThanOrEqual(1);
  });
});
