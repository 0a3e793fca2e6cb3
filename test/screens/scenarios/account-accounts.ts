/**
 * Account mode with other exchange accounts than the demo one (an empty new account, the sandbox's
 * business account) and the login's edge cases: too many codes, a remembered password's shorter
 * logins, the expiry warning that asks for the code alone, a session that ends inside a flow.
 */
import Big from "big.js";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import type { Driver } from "../support/driver.ts";
import { loggedIn, proveItIsMe } from "./account-steps.ts";
import type { Scenario } from "./common.ts";

/** A new account at the exchange: no money, no addresses, no bank accounts, no history. */
const FRESH = {
  email: "fresh@sandbox.test",
  password: "fresh-password-1",
  totpSecret: "SANDBOXFRESHACCOUNTSECRETKEYABCD",
};
const LOCKED = { email: "locked@sandbox.test", password: "locked-password-1", totpSecret: FRESH.totpSecret };
const BUSINESS = { email: "business@sandbox.test", password: "business-password-1" };

/** Logs `user` out of whatever account, then in to `account` by the whole /login. */
async function logInAs(
  d: Driver,
  h: Harness,
  user: FakeUser,
  account: { email: string; password: string },
): Promise<void> {
  await d.fresh(user, "/logout", `/logout (before logging in as ${account.email})`);
  await d.send(user, "/login", `/login as ${account.email}`);
  await d.answer(user, "/login", account.email, account.password, h.sandbox.currentCode(account.email));
}

export const ACCOUNT_OTHER_SCENARIOS: Scenario[] = [
  {
    name: "a new, empty exchange account and the business account",
    async run(d, h) {
      const state = h.sandbox.state;
      const fresh = state.createAccount({ ...FRESH, info: { name: "Finn" } });
      const user = await loggedIn(d, h);
      // Demo's deposit address: its QR button is tapped later, once logged in to another account.
      await d.fresh(user, "/deposit");
      await logInAs(d, h, user, FRESH);
      for (const text of [
        "/home",
        "/deposit",
        "/transactions",
        "/tx abc",
        "/withdraw",
        "/me",
        "/balance",
        "/limits",
      ])
        await d.fresh(user, text, `${text} (a new account)`);
      await d.tapData(user, /^dep:qr:/, "/deposit → an address of the account logged out of");
      state.addBankAccount(fresh, {
        name: "Finn's Bank",
        iban: "DE02120300000000202051",
        swift_bic: "BYLADEM1001",
        verificationAmount: new Big("1.00"),
        verified: false,
      });
      await d.fresh(user, "/withdraw", "/withdraw with only an unverified bank account");
      for (let i = 0; i < 21; i++) state.addAddress(fresh, i % 2 === 0 ? "btc" : "eth");
      await d.fresh(user, "/deposit", "/deposit with more addresses than shown");
      h.sandbox.faults.closeAsset("receive", "btc");
      await d.fresh(user, "/deposit new btc", "/deposit new while receiving is paused");
      h.sandbox.faults.openAsset("receive", "btc");
      await d.fresh(user, "/deposit new");
      await d.send(user, "/cancel", "/deposit new: /cancel");
      await d.tapData(user, /^dep:cur:/, "/deposit new → a currency after the picker was left");
      await logInAs(d, h, user, BUSINESS);
      await d.fresh(user, "/me", "/me (a business account)");
      await d.send(user, "/logout");
    },
  },
  {
    name: "login: too many codes, a remembered password, the expiry warning, a session ending mid-flow",
    async run(d, h) {
      const user = h.user(undefined, { languageCode: d.locale });
      const email = h.sandbox.demo.email;
      const password = h.sandbox.demo.password;
      await d.send(user, "/login", "/login (wrong codes)");
      await d.answer(user, "/login", email, password, "111111", "222222", "333333");
      await d.fresh(user, "/settings remember on");
      await d.fresh(user, "/login");
      await d.answer(user, "/login (password remembered)", email, password, h.sandbox.currentCode());
      await d.fresh(user, "/login", "/login when logged in, the password remembered");
      await d.answer(user, "renew with the code alone", h.sandbox.currentCode());
      await d.tick("session about to end (code alone)", 56 * 60_000);
      await d.fresh(user, "/safety allowlist off", "/safety allowlist off (the password remembered)");
      await proveItIsMe(d, h, user, "/safety allowlist off (is it you?)");
      await d.tick("session ended", 70 * 60_000);
      await d.fresh(user, "/login", "/login after the session ended, the password remembered");
      await d.answer(user, "quick login", h.sandbox.currentCode());
      // The exchange ends the session while a flow needs it: logged in again in place.
      h.sandbox.faults.expireAllTokens();
      await d.fresh(
        user,
        "/withdraw",
        "/withdraw (the session ended at the exchange, the password remembered)",
      );
      await proveItIsMe(d, h, user, "/withdraw (logged in again in place)");
      await d.send(user, "/cancel", "/withdraw: /cancel");
      await d.fresh(user, "/settings remember off");
      h.sandbox.faults.expireAllTokens();
      await d.fresh(user, "/withdraw", "/withdraw (the session ended at the exchange)");
      await proveItIsMe(d, h, user, "/withdraw (logged in again in place)");
      await d.send(user, "/cancel", "/withdraw: /cancel");
      // Five wrong passwords lock the login for a while (an account of its own: the lock is per e-mail too).
      const guessed = h.sandbox.state.createAccount({ ...LOCKED, info: { name: "Lou" } });
      const guesser = h.user(undefined, { languageCode: d.locale });
      for (let i = 1; i <= 5; i++) {
        await d.send(guesser, "/login", `/login with a wrong password (${i})`);
        await d.answer(
          guesser,
          "/login",
          guessed.email,
          "wrong-password",
          h.sandbox.currentCode(guessed.email),
        );
      }
      await d.send(guesser, "/login", "/login while locked out");
    },
  },
];
