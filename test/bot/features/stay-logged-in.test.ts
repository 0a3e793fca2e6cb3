/**
 * The expiry warning does what it says: with a remembered password it asks for a fresh code, and
 * a code typed after it (outside any flow) logs in again, its message deleted first; without one,
 * it says to tap its button, and a code alone logs no one in. /login while logged in says so,
 * until when, and names /logout. Real sandbox, Bot API double, the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, logIn, runJobsNearSessionEnd, startHarness } from "../../support/harness.ts";

describe("staying logged in after the expiry warning", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  const logins = () => h.sandbox.countRequests("POST", "/v1/auth/login");

  async function rememberingUser(): Promise<FakeUser> {
    const ada = h.user();
    await h.deps.profiles.update(ada.id, (p) => ({ ...p, rememberPassword: true }));
    await logIn(ada, h.sandbox);
    return ada;
  }

  /** A code the sandbox refuses now. */
  const wrongCode = () => (h.sandbox.currentCode() === "000000" ? "111111" : "000000");

  it("with a remembered password: a fresh code sent after the warning logs in again", async () => {
    const ada = await rememberingUser();
    const before = await h.deps.sessions.status(ada.id);
    await runJobsNearSessionEnd(h);
    const warning = await ada.waitForReply(/session ends at/);
    expect(warning.text).toContain("send me a fresh 2FA code");
    expect(warning.buttons.flat()).toEqual(["Stay logged in"]);

    // A wrong code: deleted, refused, counted; the offer still stands.
    const count = logins();
    const wrong = await ada.send(wrongCode());
    expect((await ada.waitForReply(/not accepted/)).text).toContain("tries left");
    expect(ada.deletedMessageIds()).toContain(wrong.message_id);

    const right = await ada.send(h.sandbox.currentCode());
    const done = await ada.waitForReply(/Logged in as/);
    expect(ada.deletedMessageIds()).toContain(right.message_id);
    expect(logins()).toBe(count + 2);
    const after = await h.deps.sessions.status(ada.id);
    expect(after.state).toBe("active");
    if (before.state !== "active" || after.state !== "active") throw new Error("not active");
    expect(after.expiresAt).toBeGreaterThan(before.expiresAt);
    expect(done.text).toContain(h.sandbox.demo.email);

    // The offer is taken: six digits now are a stray secret, deleted, and log no one in.
    const stray = await ada.send(h.sandbox.currentCode());
    expect((await ada.waitForReply()).text).toContain("That looked like a code or PIN");
    expect(ada.deletedMessageIds()).toContain(stray.message_id);
    expect(logins()).toBe(count + 2);
  });

  it("a code sent just after the session ran out still counts", async () => {
    const ada = await rememberingUser();
    await runJobsNearSessionEnd(h);
    await ada.waitForReply(/session ends at/);
    h.clock.advance(6 * 60_000);
    expect((await h.deps.sessions.status(ada.id)).state).toBe("expired");
    await ada.send(h.sandbox.currentCode());
    await ada.waitForReply(/Logged in as/);
    expect((await h.deps.sessions.status(ada.id)).state).toBe("active");
  });

  it("without a remembered password: the warning says to tap its button, and a code alone does nothing", async () => {
    const bob = h.user();
    await logIn(bob, h.sandbox);
    await runJobsNearSessionEnd(h);
    const warning = await bob.waitForReply(/session ends at/);
    expect(warning.text).toContain("tap the button below");
    expect(warning.text).not.toContain("2FA code");
    const count = logins();
    const code = await bob.send(h.sandbox.currentCode());
    expect((await bob.waitForReply()).text).toContain("That looked like a code or PIN");
    expect(bob.deletedMessageIds()).toContain(code.message_id);
    expect(logins()).toBe(count);

    // The button renews, and says so before asking anything.
    await bob.tap("Stay logged in", warning);
    expect((await bob.waitForReply(/You are logged in as/)).text).toContain("/logout");
    await bob.waitForReply(/e-mail/);
    await bob.send("/cancel");
    await bob.waitForReply(/Cancelled/);
  });

  it("/login while logged in says so, until when, and names /logout", async () => {
    const cleo = h.user();
    await logIn(cleo, h.sandbox);
    const count = logins();
    await cleo.send("/login");
    const said = (await cleo.waitForReply()).text;
    expect(said).toMatch(/already logged in as .+, until \d{1,2}:\d\d/);
    expect(said).toContain("/logout");
    expect(logins()).toBe(count);

    // With a remembered password it offers the quick renewal, and still says so.
    const dan = await rememberingUser();
    await dan.send("/login");
    const renew = (await dan.waitForReply()).text;
    expect(renew).toMatch(/You are logged in as .+ until \d{1,2}:\d\d/);
    expect(renew).toContain("/logout");
    await dan.send("/cancel");
    await dan.waitForReply(/Cancelled/);

    const german = h.user(undefined, { languageCode: "de" });
    await logIn(german, h.sandbox);
    await german.send("/login");
    expect((await german.waitForReply()).text).toMatch(/bereits als .+ angemeldet, bis \d\d:\d\d.*\/logout/);
  });
});
