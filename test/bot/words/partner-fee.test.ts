/**
 * A partner quote can only say "plus the exchange's fee" (the partner API has
 * no fee endpoint), so it says the fee taken is told when the order completes, and the completion
 * notice names it, read tolerantly from the order's transaction. English and German.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { tradeFee } from "../../../src/sandbox/rules.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const CARD = (m: { buttons: string[][] }) => m.buttons.flat().some((b) => /Confirm|Bestätigen/.test(b));

describe("the partner order's fee", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000, autoStart: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  const fee = tradeFee(new Big(100)).toFixed(2);
  for (const [languageCode, words] of [
    [
      "en",
      {
        card: "You pay: €100.00, plus the exchange's fee (I tell you the fee taken when the order completes)",
        confirm: "✅ Confirm",
        done: /completed/,
        fee: `completed. The exchange took a fee of €${fee}.`,
      },
    ],
    [
      "de",
      {
        card: "dazu die Gebühr der Börse (die genommene Gebühr sage ich dir, wenn der Auftrag abgeschlossen ist)",
        confirm: "✅ Bestätigen",
        done: /abgeschlossen\./,
        fee: `abgeschlossen. Die Börse hat eine Gebühr von ${fee.replace(".", ",")}\u00a0€ berechnet.`,
      },
    ],
  ] as const) {
    it(`the card says when the fee is told, the completion notice names it (${languageCode})`, async () => {
      const cora = await h.partnerUser(undefined, { languageCode });
      await h.deps.profiles.update(cora.id, (p) => ({ ...p, locale: languageCode }));
      await cora.send("/buy btc 100");
      const card = await cora.waitForReply(CARD);
      expect(card.text).toContain(words.card);
      await cora.tap(words.confirm, card);
      await cora.waitForReply(/buy BTC|BTC für/);
      h.clock.advance(6_000); // the sandbox settles orders after 5 s
      await jobs.tick();
      const done = await cora.waitForReply(words.done);
      expect(done.text).toContain(words.fee);
    });
  }
});
