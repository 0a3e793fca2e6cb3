/**
 * The market feed against the sandbox on real HTTP: one upstream request however many read at
 * once, a TTL on the injected clock, a borrowed token or the market-data account, stale data with
 * its age when the exchange is down, and a clear error when there is no source at all.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AccountApi } from "../../src/exchange/account.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { createMarketFeed } from "../../src/market/create.ts";
import { MarketUnavailableError } from "../../src/market/errors.ts";
import type { CachedMarketFeed } from "../../src/market/feed.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { Sessions } from "../../src/session/sessions.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { Vault } from "../../src/store/vault.ts";
import { ManualClock } from "../../src/support/clock.ts";

/** 10 s into a 30 s TOTP step. */
const START = Date.parse("2026-03-10T12:00:10Z");
const TTL = 10_000;

let clock: ManualClock;
let sandbox: Sandbox;
let http: HttpClient;
let account: AccountApi;
let store: Store;
let sessions: Sessions;

beforeEach(async () => {
  clock = new ManualClock(START);
  sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
  // No retries: a failure is seen at once, no backoff sleeps.
  http = new HttpClient({ baseUrl: sandbox.url, retries: 0, timeoutMs: 5_000 });
  account = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
  store = await openStore("memory://");
  sessions = new Sessions({ store, vault: Vault.fromBase64(Vault.generateKey()), account, clock });
});

afterEach(async () => {
  await http.close();
  await store.close();
  await sandbox.close();
});

const prices = () => sandbox.countRequests("GET", "/v1/prices");
const logins = () => sandbox.countRequests("POST", "/v1/auth/login");
const marketData = () => ({ ...sandbox.demo });

function feed(options: { withAccount?: boolean } = {}): CachedMarketFeed {
  return createMarketFeed({
    account,
    sessions,
    clock,
    ttlMs: TTL,
    ...(options.withAccount ? { marketData: marketData() } : {}),
  });
}

async function logInUser(userId: number): Promise<void> {
  const outcome = await sessions.login(userId, { ...sandbox.demo, securityCode: sandbox.currentCode() });
  expect(outcome.ok).toBe(true);
}

describe("coalescing", () => {
  it("200 parallel readers make ONE GET /v1/prices; after the TTL, one more", async () => {
    const market = feed({ withAccount: true });
    const snapshots = await Promise.all(Array.from({ length: 200 }, () => market.snapshot()));
    expect(prices()).toBe(1);
    expect(logins()).toBe(1);
    expect(new Set(snapshots).size).toBe(1);
    const first = snapshots[0];
    expect(first?.stale).toBe(false);
    expect(first?.fetchedAt).toBe(START);
    expect(first?.prices.map((p) => p.currency)).toEqual(sandbox.market.currencies().map((c) => c.code));
    expect(first?.prices[0]).toEqual({
      currency: "btc",
      name: "Bitcoin",
      price: sandbox.market.price("btc", START).toFixed(),
      change24h: sandbox.market.change24h("btc", START).toFixed(),
    });

    clock.advance(TTL - 1);
    await Promise.all(Array.from({ length: 50 }, () => market.snapshot()));
    expect(prices()).toBe(1);

    clock.advance(1);
    const later = await Promise.all(Array.from({ length: 200 }, () => market.snapshot()));
    expect(prices()).toBe(2);
    expect(later[0]?.fetchedAt).toBe(START + TTL);
    // The market-data token is still good: no second login.
    expect(logins()).toBe(1);
  });

  it("readers arriving while the request runs share it too", async () => {
    const market = feed({ withAccount: true });
    sandbox.faults.addLatency(100, { method: "GET", path: "/v1/prices" });
    const early = market.snapshot();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = Array.from({ length: 100 }, () => market.snapshot());
    const all = await Promise.all([early, ...late]);
    expect(new Set(all).size).toBe(1);
    expect(prices()).toBe(1);
  });
});

