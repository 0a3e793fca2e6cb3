/**
 * Crash safety in partner mode (SECURITY.md, rule 5): the bot stops while the partner API holds
 * a confirmed buy's POST. The partner API's reference shows no transaction payload, so its rows
 * may come in another shape (the sandbox's `alternateShapes`: `{items, total}`, `type` for
 * `transaction_type`, amounts under `fiat_amount`/`quantity`). Reconciliation must still find the
 * order that was charged, and where rows cannot be read at all it says the outcome is unknown and
 * where to look: never "nothing was charged".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { partnerTransactions } from "../../src/exchange/partner-schemas.ts";
import { Ledger } from "../../src/orders/ledger.ts";
import type { BackgroundJobs } from "../../src/process/jobs.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import type { SentMessage } from "../../src/telegram-double/state.ts";
import { HARNESS_EPOCH, type Harness, type PartnerFakeUser, startHarness } from "../support/harness.ts";
import { drainQueue, jobsOnTimers } from "../support/virtual-delivery.ts";

const CARD = (m: SentMessage) => /your quote/.test(m.text) && m.buttons.length > 0;

async function until(test: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("partner mode: crash between Confirm and the partner API's answer", () => {
  let h: Harness;
  let cora: PartnerFakeUser;
  let jobs: BackgroundJobs | undefined;
  let timers: ManualTimers;
  /** POSTs of the buy before the restart (the first and its retries with the same key). */
  let posted = 0;
  const buyPath = () => `/api/v1/partners/users/${cora.partnerUserId}/buy`;
  const buys = () => h.sandbox.countRequests("POST", buyPath());
  const charged = () => {
    const account = h.sandbox.state.partnerUser(cora.partnerUserId);
    return account ? h.sandbox.state.transactionsOf(account).filter((tx) => tx.type === "buy_crypto") : [];
  };
  const told = (pattern: RegExp) => cora.messages().filter((m) => pattern.test(m.text));

  beforeEach(async () => {
    timers = new ManualTimers(HARNESS_EPOCH);
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
    cora = await h.partnerUser();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await jobs?.stop();
    jobs = undefined;
    await h.stop();
  });

  /** Confirms a €100 buy whose POST the sandbox carries out but never answers; the bot stops meanwhile. */
  async function confirmAndCrash(): Promise<void> {
    h.sandbox.faults.hold({ method: "POST", path: buyPath(), apply: true });
    await cora.send("/buy btc 100");
    await cora.tap("✅ Confirm", await cora.waitForReply(CARD));
    await until(() => h.sandbox.faults.held.length === 1);
    // The pipeline asks again with the same key while the answer is lost; those answers are lost
    // too, so the bot restarts not knowing (the exchange took the key once: one order).
    h.sandbox.faults.dropAnswerNext(10, { method: "POST", path: buyPath() });
    const stopping = h.stopBot();
    h.sandbox.faults.release({ answer: false });
    await stopping;
    await h.startBot();
    jobs = jobsOnTimers(h, timers);
    expect(charged()).toHaveLength(1);
    const action = await new Ledger(h.deps.store, h.deps.clock).latest(cora.id, "partner-buy");
    expect(action?.state).toMatch(/^(sent|unknown)$/);
    posted = buys();
  }

  async function tick(): Promise<void> {
    if (!jobs) throw new Error("no jobs started");
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }

  it("rows in the other shape (`type`, amounts under other names): the charged order is found, never 'nothing was charged'", async () => {
    await confirmAndCrash();
    h.sandbox.faults.alternateShapes(true);
    await tick();
    expect((await cora.waitForReply(/did reach the exchange/)).text).toBe(
      "✅ Your order (buy BTC for €100.00) did reach the exchange. I will tell you when it settles.",
    );
    h.clock.advance(11 * 60_000);
    await tick();
    await cora.waitForReply(/buy BTC for €100.00\) completed/);
    expect(told(/never arrived|nothing was charged/)).toHaveLength(0);
    const action = await new Ledger(h.deps.store, h.deps.clock).latest(cora.id, "partner-buy");
    expect(action).toMatchObject({ state: "settled", transactionId: charged()[0]?.id });
    expect(buys()).toBe(posted);
  });

  it("rows nobody can read: after the grace period the outcome is told as unknown with where to look, once; the order stays open", async () => {
    await confirmAndCrash();
    const api = h.deps.partner?.api;
    if (api === undefined) throw new Error("partner mode expected");
    // A shape nobody planned for: no id, type or time under any name the bot knows.
    vi.spyOn(api, "userTransactions").mockResolvedValue(
      partnerTransactions.parse({
        status: true,
        data: [{ ref: "T-1", what: "BUY", when: 1_764_000_000, sum: "100" }],
      }),
    );
    await tick();
    h.clock.advance(11 * 60_000);
    await tick();
    const notice = await cora.waitForReply(/cannot tell/);
    expect(notice.text).toBe(
      "⚠️ I cannot tell whether your order (buy BTC for €100.00) reached the exchange: it answered about your transactions in a form I cannot read. It may have been carried out and charged, or not. Please look for it in /transactions before you place it again; I will tell you if I find out.",
    );
    await tick();
    expect(told(/cannot tell/)).toHaveLength(1);
    expect(told(/never arrived|nothing was charged/)).toHaveLength(0);
    const ledger = new Ledger(h.deps.store, h.deps.clock);
    expect((await ledger.latest(cora.id, "partner-buy"))?.state).toMatch(/^(sent|unknown)$/);

    // Once the rows can be read again, the order is found and the user hears what happened.
    vi.restoreAllMocks();
    await tick();
    await cora.waitForReply(/did reach the exchange|completed/);
    expect(buys()).toBe(posted);
  });
});
