/**
 * The freeze's text promises that the end of the unfreeze delay is announced.
 * The jobs' tick tells the user once when it ends (with Freeze), in their language, and never for
 * an unfreeze that a newer Freeze cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { DEFAULT_UNFREEZE_DELAY_MS } from "../../../src/safety/freezes.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { answerLoginUpToCode, type Harness, startHarness } from "../../support/harness.ts";

describe("the end of the unfreeze delay", () => {
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

  async function freezeAndUnfreeze(
    user: FakeUser,
    words: { froze: RegExp; asked: RegExp; open?: string; freeze?: string },
  ) {
    await user.send("/freeze");
    await user.waitForReply(words.froze);
    await user.send("/unfreeze");
    await answerLoginUpToCode(user, h.sandbox);
    await user.send(h.sandbox.currentCode());
    return user.waitForReply(words.asked);
  }

  for (const [languageCode, words] of [
    [
      "en",
      {
        froze: /You froze/,
        asked: /Unfreeze asked for/,
        open: "🔓 Your money actions are open again",
        freeze: "🧊 Freeze",
      },
    ],
    [
      "de",
      {
        froze: /Du hast die Geldaktionen/,
        asked: /Auftauen angefragt/,
        open: "🔓 Deine Geldaktionen sind wieder offen",
        freeze: "🧊 Einfrieren",
      },
    ],
  ] as const) {
    it(`is announced once, with Freeze (${languageCode})`, async () => {
      const ada = await h.loggedInUser(undefined, { languageCode });
      await freezeAndUnfreeze(ada, words);
      const opened = () => ada.messages().filter((m) => m.text.includes(words.open));
      h.clock.advance(DEFAULT_UNFREEZE_DELAY_MS - 60_000);
      await jobs.tick();
      expect(opened()).toHaveLength(0);

      h.clock.advance(60_000);
      await jobs.tick();
      const notice = await ada.waitForReply((m) => m.text.includes(words.open));
      expect(notice.buttons).toEqual([[words.freeze]]);
      await jobs.tick();
      await jobs.tick();
      expect(opened()).toHaveLength(1);
    });
  }

  it("is not announced when a Freeze came after the unfreeze was asked for", async () => {
    const bea = await h.loggedInUser();
    const asked = await freezeAndUnfreeze(bea, { froze: /You froze/, asked: /Unfreeze asked for/ });
    await bea.tap("🧊 Freeze", asked);
    await bea.waitForReply(/You froze/);
    h.clock.advance(DEFAULT_UNFREEZE_DELAY_MS + 60_000);
    await jobs.tick();
    await jobs.tick();
    expect(await h.deps.freezes.isFrozen(bea.id)).toBe(true);
    expect(
      bea.messages().filter((m) => m.text.includes("🔓 Your money actions are open again")),
    ).toHaveLength(0);
  });
});
