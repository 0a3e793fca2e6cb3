/**
 * Sign-up in partner mode, end to end against the sandbox's partner API: the contact button (own
 * contact only) and a typed phone, consent, the PIN typed twice and deleted, the user created and
 * linked for good; an e-mail the exchange already knows gets a sentence that says what to do.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinWeakness, WEAK_PINS } from "../../../src/partner/pins.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness, TEST_TERMS_URL } from "../../support/harness.ts";

/** Answers the questions up to the phone step. */
async function upToPhone(user: FakeUser, email: string): Promise<void> {
  await user.send("/start");
  await user.waitForReply(/e-mail address/);
  await user.send("not an e-mail");
  await user.waitForReply(/does not look like an e-mail/);
  await user.send(email);
  await user.waitForReply(/first name/);
  await user.send("Grace");
  await user.waitForReply(/surname/);
  await user.send("Hopper");
  const ask = await user.waitForReply(/phone number/);
  expect(JSON.stringify(ask.replyMarkup)).toContain('"request_contact":true');
}

/** Consent and the PIN twice; returns the PIN messages (to check they were deleted). */
async function consentAndPin(user: FakeUser, pin: string): Promise<number[]> {
  const consent = await user.waitForReply(/terms \(version/);
  // The terms can be read before agreeing: a URL button to TERMS_URL, and the address in the text.
  expect(consent.buttons).toEqual([["📄 Read the terms"], ["✅ I agree", "❌ I do not agree"]]);
  expect(consent.replyMarkup).toMatchObject({ inline_keyboard: [[{ url: TEST_TERMS_URL }], [{}, {}]] });
  expect(consent.text).toContain(TEST_TERMS_URL);
  await user.tap("✅ I agree", consent);
  await user.waitForReply(/6-digit PIN/);
  const first = await user.send(pin);
  await user.waitForReply(/same PIN again/);
  const second = await user.send(pin);
  return [first.message_id, second.message_id];
}

function sqliteBytes(h: Harness): string {
  const path = h.storeUrl.slice("sqlite://".length);
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString("latin1"))
    .join("\n");
}

