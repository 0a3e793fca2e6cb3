/**
 * /alert asked step by step while the exchange's prices have never answered: after /home has
 * asked the feed once (so it refuses at once, with no earlier answer), the guided alert says the
 * market cannot be reached instead of failing the update.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "../../support/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ marketData: true });
  h.sandbox.faults.failNext(1000, 503, { method: "GET", path: "/v1/prices*" });
});
afterAll(async () => {
  h.sandbox.faults.reset();
  await h.stop();
});

it("says the market cannot be reached, in English and German, after the feed has already failed", async () => {
  const ada = await h.loggedInUser();
  await ada.send("/home");
  await ada.waitForReply(/Home/);
  await ada.send("/alert");
  expect((await ada.waitForReply()).text).toBe(
    "I cannot reach the market prices right now, so I cannot check that alert. Please try again in a minute.",
  );
  const eva = await h.loggedInUser(undefined, { languageCode: "de" });
  await eva.send("/alert");
  expect((await eva.waitForReply()).text).toMatch(/^Ich erreiche die Marktpreise gerade nicht/);
});
