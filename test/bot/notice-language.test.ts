/**
 * A message the bot starts itself (an order that settled, here) has no update to read the user's
 * language from. A user who never picked one with /language gets it in their Telegram app's
 * language, kept when they logged in and confirmed; a language they picked still wins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/jobs.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";

describe("the language of notices", () => {
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

  async function buyAndSettle(user: FakeUser): Promise<string> {
    await user.send("/buy btc 100");
    const card = await user.waitForReply((m) => m.buttons.length > 0);
    await user.tap(card.buttons[0]?.[0] ?? "", card);
    await user.waitForReply(/Auftrag erteilt|Order placed/);
    h.clock.advance(6_000); // the sandbox settles orders after 5 s
    await jobs.tick();
    return (await user.waitForReply(/🎉/)).text;
  }

  it("follows the Telegram app's language when the user never picked one", async () => {
    const anna = await h.loggedInUser(undefined, { languageCode: "de" });
    expect(await buyAndSettle(anna)).toMatch(
      /^🎉 Dein Auftrag \(BTC für 100,00\s€ kaufen\) ist abgeschlossen\.$/,
    );
    expect((await h.deps.profiles.get(anna.id)).appLocale).toBe("de");
  });

  it("keeps the language the user picked over the app's", async () => {
    const ben = await h.loggedInUser(undefined, { languageCode: "de" });
    await h.deps.profiles.update(ben.id, (profile) => ({ ...profile, locale: "en" }));
    expect(await buyAndSettle(ben)).toMatch(/^🎉 Your order \(buy BTC for €100\.00\) completed\.$/);
  });
});
