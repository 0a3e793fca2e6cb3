/**
 * The error mapping and retry policy of the real client, driven by the sandbox's fault switches
 * over real HTTP on loopback. Retry waits go through an injected `sleep` that records them and
 * returns at once: nothing here waits for a backoff or asserts on elapsed time.
 */

import { inspect } from "node:util";
import Big from "big.js";
import { afterEach, describe, expect, it } from "vitest";
import { AccountApi, type AccountSession } from "../../src/exchange/account.ts";
import { HttpClient, type HttpClientOptions } from "../../src/exchange/http.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { failure } from "../support/failure.ts";

const START = Date.parse("2026-03-10T12:00:10Z");

interface Setup {
  sandbox: Sandbox;
  clock: ManualClock;
  http: HttpClient;
  api: AccountApi;
  session: AccountSession;
  token: string;
  /** Every retry wait the client asked for, in ms. */
  sleeps: number[];
}

const open: { http: HttpClient; sandbox: Sandbox }[] = [];

afterEach(async () => {
  for (const { http, sandbox } of open.splice(0)) {
    // The sandbox first: it ends anything still held or delayed.
    await sandbox.close();
    await http.close();
  }
});

async function setup(
  options: { sandbox?: SandboxOptions; http?: Partial<HttpClientOptions> } = {},
): Promise<Setup> {
  const clock = new ManualClock(START);
  const sandbox = await startSandbox({ clock, rateLimitPerMinute: 0, ...options.sandbox });
  sandbox.setPrice("btc", "40000");
  const sleeps: number[] = [];
  const http = new HttpClient({
    baseUrl: sandbox.url,
    retryBaseDelayMs: 1,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options.http,
  });
  open.push({ http, sandbox });
  const api = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
  const login = await api.login({
    email: sandbox.demo.email,
    password: sandbox.demo.password,
    securityCode: sandbox.currentCode(),
  });
  sandbox.requests.length = 0;
  return {
    sandbox,
    clock,
    http,
    api,
    session: api.session(login.access_token),
    token: login.access_token,
    sleeps,
  };
}

