/**
 * Crash safety (SECURITY.md, rule 5): the bot is stopped while the exchange holds the
 * POST of a confirmed order. After the restart nothing is sent again, and reconciliation against
 * v1/transactions tells the user what really happened.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Ledger } from "../../src/orders/ledger.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/process/jobs.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { SentMessage } from "../../src/telegram-double/state.ts";
import { HARNESS_EPOCH, type Harness, startHarness } from "../support/harness.ts";
import { buySentBeforeCrash } from "../support/sent-order.ts";
import { drainQueue, jobsOnTimers } from "../support/virtual-delivery.ts";

const CARD = (m: SentMessage) => /your quote/.test(m.text) && m.buttons.length > 0;
const buys = (h: Harness) => h.sandbox.countRequests("POST", "/v1/buy");

async function until(test: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("crash between Confirm and the exchange's answer", () => {
  let h: Harness;
  let ada: FakeUser;
  let jobs: BackgroundJobs | undefined;
  // The notices' delivery queue paces one chat a second apart: on these timers, not the wall clock.
  let timers: ManualTimers;
  beforeEach(async () => {
    timers = new ManualTimers(HARNESS_EPOCH);
    h = await startHarness();
    ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "60000");
  });
  afterEach(async () => {
    await jobs?.stop();
    jobs = undefined;
    await h.stop();
  });

  /** Confirms a buy whose POST the sandbox holds, then stops the bot while it is held. */
  async function confirmAndStop(apply: boolean): Promise<void> {
    h.sandbox.faults.hold({ method: "POST", path: "/v1/buy", apply });
    await ada.send("/buy btc 100");
    await ada.waitForReply(CARD);
    await ada.tap("✅ Confirm");
    await until(() => h.sandbox.faults.held.length === 1);
    expect(buys(h)).toBe(1);
    // Stop while the POST is in flight; the connection dies without an answer. Stopping returns.
    const stopping = h.stopBot();
    h.sandbox.faults.release({ answer: false });
    await stopping;
    await h.startBot();
    jobs = jobsOnTimers(h, timers);
  }

  /** One background tick, and every notice it queued delivered. */
  async function tick(): Promise<void> {
    if (!jobs) throw new Error("no jobs started");
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }

  const neverArrived = () => ada.messages().filter((m) => /never arrived/.test(m.text)).length;

  it("the order was carried out: no second POST; the user is told it went through, then that it settled", async () => {
    await confirmAndStop(true);
    await tick();
    expect((await ada.waitForReply(/did reach the exchange/)).text).toBe(
      "✅ Your order (buy BTC for €100.00) did reach the exchange. I will tell you when it settles.",
    );
    h.clock.advance(6_000);
    await tick();
    await ada.waitForReply("🎉 Your order (buy BTC for €100.00) completed.");
    // Tapping the old card again after the restart changes nothing.
    const card = ada.messages().find((m) => /your quote/.test(m.text));
    expect(card?.buttons).toEqual([]);
    expect(buys(h)).toBe(1);
  });

  it("the order never got in: no second POST; after the grace period the user is told nothing was ordered", async () => {
    await confirmAndStop(false);
    await tick();
    h.clock.advance(30_000);
    await tick();
    expect(neverArrived()).toBe(0); // the tick's notices are all delivered: none of them says so
    h.clock.advance(10 * 60_000);
    await tick();
    expect((await ada.waitForReply(/never arrived/)).text).toContain(
      "Your order (buy BTC for €100.00) is not at the exchange 10 minutes after it was sent: it most likely never arrived, and in that case nothing was charged",
    );
    await tick();
    expect(neverArrived()).toBe(1); // told once: the next tick's notices do not say it again
    expect(buys(h)).toBe(1);
  });

  it("a process killed right after `sent` was recorded: the order is reconciled at start, never re-sent", async () => {
    const action = await buySentBeforeCrash(h, ada.id, "75");
    await h.restartBot();
    const before = buys(h);
    // autoStart: reconciliation runs at start, without waiting for a tick.
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000 });
    await ada.waitForReply(/buy BTC for €75.00\) did reach the exchange/);
    expect((await new Ledger(h.deps.store, h.deps.clock).get(action.id))?.state).toBe("placed");
    expect(buys(h)).toBe(before);
  });
});
