/**
 * The partner's service account on a real Redis shared by two bot instances: one login serves both,
 * the token is sealed in the store, renewed before its 60 minutes run out (injected clock) by one
 * instance under a login lease in the store, and never per user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotDeps } from "../../src/bot/deps.ts";
import { PARTNER_LOGIN_LEASE_KEY } from "../../src/partner/auth.ts";
import { type Harness, secondInstance, startHarness } from "../support/harness.ts";
import {
  type RedisServer,
  rawRedisDump,
  redisAvailable,
  redisUnavailableReason,
  startRedis,
} from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("partner service account on Redis, two instances", () => {
  let redis: RedisServer;
  let h: Harness;
  let other: { deps: BotDeps; close(): Promise<void> };

  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({ storeUrl: redis.url, mode: "partner", partner: { auth: "service-account" } });
    other = await secondInstance(h);
  });
  afterAll(async () => {
    await other?.close();
    await h?.stop();
    await redis?.stop();
  });

  const logins = () => h.sandbox.countRequests("POST", "/v1/auth/login");
  const partnerOf = (deps: BotDeps) => {
    if (!deps.partner) throw new Error("not in partner mode");
    return deps.partner;
  };
  const bearers = () =>
    new Set(
      h.sandbox.requests
        .filter((r) => r.path.startsWith("/api/v1/partners"))
        .map((r) => r.headers.authorization),
    );

  it("logs in once for both instances, however many calls run at once", async () => {
    const a = partnerOf(h.deps);
    const b = partnerOf(other.deps);
    await Promise.all([a.api.pairs(), a.api.pairs(), b.api.pairs(), b.api.currencies(), a.api.currencies()]);
    expect(logins()).toBe(1);
    const login = h.sandbox.requests.find((r) => r.path === "/v1/auth/login");
    expect(login?.body).toMatchObject({
      email: "partner-service@sandbox.test",
      client_id: h.sandbox.clientId,
    });
    expect(bearers().size).toBe(1);

    // The token is in the store, sealed: Redis holds its key, not the token.
    const raw = await rawRedisDump(redis.url);
    expect(raw).toContain("partner-auth:token");
    for (const token of h.sandbox.state.tokens.keys()) expect(raw).not.toContain(token);
  });

  it("renews before the 60 minutes run out, once, and both instances use the new token", async () => {
    h.clock.advance(50 * 60_000);
    await partnerOf(other.deps).api.pairs();
    expect(logins()).toBe(1);

    // Inside the last five minutes: one instance logs in again, the other follows.
    h.clock.advance(6 * 60_000);
    await Promise.all([partnerOf(h.deps).api.pairs(), partnerOf(other.deps).api.pairs()]);
    expect(logins()).toBe(2);
    const before = h.sandbox.requests.length;
    // Past the first token's end: calls still work, with no further login.
    h.clock.advance(5 * 60_000);
    await partnerOf(h.deps).api.pairs();
    await partnerOf(other.deps).api.pairs();
    expect(logins()).toBe(2);
    const latest = new Set(h.sandbox.requests.slice(before).map((r) => r.headers.authorization));
    expect(latest.size).toBe(1);
  });

  it("while another instance holds the login lease, keeps using the still-valid token", async () => {
    h.clock.advance(50 * 60_000); // the second token is now in its last five minutes
    await h.deps.store.set(PARTNER_LOGIN_LEASE_KEY, "another-instance", 60_000);
    await partnerOf(h.deps).api.pairs();
    expect(logins()).toBe(2);
    await h.deps.store.delete(PARTNER_LOGIN_LEASE_KEY);
    await partnerOf(h.deps).api.pairs();
    expect(logins()).toBe(3);
  });

  it("a token the exchange revoked before its hour: one new login, and the call goes through", async () => {
    h.sandbox.faults.expireAllTokens();
    const pairs = await partnerOf(other.deps).api.pairs();
    expect(pairs).toBeDefined();
    expect(logins()).toBe(4);
    // The other instance finds the new token in the store: no login of its own.
    await partnerOf(h.deps).api.pairs();
    expect(logins()).toBe(4);
  });

  it("serves users through the bot with the service account's token", async () => {
    const pat = await h.partnerUser();
    await pat.send("/verify");
    expect((await pat.waitForReply()).text).toContain("Your identity is verified");
    expect(logins()).toBe(4);
  });
});
