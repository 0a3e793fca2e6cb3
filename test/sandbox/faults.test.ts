import Big from "big.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountApi } from "../../src/exchange/account.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { call, failure, type Harness, harness, loginToken } from "./helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = await harness({ rateLimitPerMinute: 0 });
});
afterEach(async () => {
  await h.close();
});

const eur = () => h.sandbox.state.balance(h.sandbox.seeded.demo, "eur").toFixed(2);

describe("fault switches", () => {
  it("latency delays only the matching path", async () => {
    const token = await loginToken(h.sandbox);
    h.sandbox.faults.addLatency(300, { path: "/v1/prices" });
    const finished: string[] = [];
    const started = performance.now();
    const slow = call(h.sandbox, "GET", "/v1/prices", { token }).then((r) => {
      finished.push("prices");
      return { status: r.status, ms: performance.now() - started };
    });
    const fast = call(h.sandbox, "GET", "/v1/balance", { token }).then((r) => {
      finished.push("balance");
      return r.status;
    });
    expect(await fast).toBe(200);
    const { status, ms } = await slow;
    expect(status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(finished).toEqual(["balance", "prices"]);
  });

  it("fails the next N matching requests with the given 5xx, then recovers", async () => {
    const token = await loginToken(h.sandbox);
    h.sandbox.faults.failNext(2, 503, { method: "GET", path: "/v1/prices" });
    const balance = await call(h.sandbox, "GET", "/v1/balance", { token });
    expect(balance.status).toBe(200);
    const first = await call(h.sandbox, "GET", "/v1/prices", { token });
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ message: "Service Unavailable" });
    expect((await call(h.sandbox, "GET", "/v1/prices", { token })).status).toBe(503);
    expect((await call(h.sandbox, "GET", "/v1/prices", { token })).status).toBe(200);
    expect(h.sandbox.countRequests("GET", "/v1/prices")).toBe(3);
  });

  it("a failing GET is retried by the real client and succeeds", async () => {
    const http = new HttpClient({ baseUrl: h.sandbox.url, retries: 2, sleep: async () => {} });
    const api = new AccountApi(http, { clientId: 1, clientSecret: "sandbox-secret" });
    const token = await loginToken(h.sandbox);
    h.sandbox.faults.failNext(2, 500, { path: "/v1/balance" });
    const { balance } = await api.session(token).fiatBalance();
    expect(balance.toFixed(2)).toBe("10000.00");
    expect(h.sandbox.countRequests("GET", "/v1/balance")).toBe(3);
    await http.close();
  });

  it("answers the next N with 429 and Retry-After", async () => {
    const session = await h.login();
    h.sandbox.faults.rateLimitNext(1, 7, { path: "/v1/balance" });
    const error = await failure(session.fiatBalance());
    expect(error.status).toBe(429);
    expect(error.kind).toBe("rate-limited");
    expect(error.retryAfterMs).toBe(7_000);
    await expect(session.fiatBalance()).resolves.toBeTruthy();
  });

  it("drops the connection without an answer", async () => {
    const session = await h.login();
    h.sandbox.faults.dropNext(1, { method: "POST", path: "/v1/buy" });
    const error = await failure(session.buy({ amount: new Big("50"), currencyCode: "btc" }));
    expect(error.kind).toBe("network");
    expect(eur()).toBe("10000.00");
    await session.buy({ amount: new Big("50"), currencyCode: "btc" });
    expect(eur()).toBe("9949.25");
  });

  it("holds a POST unapplied until released; released, it is carried out and answered", async () => {
    const token = await loginToken(h.sandbox);
    h.sandbox.faults.hold({ method: "POST", path: "/v1/buy" });
    const pending = call(h.sandbox, "POST", "/v1/buy", {
      token,
      body: { amount: "100", currency_code: "btc" },
    });
    await vi.waitFor(() => expect(h.sandbox.faults.held).toHaveLength(1));
    expect(eur()).toBe("10000.00");
    expect(h.sandbox.state.transactionsOf(h.sandbox.seeded.demo)).toHaveLength(0);
    // GETs are not held.
    expect((await call(h.sandbox, "GET", "/v1/balance", { token })).status).toBe(200);
    expect(h.sandbox.faults.release()).toBe(1);
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(eur()).toBe("9898.50");
  });

  it("holds a POST after applying it: the order exists, the answer never comes", async () => {
    const session = await h.login();
    h.sandbox.faults.hold({ method: "POST", path: "/v1/buy", apply: true });
    const pending = failure(session.buy({ amount: new Big("100"), currencyCode: "btc" }));
    await vi.waitFor(() => expect(h.sandbox.faults.held).toHaveLength(1));
    expect(eur()).toBe("9898.50");
    const [tx] = h.sandbox.state.transactionsOf(h.sandbox.seeded.demo);
    expect(tx?.state).toBe("opened");
    h.sandbox.faults.release({ answer: false });
    expect((await pending).kind).toBe("network");
    // The order really happened: the client finds it when it reconciles.
    expect((await session.transactions()).map((t) => t.id)).toEqual([tx?.id]);
  });

  it("expires every current token; a new login works", async () => {
    const session = await h.login();
    h.sandbox.faults.expireAllTokens();
    expect((await failure(session.fiatBalance())).status).toBe(401);
    const fresh = await h.login();
    await expect(fresh.fiatBalance()).resolves.toBeTruthy();
  });

  it("resets everything", async () => {
    const token = await loginToken(h.sandbox);
    h.sandbox.faults.failNext(5, 500);
    h.sandbox.faults.closeAsset("sell", "eth");
    h.sandbox.faults.settleOrdersAs("error");
    h.sandbox.faults.reset();
    expect((await call(h.sandbox, "GET", "/v1/balance", { token })).status).toBe(200);
    expect(h.sandbox.state.isAssetOpen("sell", "eth")).toBe(true);
    expect(h.sandbox.state.orderOutcome).toBe("success");
  });
});

