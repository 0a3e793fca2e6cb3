/**
 * The login record at rest (SECURITY.md, "What is sealed at rest"): its e-mail sealed, and an end —
 * a day after its token, or, while a remembered password needs its e-mail, none until that
 * password goes. A record of the older version (its e-mail in plain text) is still read, and
 * written in the current form at its next write. The bot's own services over a real SQLite file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ENDED_SESSION_KEPT_MS } from "../../src/session/sessions.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const HOUR = 60 * 60_000;

describe("the login record at rest", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => h.stop());
  const sessions = () => h.deps.sessions;
  const store = () => h.deps.store;
  const vault = () => h.deps.vault;

  const logIn = (userId: number, rememberPassword = false) =>
    sessions().login(
      userId,
      { ...h.sandbox.demo, securityCode: h.sandbox.currentCode() },
      { rememberPassword },
    );

  /** Lets store time pass (its TTLs count real time), with the injected clock kept as it is. */
  function storeTimePasses(ms: number): void {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  }

  it("seals the e-mail, and ends a day after the token when no password is remembered", async () => {
    expect(await logIn(1)).toMatchObject({ ok: true });
    const raw = await store().get<Record<string, unknown>>("auth:1");
    expect(raw).not.toHaveProperty("email");
    expect(JSON.stringify(raw)).not.toContain(h.sandbox.demo.email);
    expect(vault().decrypt(String(raw?.sealedEmail))).toBe(h.sandbox.demo.email);
    expect(await sessions().status(1)).toMatchObject({ state: "active", email: h.sandbox.demo.email });

    // The injected clock past the token: expired, the e-mail still offered; a day later, gone.
    h.clock.advance(HOUR + 1);
    expect(await sessions().status(1)).toMatchObject({ state: "expired", email: h.sandbox.demo.email });
    h.clock.advance(ENDED_SESSION_KEPT_MS);
    expect(await sessions().status(1)).toEqual({ state: "logged-out" });
    // And the store lets it go by itself at the same time (its TTL).
    storeTimePasses(HOUR + ENDED_SESSION_KEPT_MS - 60_000);
    expect(await store().get("auth:1")).toBeDefined();
    storeTimePasses(HOUR + ENDED_SESSION_KEPT_MS + 60_000);
    expect(await store().get("auth:1")).toBeUndefined();
  });

  it("lives as long as a remembered password, and ends with its token again once that is forgotten", async () => {
    expect(await logIn(2, true)).toMatchObject({ ok: true });
    h.clock.advance(3 * ENDED_SESSION_KEPT_MS);
    storeTimePasses(3 * ENDED_SESSION_KEPT_MS);
    expect(await sessions().status(2)).toMatchObject({ state: "expired", email: h.sandbox.demo.email });
    expect(await sessions().quickLogin(2, h.sandbox.currentCode())).toMatchObject({ ok: true });
    // A quick login keeps the record kept: the password is still remembered.
    storeTimePasses(6 * ENDED_SESSION_KEPT_MS);
    expect(await sessions().hasRememberedPassword(2)).toBe(true);
    await sessions().forgetPassword(2);
    storeTimePasses(6 * ENDED_SESSION_KEPT_MS + HOUR + ENDED_SESSION_KEPT_MS + 60_000);
    expect(await store().get("auth:2")).toBeUndefined();
  });

  it("reads a record of the older version (plain e-mail) and seals it at its next write", async () => {
    expect(await logIn(3)).toMatchObject({ ok: true });
    const current = await store().get<{ sealedToken: string; issuedAt: number; expiresAt: number }>("auth:3");
    const { sealedToken, issuedAt, expiresAt } = current ?? { sealedToken: "", issuedAt: 0, expiresAt: 0 };
    const legacy = {
      email: "Legacy@Example.com",
      sealedToken,
      issuedAt,
      expiresAt,
      lastActivityAt: issuedAt,
    };
    await store().set("auth:3", legacy);
    // It had a remembered password too: the upgraded record must not end before that.
    await store().set("remembered-password:3", vault().encrypt(h.sandbox.demo.password));
    expect(await sessions().status(3)).toMatchObject({ state: "active", email: "Legacy@Example.com" });
    h.clock.advance(20_000);
    await sessions().touch(3);
    const written = await store().get<Record<string, unknown>>("auth:3");
    expect(written).not.toHaveProperty("email");
    expect(written).toMatchObject({ keep: true, lastActivityAt: h.clock.now() });
    expect(vault().decrypt(String(written?.sealedEmail))).toBe("Legacy@Example.com");
    storeTimePasses(10 * ENDED_SESSION_KEPT_MS);
    expect(await sessions().status(3)).toMatchObject({ email: "Legacy@Example.com" });
  });
});
