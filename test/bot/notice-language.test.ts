/**
 * A message the bot starts itself (an order that settled, a security notice, a KYC change) has no
 * update to read the user's language from. A user who never picked one with /language gets it in
 * their Telegram app's language, kept from their updates (written only when first seen or
 * changed); a language they picked still wins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../src/process/jobs.ts";
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

  it("sends a security notice in the app's language to a user who is not logged in and never chose one", async () => {
    const cleo = h.user(undefined, { languageCode: "de" });
    await cleo.send("/help");
    await cleo.waitForReply(/^Was ich kann/);
    expect((await h.deps.profiles.get(cleo.id)).appLocale).toBe("de");
    await h.deps.securityNotices.tell(cleo.id, { type: "frozen", by: "user" });
    const notice = await cleo.waitForReply(/🧊/);
    expect(notice.text).toContain("Einfrieren");
    expect(notice.text).not.toMatch(/\b(You|your|Freeze)\b/);
  });

  it("writes the app's language once, not on every update, and again when it changes", async () => {
    const dora = h.user(undefined, { languageCode: "de" });
    let writes = 0;
    const update = h.deps.profiles.update.bind(h.deps.profiles);
    h.deps.profiles.update = (userId, change) => {
      if (userId === dora.id) writes++;
      return update(userId, change);
    };
    try {
      for (let i = 0; i < 3; i++) {
        await dora.send("/help");
        await dora.waitForReply(/^Was ich kann/);
      }
      expect(writes).toBe(1);
      dora.from.language_code = "en";
      await dora.send("/help");
      await dora.waitForReply(/^What I can do/);
      expect(writes).toBe(2);
      expect((await h.deps.profiles.get(dora.id)).appLocale).toBe("en");
    } finally {
      h.deps.profiles.update = update;
    }
  });
});

describe("the language of partner notices", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 60_000, autoStart: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("tells a KYC change in the app's language of a user who never chose one", async () => {
    // Linked with no app language known (as before this was kept): the next update tells it.
    const emil = await h.partnerUser(undefined, { kycStatus: "pending" });
    expect((await h.deps.profiles.get(emil.id)).appLocale).toBeUndefined();
    emil.from.language_code = "de";
    await emil.send("/balance");
    await emil.waitForReply();
    h.sandbox.faults.setPartnerUserStatus(emil.partnerUserId, { kyc_status: "passed" });
    h.clock.advance(60 * 60_000);
    await jobs.tick();
    const notice = await emil.waitForReply(/Verifizierung|verification/);
    expect(notice.text).toMatch(/^Neuigkeiten zu deiner Verifizierung\./);
  });
});