describe("rate limit", () => {
  it("allows N requests per token per sandbox minute, then 429 with Retry-After", async () => {
    const limited = await harness({ rateLimitPerMinute: 3 });
    try {
      const token = await loginToken(limited.sandbox);
      const other = await loginToken(limited.sandbox, "business@sandbox.test");
      for (let i = 0; i < 3; i++) {
        const ok = await call(limited.sandbox, "GET", "/v1/balance", { token });
        expect(ok.status).toBe(200);
        expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
      }
      limited.clock.advance(20_000);
      const refused = await call(limited.sandbox, "GET", "/v1/balance", { token });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: "Too Many Attempts." });
      expect(refused.headers.get("retry-after")).toBe("40");
      // Another token has its own allowance.
      expect((await call(limited.sandbox, "GET", "/v1/balance", { token: other })).status).toBe(200);
      limited.clock.advance(40_000);
      expect((await call(limited.sandbox, "GET", "/v1/balance", { token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("control routes over HTTP", () => {
  it("give a code, move the clock and prices, and switch faults", async () => {
    const { sandbox } = h;
    const code = await call(sandbox, "GET", "/_sandbox/code");
    expect(code.body.code).toBe(sandbox.currentCode());
    const login = await call(sandbox, "POST", "/v1/auth/login", {
      body: { ...sandbox.demo, security_code: code.body.code, client_id: 1, client_secret: "sandbox-secret" },
    });
    const token = login.body.access_token as string;

    const before = h.clock.now();
    const advanced = await call(sandbox, "POST", "/_sandbox/clock/advance", { body: { ms: 90_000 } });
    expect(advanced.body.now).toBe(before + 90_000);
    expect(h.clock.now()).toBe(before + 90_000);

    await call(sandbox, "POST", "/_sandbox/prices", { body: { currency: "btc", price: "12345.67" } });
    const rate = await call(sandbox, "GET", "/v1/exchange-rates?pair=btceur", { token });
    expect(rate.body.price).toBe(12345.67);

    const set = await call(sandbox, "POST", "/_sandbox/faults", {
      body: {
        fail: { count: 1, status: 502, path: "/v1/balance" },
        closeAsset: { type: "buy", currency: "ltc" },
      },
    });
    expect(set.status).toBe(200);
    expect((await call(sandbox, "GET", "/v1/balance", { token })).status).toBe(502);
    expect((await call(sandbox, "GET", "/v1/assets-status/buy?currency_code=ltc")).body).toEqual({
      state: false,
    });

    await call(sandbox, "POST", "/_sandbox/faults", { body: { settleAs: "error", expireTokens: true } });
    expect((await call(sandbox, "GET", "/v1/balance", { token })).status).toBe(401);
    expect(sandbox.state.orderOutcome).toBe("error");

    await call(sandbox, "POST", "/_sandbox/faults/reset");
    expect(sandbox.state.orderOutcome).toBe("success");
    expect(sandbox.requests.some((r) => r.path.startsWith("/_sandbox"))).toBe(false);

    const bad = await call(sandbox, "POST", "/_sandbox/faults", { body: { fail: { status: 404 } } });
    expect(bad.status).toBe(422);
  });

  it("hold and release over HTTP", async () => {
    const token = await loginToken(h.sandbox);
    await call(h.sandbox, "POST", "/_sandbox/faults", { body: { hold: { path: "/v1/sell", apply: true } } });
    const pending = call(h.sandbox, "POST", "/v1/sell", {
      token,
      body: { amount: "0.01", currency_code: "btc" },
    });
    await vi.waitFor(() => expect(h.sandbox.faults.held).toHaveLength(1));
    const released = await call(h.sandbox, "POST", "/_sandbox/faults/release", { body: {} });
    expect(released.body).toEqual({ released: 1 });
    expect((await pending).status).toBe(200);
  });

  it("simulate deposits", async () => {
    const reply = await call(h.sandbox, "POST", "/_sandbox/deposits", {
      body: { email: "demo@sandbox.test", amount: "250.5" },
    });
    expect(reply.status).toBe(200);
    expect(eur()).toBe("10250.50");
  });
});

describe("records", () => {
  it("keeps every request with method, path, query, lower-case headers and bodies", async () => {
    const token = await loginToken(h.sandbox);
    await call(h.sandbox, "GET", "/v1/crypto-balances?currency_code=btc", {
      token,
      headers: { "X-Trace": "t1" },
    });
    const last = h.sandbox.requests.at(-1);
    expect(last).toMatchObject({
      method: "GET",
      path: "/v1/crypto-balances",
      query: { currency_code: "btc" },
    });
    expect(last?.headers["x-trace"]).toBe("t1");
    const login = h.sandbox.requests.find((r) => r.path === "/v1/auth/login");
    expect(login?.body).toMatchObject({ email: "demo@sandbox.test" });
    expect(login?.rawBody).toContain('"email"');
    expect(h.sandbox.countRequests("post", "/v1/auth/login")).toBe(1);
    expect(h.sandbox.countRequests("GET", "/v1/*")).toBe(1);
  });
});
