/**
 * A user never waits in silence (SECURITY.md, Reliability), shown with small deadlines: with an
 * exchange that takes far longer than the deadline, "typing…" comes first, then the sentence that
 * the exchange did not answer in time; the late answer changes nothing and the bot stays up.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualTimers } from "../../src/support/clock.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const EXCHANGE_LATENCY_MS = 2_500;

describe("one deadline per user action", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ answerDeadline: { firstSignMs: 100, finalMs: 1_000 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("shows typing first, says the exchange is slow by the deadline, and ignores the late answer", async () => {
    const ada = await h.loggedInUser();
    h.sandbox.faults.addLatency(EXCHANGE_LATENCY_MS, { method: "GET", path: "/v1/*" });
    try {
      const started = performance.now();
      await ada.send("/balance");
      const typing = await ada.waitForCall("sendChatAction");
      expect(typing.payload.action).toBe("typing");
      const answer = await ada.waitForReply();
      // A generous bound: well under the exchange's latency (and under the 3 × 15 s of retries).
      expect(performance.now() - started).toBeLessThan(EXCHANGE_LATENCY_MS);
      expect(answer.text).toMatch(/did not answer in time/);
      const sendCalls = h.telegram.calls.filter((c) => c.method === "sendMessage" && c.chatId === ada.id);
      expect(typing.seq).toBeLessThan(sendCalls.at(-1)?.seq ?? 0);
      expect(h.sandbox.requests.filter((r) => r.path === "/v1/balance").length).toBe(1);

      // The exchange's late answers arrive: no second reply, nothing breaks.
      const before = ada.messages().length;
      await delay(EXCHANGE_LATENCY_MS);
      expect(ada.messages()).toHaveLength(before);
    } finally {
      h.sandbox.faults.reset();
    }
    await ada.send("/balance");
    expect((await ada.waitForReply()).text).toMatch(/Euro/);
  });
});

describe("no sign when the answer came first", () => {
  it("shows no typing once the answer is out, however late the timer fires", async () => {
    // The first-sign timer on a manual clock: fired after the reply, whatever the machine's load.
    const timers = new ManualTimers();
    const h = await startHarness({ answerDeadline: { firstSignMs: 100, finalMs: 1_500, timers } });
    try {
      const bob = h.user();
      await bob.send("/help");
      await bob.waitForReply();
      timers.advance(10_000);
      await h.telegram.waitUntilIdle({ quietMs: 100 });
      expect(h.telegram.calls.some((c) => c.method === "sendChatAction" && c.chatId === bob.id)).toBe(false);
    } finally {
      await h.stop();
    }
  });
});

// Opt-in (MEASURE_DEADLINE=1): the default 2 s / 20 s against an exchange that hangs, timed.
describe.runIf(process.env.MEASURE_DEADLINE)("measured with the default deadline", () => {
  it("prints the time to the first sign and to the final answer", { timeout: 90_000 }, async () => {
    const h = await startHarness();
    try {
      const ada = await h.loggedInUser();
      h.sandbox.faults.addLatency(30_000, { method: "GET", path: "/v1/*" });
      const started = performance.now();
      await ada.send("/balance");
      await ada.waitForCall("sendChatAction", () => true, 30_000);
      const firstSign = performance.now() - started;
      const answer = await ada.waitForReply(undefined, 30_000);
      const final = performance.now() - started;
      console.log(
        `exchange hanging: first sign after ${Math.round(firstSign)} ms, final answer after ${Math.round(final)} ms: ${answer.text}`,
      );
      expect(final).toBeLessThan(20_000);
      await delay(12_000);
    } finally {
      await h.stop();
    }
  });
});