describe("where the token comes from", () => {
  it("prefers the operator's market-data account over borrowing a user's token", async () => {
    await logInUser(7);
    const before = logins();
    await feed({ withAccount: true }).snapshot();
    // Its own login: the user's token (and the user's rate limit at the exchange) is left alone.
    expect(logins()).toBe(before + 1);
    expect((await sessions.status(7)).state).toBe("active");
  });

  it("without a market-data account, borrows a logged-in user's token: no login of its own", async () => {
    await logInUser(7);
    const before = logins();
    const market = feed({ withAccount: false });
    const snapshot = await market.snapshot();
    expect(snapshot.prices.length).toBeGreaterThan(3);
    expect(logins()).toBe(before);
    expect(prices()).toBe(1);
    // The lender's session is untouched.
    expect((await sessions.status(7)).state).toBe("active");
  });

  it("a borrowed token the exchange refuses marks that session expired (no source left)", async () => {
    await logInUser(7);
    sandbox.faults.expireAllTokens();
    const before = logins();
    await expect(feed({ withAccount: false }).snapshot()).rejects.toThrow();
    expect((await sessions.status(7)).state).toBe("expired");
    expect(logins()).toBe(before);
  });

  it("the market-data account logs in with its TOTP code, keeps the token until near expiry, re-logs in on 401", async () => {
    const market = feed({ withAccount: true });
    await market.snapshot();
    expect(logins()).toBe(1);
    const login = sandbox.requests.find((r) => r.path === "/v1/auth/login");
    expect((login?.body as { email?: string } | undefined)?.email).toBe(sandbox.demo.email);

    clock.advance(30 * 60_000);
    await market.snapshot();
    expect(logins()).toBe(1);

    // Within a minute of the 60-minute expiry: a fresh login (new TOTP code) before it runs out.
    clock.advance(29 * 60_000 + 1);
    await market.snapshot();
    expect(logins()).toBe(2);

    clock.advance(TTL);
    sandbox.faults.expireAllTokens();
    const snapshot = await market.snapshot();
    expect(snapshot.stale).toBe(false);
    expect(logins()).toBe(3);
    expect(prices()).toBe(5); // 3 good reads + the refused one + its retry
  });

  it("nobody logged in and no market-data account: a clear 'no source' error, no request", async () => {
    const error = await feed()
      .snapshot()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketUnavailableError);
    expect((error as MarketUnavailableError).reason).toBe("no-source");
    expect(sandbox.requests).toHaveLength(0);
  });

  it("as soon as someone logs in, the feed has a source again", async () => {
    const market = feed();
    await expect(market.snapshot()).rejects.toThrow(MarketUnavailableError);
    await logInUser(8);
    clock.advance(1_000);
    expect((await market.snapshot()).stale).toBe(false);
  });
});

describe("when the exchange is down", () => {
  it("serves the last good data, marked stale with its original time, and asks again after a while", async () => {
    const market = feed({ withAccount: true });
    const good = await market.snapshot();

    clock.advance(5 * 60_000);
    sandbox.faults.failNext(1_000, 503, { method: "GET", path: "/v1/prices" });
    const stale = await market.snapshot();
    expect(stale.stale).toBe(true);
    expect(stale.fetchedAt).toBe(good.fetchedAt);
    expect(stale.prices).toEqual(good.prices);
    const asked = prices();

    // Readers in the next seconds get the stale data (the same object) without another request.
    const again = await Promise.all(Array.from({ length: 50 }, () => market.snapshot()));
    expect(new Set([stale, ...again]).size).toBe(1);
    clock.advance(TTL - 1);
    await market.snapshot();
    expect(prices()).toBe(asked);

    clock.advance(1);
    sandbox.faults.reset();
    sandbox.setPrice("btc", "12345");
    const fresh = await market.snapshot();
    expect(fresh.stale).toBe(false);
    expect(fresh.fetchedAt).toBe(clock.now());
    expect(fresh.prices.find((p) => p.currency === "btc")?.price).toBe("12345");
  });

  it("with nothing fetched before, says the exchange is unavailable (never invents prices)", async () => {
    sandbox.faults.failNext(1_000, 500, { method: "GET", path: "/v1/prices" });
    const error = await feed({ withAccount: true })
      .snapshot()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketUnavailableError);
    expect((error as MarketUnavailableError).reason).toBe("exchange");
  });

  it("a dropped connection counts as down too", async () => {
    const market = feed({ withAccount: true });
    await market.snapshot();
    clock.advance(TTL);
    sandbox.faults.dropNext(1, { method: "GET", path: "/v1/prices" });
    expect((await market.snapshot()).stale).toBe(true);
  });
});
