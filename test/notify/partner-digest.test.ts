/**
 * The daily digest in partner mode, where the user's balances can be read at any time: the
 * portfolio's value at the feed's prices, and its change since the last digest. The menu is
 * opened with /notifications (partner mode has no /settings).
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackgroundJobs } from "../../src/process/jobs.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import { HARNESS_EPOCH, type Harness, startHarness } from "../support/harness.ts";
import { drainQueue, jobsOnTimers } from "../support/virtual-delivery.ts";

describe("the daily digest in partner mode", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  const timers = new ManualTimers(HARNESS_EPOCH);

  beforeAll(async () => {
    h = await startHarness({ mode: "partner", marketData: true });
    jobs = jobsOnTimers(h, timers);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  async function tickAt(iso: string): Promise<void> {
    h.clock.advance(Date.parse(iso) - h.clock.now());
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }

  it("carries the portfolio's value and its change since yesterday's digest", async () => {
    h.sandbox.setPrice("btc", "50000");
    const cora = await h.partnerUser(undefined, { eur: "1000" });
    const account = h.sandbox.state.partnerUser(cora.partnerUserId);
    if (!account) throw new Error("no partner account");
    h.sandbox.state.credit(account, "btc", new Big("0.01"));

    await cora.send("/notifications");
    const menu = await cora.waitForReply(/Notifications/);
    await cora.tap("⛔ Daily digest: off", menu);
    await cora.waitForReply(/Which time zone/);
    await cora.send("London");
    await cora.waitForReply(/Digest at: 08:00/);

    await tickAt("2026-11-23T08:00:00Z");
    const first = await cora.waitForReply(/Your daily digest/);
    // €1,000 and 0.01 BTC at €50,000.
    expect(first.text).toContain("💼 Portfolio: €1,500.00");
    expect(first.text).not.toContain("since yesterday");
    expect(first.text).toMatch(/Bitcoin \(BTC\): €50,000\.00/);

    h.sandbox.setPrice("btc", "60000");
    await tickAt("2026-11-24T08:00:30Z");
    const second = await cora.waitForReply(/Your daily digest/);
    expect(second.text).toContain("💼 Portfolio: €1,600.00 (+€100.00, +6.67% since yesterday's digest)");
  });
});
