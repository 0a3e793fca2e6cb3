import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import { AccountApi } from "../../src/exchange/account.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Sessions } from "../../src/session/sessions.ts";
import { openStore, type Store } from "../../src/store/store.ts";
import { Vault } from "../../src/store/vault.ts";

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
});
