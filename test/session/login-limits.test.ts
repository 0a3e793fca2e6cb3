import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountApi } from "../../src/exchange/account.ts";
import { ExchangeError } from "../../src/exchange/errors.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Sessions } from "../../src/session/sessions.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { Vault } from "../../src/store/vault.ts";
import { ManualClock } from "../../src/support/clock.ts";

describe("failed-login limits (SECURITY.md, rule 3)", () => {
  let sandbox: Sandbox;
  let http: HttpClient;
  let store: Store;
  let sessions: Sessions;
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));

  beforeAll(async () => {
    sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
    http = new HttpClient({ baseUrl: sandbox.url });
    store = await openStore("memory://");
    const account = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
    sessions = new Sessions({ store, vault: new Vault([Buffer.alloc(32, 1)]), account, clock });
  });
  afterAll(async () => {
    await store.close();
    await http.close();
    await sandbox.close();
  });

  const business = () => sandbox.seeded.business;

  it("limits guesses at one e-mail across many Telegram users, without storing the address", async () => {
    const email = business().email;
    // Ten different Telegram users, each under their own limit of five, guess one account's password.
    for (let user = 1; user <= 10; user++) {
      const outcome = await sessions.login(100 + user, {
        email,
        password: `guess-${user}`,
        securityCode: sandbox.currentCode(email),
      });
      expect(outcome.ok).toBe(false);
    }
    const before = sandbox.countRequests("POST", "/v1/auth/login");
    const eleventh = await sessions.login(200, {
      email,
      password: "guess-11",
      securityCode: sandbox.currentCode(email),
    });
    expect(eleventh).toMatchObject({ ok: false, reason: "rate-limited" });
    expect(sandbox.countRequests("POST", "/v1/auth/login")).toBe(before);
    // Another account is not affected, and no key names the e-mail in clear.
    const other = await sessions.login(201, { ...sandbox.demo, securityCode: sandbox.currentCode() });
    expect(other.ok).toBe(true);
    expect((await store.keys("")).join(" ")).not.toContain(email);
  });
  it("does not count a login the exchange never answered: an outage locks nobody out", async () => {
    const email = "outage@example.com";
    sandbox.faults.dropNext(12, { method: "POST", path: "/v1/auth/login" });
    for (let i = 0; i < 12; i++) {
      await expect(
        sessions.login(300, { email, password: "a guess", securityCode: "000000" }),
      ).rejects.toBeInstanceOf(ExchangeError);
    }
    expect(await sessions.loginBlockedUntil(300)).toBeUndefined();
    const wrong = await sessions.login(300, {
      email,
      password: "a guess",
      securityCode: "000000",
    });
    expect(wrong).toMatchObject({ ok: false, reason: "bad-credentials", attemptsLeft: 4 });
  });

  it("says which failure locked the user out (lockedNow), and refuses the next without a call", async () => {
    const email = "lockout@example.com";
    const outcomes = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(await sessions.login(301, { email, password: `guess-${i}`, securityCode: "000000" }));
    }
    expect(outcomes.at(-1)).toMatchObject({ ok: false, reason: "rate-limited", lockedNow: true });
    const before = sandbox.countRequests("POST", "/v1/auth/login");
    expect(await sessions.login(301, { email, password: "x", securityCode: "000000" })).toMatchObject({
      ok: false,
      reason: "rate-limited",
      lockedNow: false,
    });
    expect(sandbox.countRequests("POST", "/v1/auth/login")).toBe(before);
  });
});
