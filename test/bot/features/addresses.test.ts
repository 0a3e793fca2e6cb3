/**
 * /addresses, /send's saved addresses and /safety through the bot, as a person would use them:
 * the Bot API double over HTTP, the sandbox, the harness's SQLite file, the background jobs, and
 * every delay on the injected clock. Saving asks a fresh login (the 2FA code) under the
 * anti-phishing phrase; a send to the new address is refused with the time it opens, the user is
 * told when it is ready, and the send goes after that.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { HOUR_MS } from "../../../src/safety/cooling.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, logIn, startHarness } from "../../support/harness.ts";

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const OTHER = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
const PHRASE = "blue tiger 42";

describe("saved addresses, the allowlist and own limits in the chat", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  let ada: FakeUser;

  /** The fresh login a safety change asks for (the session is live, no password remembered). */
  async function freshLogin(user: FakeUser): Promise<void> {
    // Only what proves it is the user: the login's own e-mail is not asked, it is shown masked.
    const email = h.sandbox.demo.email;
    const password = await user.waitForReply(/password/);
    expect(password.text.startsWith(`🔐 ${PHRASE}`) || password.text.includes(PHRASE)).toBe(true);
    expect(password.text).toContain(`${email[0]}•••${email.slice(email.indexOf("@"))}`);
    expect(password.text).not.toContain(email);
    const why = user.messages().findLastIndex((m) => /really you/.test(m.text ?? ""));
    expect(
      user
        .messages()
        .slice(why)
        .some((m) => /e-mail address/.test(m.text ?? "")),
    ).toBe(false);
    const typed = await user.send(h.sandbox.demo.password);
    await user.waitForReply(/6-digit/);
    await user.send(h.sandbox.currentCode());
    await user.waitForReply(/Logged in/);
    expect(user.deletedMessageIds()).toContain(typed.message_id);
  }

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.setPrice("btc", "60000");
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000, autoStart: false });
    ada = await h.loggedInUser();
    await h.deps.phishing.set(ada.id, PHRASE);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("saves an address with a fresh code, refuses a send to it with the time, tells when it is ready, then sends", async () => {
    await ada.send("/addresses add btc");
    await ada.waitForReply(/BTC address to save/);
    await ada.send(BTC);
    await ada.waitForReply(/Give this BTC address a name/);
    await ada.send("Cold wallet");
    await ada.waitForReply(/really you/);
    await freshLogin(ada);
    const saved = await ada.waitForReply(/Saved “Cold wallet” \(BTC\)/);
    expect(saved.text).toContain("Nov 23, 2026");

    // A minute later: the button is offered, and the send is refused with the time it opens.
    h.clock.advance(60_000);
    await ada.send("/send btc");
    await ada.waitForReply(/Tap a saved address/);
    await ada.tap("Cold wallet");
    await ada.waitForReply(/How much BTC/);
    await ada.send("0.001");
    const refused = await ada.waitForReply(/cooling-off/);
    expect(refused.text).toMatch(/you can send to it from Nov 23, 2026, 10:0\d AM/);

    // 25 hours on: the jobs tell the user once, and the send goes (after a new login: the session ended).
    h.clock.advance(25 * HOUR_MS);
    await jobs.tick();
    await jobs.notifier.queue.idle();
    await ada.waitForReply(/“Cold wallet” is ready/);
    await jobs.tick();
    await jobs.notifier.queue.idle();
    expect(ada.messages().filter((m) => /“Cold wallet” is ready/.test(m.text))).toHaveLength(1);
    await logIn(ada, h.sandbox);
    await ada.send("/send btc");
    await ada.waitForReply(/Tap a saved address/);
    await ada.tap("Cold wallet");
    await ada.waitForReply(/How much BTC/);
    await ada.send("0.001");
    const card = await ada.waitForReply(/Send BTC/);
    expect(card.text).toContain(`To: ${BTC}`);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
  });

  it("offers to save an address typed in /send that is not saved", async () => {
    await ada.send("/send btc");
    await ada.waitForReply(/Tap a saved address/);
    await ada.send(OTHER);
    await ada.waitForReply(/not saved yet/);
    await ada.tap("💾 Save this address");
    await ada.waitForReply(/Give this BTC address a name/);
    await ada.send("Exchange B");
    await ada.waitForReply(/really you/);
    await freshLogin(ada);
    await ada.waitForReply(/Saved “Exchange B” \(BTC\)/);
    await ada.send("/addresses");
    const listed = await ada.waitForReply(/Your saved addresses/);
    expect(listed.text).toContain("Cold wallet");
    expect(listed.text).toMatch(/Exchange B · BTC\n1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 ⏳ ready from/);
    await ada.tap("🗑 Exchange B · BTC");
    const edited = await ada.waitForReply(
      (m) => m.text.includes("Your saved addresses") && !m.text.includes("Exchange B"),
    );
    expect(edited.text).toContain("Cold wallet");
    expect((await h.deps.safety.addresses.list(ada.id)).map((a) => a.label)).toEqual(["Cold wallet"]);
  });

  it("turns the allowlist off only with a fresh code, and only after the cooling-off", async () => {
    await ada.send("/safety allowlist off");
    await ada.waitForReply(/really you/);
    await freshLogin(ada);
    const later = await ada.waitForReply(/turns off at/);
    expect(later.text).toMatch(/Nov 24, 2026/);
    expect((await h.deps.safety.allowlist.get(ada.id)).on).toBe(true);
    await ada.send("/safety");
    const screen = await ada.waitForReply(/Safety/);
    expect(screen.text).toContain("Allowlist: on");
    expect(screen.text).toMatch(/It turns off at Nov 24, 2026/);
  });

  it("refuses a buy over the user's own daily limit with a sentence; a higher limit waits 24 hours", async () => {
    await ada.send("/safety cap buy 50");
    await ada.waitForReply(/Limit set/);
    await ada.send("/buy btc 100");
    const refused = await ada.waitForReply(/daily limit you set yourself/);
    expect(refused.text).toContain("€50.00 in 24 hours");
    await ada.send("/cancel");
    await ada.waitForReply();
    await ada.send("/safety cap buy 500");
    expect((await ada.waitForReply(/holds from/)).text).toMatch(/24 hours from now/);
  });

  it("asks the code alone when the password is remembered", async () => {
    const bob = h.user();
    await h.deps.profiles.update(bob.id, (profile) => ({ ...profile, rememberPassword: true }));
    await logIn(bob, h.sandbox);
    await bob.send(`/addresses add btc`);
    await bob.waitForReply(/BTC address to save/);
    await bob.send(OTHER);
    await bob.waitForReply(/Give this BTC address a name/);
    await bob.send("Friend");
    const why = await bob.waitForReply(/really you/);
    const asked = await bob.waitForReply(/6-digit code/);
    const email = h.sandbox.demo.email;
    expect(asked.text).toContain(`for ${email[0]}•••${email.slice(email.indexOf("@"))}`);
    const code = await bob.send(h.sandbox.currentCode());
    await bob.waitForReply(/Saved “Friend” \(BTC\)/);
    expect(bob.deletedMessageIds()).toContain(code.message_id);
    // The login proves it is bob: it is not offered as "stay logged in", and no password is asked.
    const after = bob.messages().filter((m) => m.messageId > why.messageId);
    expect(after.some((m) => /stay logged in|password/.test(m.text))).toBe(false);
  });

  it("refuses a withdrawal to a bank account added through the bot with the time it opens, and ends the flow", async () => {
    const cid = await h.loggedInUser();
    const seeded = h.sandbox.state.bankAccountsOf(h.sandbox.seeded.demo)[0];
    if (!seeded) throw new Error("no seeded bank account");
    await h.deps.safety.bankAdded(cid.id, { reference: seeded.reference_number, iban: "DE89 •••• 3000" });
    await cid.send("/withdraw");
    await cid.waitForReply(/To which bank account/);
    await cid.tap(/Sandbox Sparkasse/);
    await cid.waitForReply(/How many euros/);
    await cid.send("10");
    const refused = await cid.waitForReply(/cooling-off/);
    expect(refused.text).toMatch(/you can withdraw to it from Nov \d+, 2026/);
    expect(refused.text).not.toMatch(/another amount/i);
    // The flow ended: a command is answered, not held as "in the middle of something".
    await cid.send("/safety");
    expect((await cid.waitForReply()).text).toContain("Safety");
  });

  it("speaks German on the safety screen", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/safety");
    const screen = await ute.waitForReply(/Sicherheit/);
    expect(screen.text).toContain("Freigabeliste: an");
    expect(screen.text).not.toContain("Allowlist");
    expect(screen.text).toContain("Wartezeit neuer Adressen und Bankkonten: 24 h");
  });

  it("with the allowlist off, offers to save a typed address or to send to it once", async () => {
    const dora = await h.loggedInUser();
    await h.deps.safety.setAllowlist(dora.id, false);
    h.clock.advance(24 * HOUR_MS);
    await logIn(dora, h.sandbox);
    await dora.send("/send btc");
    await dora.waitForReply(/BTC address/);
    await dora.send(OTHER);
    await dora.waitForReply(/not saved\. Save it for next time/);
    await dora.tap("➡️ Send without saving");
    await dora.waitForReply(/How much BTC/);
    await dora.send("0.001");
    expect((await dora.waitForReply(/Send BTC/)).text).toContain(`To: ${OTHER}`);
    await dora.send("/cancel");
    await dora.waitForReply(/Cancelled/);
    expect(await h.deps.safety.addresses.list(dora.id)).toEqual([]);
  });
});
