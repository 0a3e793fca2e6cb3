/**
 * A 400 or 422 answer, a refused order
 * and an order the exchange reports as failed are worded in the user's language. The exchange
 * documents no error body, so neither its message (here the HTTP reason phrase the sandbox sends)
 * nor its bare transaction state "error" reaches the user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("the exchange's refusals, worded", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness();
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 60_000, autoStart: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  for (const status of [400, 422]) {
    it(`says a ${status} to /balance in German, without the HTTP reason phrase`, async () => {
      const user = await h.loggedInUser(undefined, { languageCode: "de" });
      h.sandbox.faults.failNext(20, status, { method: "GET", path: "/v1/balance*" });
      await user.send("/balance");
      const reply = await user.waitForReply();
      h.sandbox.faults.reset();
      expect(reply.text).toMatch(/^Die Börse hat das abgelehnt\. Prüf bitte deine Angaben/);
      expect(reply.text).not.toMatch(/Bad Request|Unprocessable|Entity|HTTP/);
    });
  }

  it("says a refused order in German, without the exchange's words", async () => {
    const user = await h.loggedInUser(undefined, { languageCode: "de" });
    await user.send("/buy btc 20");
    const card = await user.waitForReply((m) => m.buttons.length > 0);
    h.sandbox.faults.failNext(3, 422, { method: "POST" });
    await user.tap(card.buttons[0]?.[0] ?? "", card);
    const reply = await user.waitForReply(/❌/);
    h.sandbox.faults.reset();
    expect(reply.text).toContain("Die Börse hat den Auftrag abgelehnt, es wurde also nichts beauftragt.");
    expect(reply.text).not.toMatch(/Unprocessable|Entity|HTTP/);
  });

  it("words an order the exchange reports as failed, without its state code", async () => {
    const user = await h.loggedInUser(undefined, { languageCode: "de" });
    h.sandbox.faults.settleOrdersAs("error");
    try {
      await user.send("/buy eth 50");
      const card = await user.waitForReply((m) => m.buttons.length > 0);
      await user.tap(card.buttons[0]?.[0] ?? "", card);
      await user.waitForReply(/Auftrag erteilt/);
      h.clock.advance(10_000);
      await jobs.tick();
      const notice = await user.waitForReply(/❌/);
      expect(notice.text).toMatch(/als fehlgeschlagen und nennt keinen Grund/);
      expect(notice.text).not.toMatch(/\berror\b/);
    } finally {
      h.sandbox.faults.settleOrdersAs("success");
    }
  });
});
