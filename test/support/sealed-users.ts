/**
 * Users whose state is sealed in every way the bot seals it, for the key-change and rotation tests:
 * a login with a remembered password and an anti-phishing phrase, and a login left half-way (its
 * conversation state). `expectAllOpen` then proves each of those opens with the key the bot runs on.
 */
import { expect } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, logIn } from "./harness.ts";

export const PHRASE = "purple walrus";

/** Logged in under the key running now, with a remembered password and the phrase set. */
export async function settledUser(h: Harness): Promise<FakeUser> {
  const user = h.user();
  await h.deps.profiles.update(user.id, (profile) => ({ ...profile, rememberPassword: true }));
  await logIn(user, h.sandbox);
  await user.send(`/settings phrase ${PHRASE}`);
  await user.waitForReply(/Saved/);
  return user;
}

/** Half-way through /login: the e-mail given, the password asked. */
export async function halfWayUser(h: Harness): Promise<FakeUser> {
  const user = h.user();
  await user.send("/login");
  await user.waitForReply(/e-mail/);
  await user.send(h.sandbox.demo.email);
  await user.waitForReply(/password/);
  return user;
}

/**
 * The settled user's session works, the half-way login goes on where it was, and the remembered
 * password and the phrase open: /login offers to stay logged in with only a code (the e-mail and
 * the phrase on its question), and that works.
 */
export async function expectAllOpen(h: Harness, settled: FakeUser, halfWay: FakeUser): Promise<void> {
  await settled.send("/balance");
  await settled.waitForReply(/Your balances/);
  await halfWay.send(h.sandbox.demo.password);
  await halfWay.waitForReply(/6-digit/);
  await halfWay.send(h.sandbox.currentCode());
  await halfWay.waitForReply(/Logged in/);
  await settled.send("/login");
  const quick = await settled.waitForReply(/send the current 6-digit code/);
  expect(quick.text).toContain(h.sandbox.demo.email);
  expect(quick.text).toContain(PHRASE);
  await settled.send(h.sandbox.currentCode());
  await settled.waitForReply(/Logged in/);
}
