/**
 * The anti-phishing phrase on every message that confirms a money action: the quote card of each
 * kind, the fresh-code question of a send or withdrawal, the outcome and the order notices. A user
 * without a phrase sees the same messages as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { liveCard, toSendCard } from "../../orders/helpers.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const LINE = "🛡 Your anti-phishing phrase: blue <tiger> & 42\n\n";

describe("the anti-phishing phrase on money messages", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  let ada: FakeUser;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 60_000, autoStart: false });
    ada = await h.loggedInUser();
    // HTML-special characters: the send card and code question are HTML, the buy card plain text.
    await h.deps.phishing.set(ada.id, "blue <tiger> & 42");
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("stands on a buy card, its outcome and its settlement notice", async () => {
    await ada.send("/buy btc 100");
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(card.text.startsWith(LINE)).toBe(true);
    await ada.tap("✅ Confirm");
    expect((await ada.waitForReply(/Order placed/)).text.startsWith(LINE)).toBe(true);
    h.clock.advance(6_000);
    await jobs.tick();
    await jobs.notifier.queue.idle();
    expect((await ada.waitForReply(/completed/)).text).toBe(
      `${LINE}🎉 Your order (buy BTC for €100.00) completed.`,
    );
  });

  it("stands on a send card and on the code question", async () => {
    expect((await toSendCard(h, ada, BTC, "0.001")).text.startsWith(LINE)).toBe(true);
    await ada.tap("✅ Confirm");
    expect((await ada.waitForReply(/6-digit code/)).text.startsWith(LINE)).toBe(true);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
  });

  it("changes nothing for a user without a phrase", async () => {
    const bob = await h.loggedInUser();
    await bob.send("/buy btc 100");
    const card = await bob.waitForReply(liveCard(/Buy BTC: your quote/));
    expect(card.text.startsWith("🧾 Buy BTC: your quote")).toBe(true);
    await toSendCard(h, bob, BTC, "0.001");
    await bob.tap("✅ Confirm");
    expect((await bob.waitForReply(/6-digit code/)).text.startsWith("Confirmed. Now type")).toBe(true);
    expect(bob.messages().some((m) => m.text.includes("anti-phishing"))).toBe(false);
  });
});