describe("partner sign-up", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("signs up with the contact button: created at the exchange, linked, PIN kept only as a hash", async () => {
    const grace = h.user();
    await upToPhone(grace, "grace@example.com");
    await grace.sendContact({ phone: "4915112345678", userId: grace.id });
    expect((await grace.waitForReply(/Phone number/)).text).toContain("+49 1511 2345678");
    const pinMessages = await consentAndPin(grace, "246810");
    const done = await grace.waitForReply(/account for grace@example.com is open/);
    expect(done.text).toContain("not verified yet");
    expect(done.text).toContain("/verify");

    expect(grace.deletedMessageIds()).toEqual(expect.arrayContaining(pinMessages));
    const link = await h.deps.partner?.users.get(grace.id);
    // Kept with the consent: which terms (version and address) and when.
    expect(link?.consent).toEqual({ version: "2026-11", url: TEST_TERMS_URL, at: h.clock.now() });
    const created = h.sandbox.state.partnerUser(link?.partnerUserId ?? 0);
    expect(created?.email).toBe("grace@example.com");
    expect(created?.info).toMatchObject({ name: "Grace", surname: "Hopper" });
    expect(created?.partner?.phone).toBe("+4915112345678");
    expect(await h.deps.partner?.pins.verify(grace.id, "246810")).toEqual({ ok: true });
    // The operator desk finds her by e-mail (in any case) without walking every user.
    expect(await h.deps.partner?.users.partnerIdByEmail("Grace@Example.com")).toBe(link?.partnerUserId);

    // The PIN is nowhere in the raw store, not even in the write-ahead log.
    expect(sqliteBytes(h)).not.toContain("246810");

    // Known for good: /start now says where the verification stands.
    await h.restartBot();
    await grace.send("/start");
    expect((await grace.waitForReply()).text).toMatch(/Welcome back, Grace!.*not verified yet/s);
  });

  it("refuses someone else's contact, and takes a typed phone number", async () => {
    const alan = h.user();
    await upToPhone(alan, "alan@example.com");
    await alan.sendContact({ phone: "+441632960961", firstName: "Someone", userId: alan.id + 1 });
    expect((await alan.waitForReply()).text).toContain("someone else's contact");
    await alan.sendContact({ phone: "+441632960961", firstName: "No id" });
    expect((await alan.waitForReply()).text).toContain("someone else's contact");
    await alan.send("12");
    expect((await alan.waitForReply()).text).toContain("not a phone number I can use");
    await alan.send("+44 20 7946 0958");
    expect((await alan.waitForReply(/Phone number/)).text).toContain("+44 20 7946 0958");
    await consentAndPin(alan, "135790");
    await alan.waitForReply(/account for alan@example.com is open/);
    const id = await h.deps.partner?.users.partnerIdOf(alan.id);
    expect(h.sandbox.state.partnerUser(id ?? 0)?.partner?.phone).toBe("+442079460958");
  });

  it("asks again when the two PINs differ, and deletes every PIN message", async () => {
    const ida = h.user();
    await upToPhone(ida, "ida@example.com");
    await ida.send("+43 664 1234567");
    const consent = await ida.waitForReply(/terms/);
    await ida.tap("✅ I agree", consent);
    await ida.waitForReply(/6-digit PIN/);
    const a = await ida.send("12345");
    await ida.waitForReply(/exactly 6 digits/);
    const b = await ida.send("271828");
    await ida.waitForReply(/same PIN again/);
    const c = await ida.send("314159");
    await ida.waitForReply(/PINs differ/);
    await ida.waitForReply(/choose a 6-digit PIN/);
    const d = await ida.send("161803");
    await ida.waitForReply(/same PIN again/);
    const e = await ida.send("161803");
    await ida.waitForReply(/is open/);
    expect(ida.deletedMessageIds()).toEqual(expect.arrayContaining([a, b, c, d, e].map((m) => m.message_id)));
    expect(await h.deps.partner?.pins.verify(ida.id, "161803")).toEqual({ ok: true });
  });

  it("refuses a PIN easy to guess, says why, deletes it, and takes a good one", async () => {
    const max = h.user();
    await upToPhone(max, "max@example.com");
    await max.send("+49 30 901821");
    await max.tap("✅ I agree", await max.waitForReply(/terms/));
    await max.waitForReply(/6-digit PIN/);
    const typed: number[] = [];
    const cases: [string, RegExp][] = [
      ["000000", /all its digits are the same/],
      ["777777", /all its digits are the same/],
      ["123456", /count up or down in a row/],
      ["654321", /count up or down in a row/],
      ["012345", /count up or down in a row/],
      ["987654", /count up or down in a row/],
      // Round the dial: 9 is followed by 0.
      ["890123", /count up or down in a row/],
      ["123123", /PINs people choose most/],
      ["112233", /PINs people choose most/],
      ["696969", /PINs people choose most/],
    ];
    for (const [pin, reason] of cases) {
      typed.push((await max.send(pin)).message_id);
      const said = await max.waitForReply(/too easy to guess/);
      expect(said.text, pin).toMatch(reason);
      expect(said.text).toContain("Please choose another one.");
    }
    typed.push((await max.send("583920")).message_id);
    await max.waitForReply(/same PIN again/);
    typed.push((await max.send("583920")).message_id);
    await max.waitForReply(/is open/);
    expect(max.deletedMessageIds()).toEqual(expect.arrayContaining(typed));
    expect(await h.deps.partner?.pins.verify(max.id, "583920")).toEqual({ ok: true });
  });

  it("knows every class of weak PIN, and the store refuses them too", async () => {
    const runs: string[] = [];
    for (let start = 0; start < 10; start++) {
      const up = Array.from({ length: 6 }, (_, i) => (start + i) % 10).join("");
      runs.push(up, [...up].reverse().join(""));
    }
    expect(new Set(runs).size).toBe(20);
    for (const pin of runs) expect(pinWeakness(pin), pin).toBe("run");
    for (let d = 0; d < 10; d++) expect(pinWeakness(String(d).repeat(6))).toBe("same");
    for (const pin of WEAK_PINS) expect(pinWeakness(pin), pin).toBe("common");
    // Close to a class is not in it.
    for (const pin of ["123457", "112234", "135790", "246810", "975310", "482913", "000001"]) {
      expect(pinWeakness(pin), pin).toBeUndefined();
    }
    await expect(h.deps.partner?.pins.set(424242, "121212")).rejects.toThrow(/too easy to guess/);
    expect(await h.deps.partner?.pins.has(424242)).toBe(false);
  });

  it('takes a first name only as on an ID, like the surname: "Ada 🚀" is refused, "Zoë-Marie O\'Neil" taken', async () => {
    const ada = h.user();
    await ada.send("/start");
    await ada.waitForReply(/e-mail address/);
    await ada.send("ada.rocket@example.com");
    await ada.waitForReply(/first name/);
    await ada.send("Ada 🚀");
    expect((await ada.waitForReply(/as on your ID/)).text).toMatch(
      /^Please send the name as on your ID: letters/,
    );
    await ada.send("Zoë-Marie O'Neil");
    await ada.waitForReply(/surname/);
    await ada.send("Lovelace 2");
    await ada.waitForReply(/as on your ID/);
    await ada.send("Лавлейс");
    await ada.waitForReply(/phone number/);
  });

  it("stores nothing when the terms are declined", async () => {
    const kim = h.user();
    await upToPhone(kim, "kim@example.com");
    await kim.send("+49 30 901820");
    await kim.tap("❌ I do not agree", await kim.waitForReply(/terms/));
    expect((await kim.waitForReply()).text).toContain("Nothing was stored");
    expect(await h.deps.partner?.users.get(kim.id)).toBeUndefined();
    expect(h.sandbox.state.accountByEmail("kim@example.com")).toBeUndefined();
  });

  it("says what to do when the exchange already knows the e-mail", async () => {
    const dup = h.user();
    await upToPhone(dup, "partner-user@sandbox.test");
    await dup.send("+49 30 901820");
    await consentAndPin(dup, "975310");
    const said = (await dup.waitForReply(/already has an account/)).text;
    expect(said).toContain("Send /start to sign up with another e-mail address");
    expect(said).toContain("@sandbox_support");
    expect(await h.deps.partner?.users.get(dup.id)).toBeUndefined();
  });
});