describe("server errors (5xx)", () => {
  it("a GET that meets 503 is retried and succeeds", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.failNext(2, 503, { method: "GET", path: "/v1/prices" });
    const prices = await session.prices();
    expect(prices.find((p) => p.currency_code === "btc")?.price.eq("40000")).toBe(true);
    expect(sandbox.countRequests("GET", "/v1/prices")).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it("a GET that keeps meeting 503 ends as kind 'server' after the retries", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.failNext(100, 503, { method: "GET", path: "/v1/balance" });
    const error = await failure(session.fiatBalance());
    expect(error.kind).toBe("server");
    expect(error.status).toBe(503);
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/v1/balance");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.body).toEqual({ message: "Service Unavailable" });
    // The first attempt and three retries (the default), with a wait before each retry.
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(4);
    // Equal-jitter backoff from a 1 ms base with random() = 0.5: ceilings 1, 2, 4 → waits 1, 2, 3.
    expect(sleeps).toEqual([1, 2, 3]);
    // The request id of the last attempt, as the sandbox echoed it.
    expect(error.requestId).toBe(sandbox.requests.at(-1)?.headers["x-request-id"]);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a POST that meets 503 is not retried", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.failNext(1, 503, { method: "POST", path: "/v1/buy" });
    const error = await failure(session.buy({ amount: new Big("100"), currencyCode: "btc" }));
    expect(error.kind).toBe("server");
    expect(sandbox.countRequests("POST", "/v1/buy")).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe("rate limiting (429)", () => {
  it("a GET that meets 429 with Retry-After waits that long and is tried again", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.rateLimitNext(1, 2, { method: "GET", path: "/v1/balance" });
    const { balance } = await session.fiatBalance();
    expect(balance.toFixed(2)).toBe("10000.00");
    expect(sleeps).toEqual([2_000]);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(2);
  });

  it("a Retry-After beyond the client's patience is handed to the caller as kind 'rate-limited'", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.rateLimitNext(1, 60, { method: "GET", path: "/v1/balance" });
    const error = await failure(session.fiatBalance());
    expect(error.kind).toBe("rate-limited");
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(60_000);
    expect(sleeps).toEqual([]);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(1);
  });

  it("the sandbox's own per-token limit answers 429 with the seconds left in its window", async () => {
    const { sandbox, session, sleeps } = await setup({ sandbox: { rateLimitPerMinute: 1 } });
    await session.fiatBalance();
    const error = await failure(session.fiatBalance());
    expect(error.kind).toBe("rate-limited");
    // The window opened at the first call on a clock that stands still: a whole minute is left.
    expect(error.retryAfterMs).toBe(60_000);
    expect(sleeps).toEqual([]);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(2);
  });
});

describe("network and timeouts", () => {
  it("a dropped POST (buy) is kind 'network', reached the sandbox exactly once, and is not retried", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.dropNext(1, { method: "POST", path: "/v1/buy" });
    const error = await failure(session.buy({ amount: new Big("100"), currencyCode: "btc" }));
    expect(error.kind).toBe("network");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.status).toBeUndefined();
    expect(sandbox.countRequests("POST", "/v1/buy")).toBe(1);
    expect(sleeps).toEqual([]);
    // The drop came before the order: nothing happened.
    expect(sandbox.state.transactionsOf(sandbox.seeded.demo)).toHaveLength(0);
  });

  it("a dropped GET is retried and succeeds", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.dropNext(1, { method: "GET", path: "/v1/balance" });
    const { balance } = await session.fiatBalance();
    expect(balance.toFixed(2)).toBe("10000.00");
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it("an answer slower than timeoutMs is kind 'timeout'", async () => {
    const { sandbox, token } = await setup();
    // A client of its own with a short deadline, so only the call under test can run out of time.
    const impatient = new HttpClient({ baseUrl: sandbox.url, timeoutMs: 200, retries: 0 });
    open.push({ http: impatient, sandbox });
    const session = new AccountApi(impatient, {
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    }).session(token);
    // Far above the deadline, so a slow machine cannot turn this into a pass or a flake.
    sandbox.faults.addLatency(5_000, { method: "GET", path: "/v1/balance" });
    const error = await failure(session.fiatBalance());
    expect(error.kind).toBe("timeout");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/v1/balance");
    expect(error.status).toBeUndefined();
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(1);
  });

  it("a timed-out GET is retried: the next attempt gets its answer", async () => {
    const { sandbox, token } = await setup();
    const sleeps: number[] = [];
    const impatient = new HttpClient({
      baseUrl: sandbox.url,
      timeoutMs: 200,
      retries: 1,
      retryBaseDelayMs: 1,
      // Between the attempts the exchange becomes fast again: only the first one is slow.
      sleep: async (ms) => {
        sleeps.push(ms);
        sandbox.faults.reset();
      },
    });
    open.push({ http: impatient, sandbox });
    const session = new AccountApi(impatient, {
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    }).session(token);
    sandbox.faults.addLatency(5_000, { method: "GET", path: "/v1/balance" });
    const { balance } = await session.fiatBalance();
    expect(balance.toFixed(2)).toBe("10000.00");
    expect(sleeps).toHaveLength(1);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(2);
  });
});

describe("refusals (4xx)", () => {
  it("expired tokens are kind 'unauthenticated' (401), not retried", async () => {
    const { sandbox, session, sleeps } = await setup();
    sandbox.faults.expireAllTokens();
    const error = await failure(session.fiatBalance());
    expect(error.kind).toBe("unauthenticated");
    expect(error.status).toBe(401);
    expect(sandbox.countRequests("GET", "/v1/balance")).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("a token past its hour is kind 'unauthenticated' too", async () => {
    const { clock, session } = await setup();
    clock.advance(3_600_000);
    expect((await failure(session.userInfo())).kind).toBe("unauthenticated");
  });

  it("a bad amount is kind 'validation' (422) with field errors", async () => {
    const { session } = await setup();
    const decimals = await failure(session.buy({ amount: new Big("10.001"), currencyCode: "btc" }));
    expect(decimals.kind).toBe("validation");
    expect(decimals.status).toBe(422);
    expect(decimals.fieldErrors).toEqual({ amount: ["The amount field must have 0-2 decimal places."] });
    expect(decimals.message).toContain("The amount field must have 0-2 decimal places.");

    const small = await failure(session.buy({ amount: new Big("5"), currencyCode: "btc" }));
    expect(small.fieldErrors).toEqual({ amount: ["The amount must be at least 10.00 EUR."] });

    const both = await failure(session.sell({ amount: new Big("0"), currencyCode: "doge" }));
    expect(Object.keys(both.fieldErrors).sort()).toEqual(["amount", "currency_code"]);
    expect(both.fieldErrors.currency_code).toEqual(["The selected currency code is invalid."]);
  });

  it("an unknown transaction is kind 'not-found' (404)", async () => {
    const { sandbox, session, sleeps } = await setup();
    const error = await failure(session.transaction(999_999));
    expect(error.kind).toBe("not-found");
    expect(error.status).toBe(404);
    expect(error.path).toBe("/v1/transactions/999999");
    expect(error.message).toContain("No query results");
    expect(sandbox.countRequests("GET", "/v1/transactions/999999")).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("a wrong password: the error, inspected or serialized, holds no password, client secret or code", async () => {
    const { sandbox, api } = await setup();
    const password = "wrong-password-xyz";
    const code = sandbox.currentCode();
    const error = await failure(api.login({ email: sandbox.demo.email, password, securityCode: code }));
    expect(error.kind).toBe("validation");
    expect(error.fieldErrors.email).toEqual(["These credentials do not match our records."]);
    // They did go out: the check below is about the error, not about a request that never carried them.
    expect(sandbox.requests[0]?.rawBody).toContain(password);

    const texts = [inspect(error, { depth: 10 }), JSON.stringify(error), String(error), error.stack ?? ""];
    for (const text of texts) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(sandbox.demo.password);
      expect(text).not.toContain(sandbox.clientSecret);
      expect(text).not.toContain(code);
    }
  });

  it("a wrong code and a wrong client secret: no secret in the error either", async () => {
    const { sandbox, http } = await setup();
    const wrongCode = sandbox.currentCode() === "123456" ? "654321" : "123456";
    const api = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
    const badCode = await failure(
      api.login({ email: sandbox.demo.email, password: sandbox.demo.password, securityCode: wrongCode }),
    );
    expect(badCode.fieldErrors.security_code).toEqual(["The security code is invalid."]);

    const otherSecret = "another-client-secret-123";
    const badClient = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: otherSecret });
    const invalidClient = await failure(
      badClient.login({
        email: sandbox.demo.email,
        password: sandbox.demo.password,
        securityCode: wrongCode,
      }),
    );
    expect(invalidClient.kind).toBe("unauthenticated");

    for (const error of [badCode, invalidClient]) {
      for (const text of [inspect(error, { depth: 10 }), JSON.stringify(error)]) {
        expect(text).not.toContain(sandbox.demo.password);
        expect(text).not.toContain(sandbox.clientSecret);
        expect(text).not.toContain(otherSecret);
        expect(text).not.toContain(wrongCode);
      }
    }
  });
});
