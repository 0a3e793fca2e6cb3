/**
 * Steps the account-mode scripts share: logging in, proving it is the user, tapping as someone else.
 */
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import type { Driver } from "../support/driver.ts";

/**
 * Answers whatever the bot asks to prove it is the user (e-mail, password, code: today's re-login
 * asks all three, a shorter one only some), reading which question the last step asked.
 */
export async function proveItIsMe(d: Driver, h: Harness, user: FakeUser, flow: string): Promise<void> {
  for (let asked = 0; asked < 4; asked++) {
    // The step's last question is what the bot waits for.
    const keys =
      [...d.stepKeys].reverse().find((id) => /ask-email|bad-email|ask-password|ask-code/.test(id)) ?? "";
    if (/ask-email|bad-email/.test(keys)) await d.send(user, h.sandbox.demo.email, `${flow} ← e-mail`);
    else if (/ask-password|expired-ask-password/.test(keys))
      await d.send(user, h.sandbox.demo.password, `${flow} ← password`);
    else if (/ask-code|renew-ask-code/.test(keys))
      await d.send(user, h.sandbox.currentCode(), `${flow} ← code`);
    else return;
  }
}

/** Logs `user` in again (a session ends after an hour, and the catalogue moves days). */
export async function relogin(d: Driver, h: Harness, user: FakeUser): Promise<void> {
  await d.fresh(user, "/login", "/login again (a session lasts an hour)");
  await proveItIsMe(d, h, user, "/login again");
}

export async function loggedIn(d: Driver, h: Harness) {
  d.title("login (helper)");
  const user = await h.loggedInUser(undefined, { languageCode: d.locale });
  await d.settle();
  return user;
}

/**
 * `other` taps `data` (a button shown to someone else): Telegram lets any callback data arrive, so
 * a forwarded card or a crafted tap is answered as not theirs. The tap rides on `other`'s newest message.
 */
export async function tapAs(
  d: Driver,
  other: FakeUser,
  data: string | undefined,
  title: string,
): Promise<void> {
  if (data === undefined) return;
  const own = other.messages().at(-1);
  if (own === undefined) return;
  d.title(`${title} (tap)`);
  await other.tapData(own.messageId, data);
  await d.settle();
}

/** The date `days` from the harness clock's today, as /recurring takes it typed ("2026-12-01"). */
export function isoDate(h: Harness, days: number): string {
  return new Date(h.clock.now() + days * 86_400_000).toISOString().slice(0, 10);
}
