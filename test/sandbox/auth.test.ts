import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { totpCodeAt } from "../../src/sandbox/totp.ts";
import { call, failure, type Harness, harness } from "./helpers.ts";

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

function codeFromStepsAgo(steps: number): string {
  return totpCodeAt(h.sandbox.demo.totpSecret, h.clock.now() - steps * 30_000);
}

describe("login", () => {
  it("gives a bearer token for good credentials and a current code", async () => {
    const { sandbox, api } = h;
    const session = await api.login({ ...sandbox.demo, securityCode: sandbox.currentCode() });
    expect(session.access_token.length).toBeGreaterThan(20);
    expect(session.expires_in).toBe(3600);
    const info = await api.session(session.access_token).userInfo();
    expect(info.email).toBe(sandbox.demo.email);
    expect(info.account_type).toBe("personal");
    expect(info.street_address).toBe("Sandstraße 12");
  });

  it("refuses a wrong password with a Laravel 422 on email", async () => {
    const error = await failure(
      h.api.login({ email: h.sandbox.demo.email, password: "wrong", securityCode: h.sandbox.currentCode() }),
    );
    expect(error.status).toBe(422);
    expect(error.fieldErrors.email).toEqual(["These credentials do not match our records."]);
  });

  it("refuses a wrong code with a 422 on security_code", async () => {
    const right = h.sandbox.currentCode();
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    const error = await failure(h.api.login({ ...h.sandbox.demo, securityCode: wrong }));
    expect(error.status).toBe(422);
    expect(error.fieldErrors.security_code?.[0]).toMatch(/invalid/);
  });

  it("accepts the code of the previous 30 s step, refuses the one before", async () => {
    await expect(h.api.login({ ...h.sandbox.demo, securityCode: codeFromStepsAgo(1) })).resolves.toBeTruthy();
    const error = await failure(h.api.login({ ...h.sandbox.demo, securityCode: codeFromStepsAgo(2) }));
    expect(error.fieldErrors.security_code).toBeDefined();
  });

  it("follows the sandbox clock, not the wall clock", async () => {
    const before = h.sandbox.currentCode();
    h.clock.advance(5 * 60_000);
    const error = await failure(h.api.login({ ...h.sandbox.demo, securityCode: before }));
    expect(error.status).toBe(422);
    await expect(
      h.api.login({ ...h.sandbox.demo, securityCode: h.sandbox.currentCode() }),
    ).resolves.toBeTruthy();
  });

  it("accepts client_id as a numeric string and a code sent as a number (padded to six digits)", async () => {
    const code = h.sandbox.currentCode();
    const reply = await call(h.sandbox, "POST", "/v1/auth/login", {
      body: {
        ...h.sandbox.demo,
        security_code: Number(code),
        client_id: "1",
        client_secret: "sandbox-secret",
      },
    });
    expect(reply.status).toBe(200);
  });

  it("names every missing field", async () => {
    const reply = await call(h.sandbox, "POST", "/v1/auth/login", { body: {} });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors).sort()).toEqual(
      ["client_id", "client_secret", "email", "password", "security_code"].sort(),
    );
    expect(reply.body.message).toBe("The email field is required. (and 4 more errors)");
  });

  it("refuses a wrong client secret with 401", async () => {
    const reply = await call(h.sandbox, "POST", "/v1/auth/login", {
      body: {
        ...h.sandbox.demo,
        security_code: h.sandbox.currentCode(),
        client_id: 1,
        client_secret: "nope",
      },
    });
    expect(reply.status).toBe(401);
  });

  it("refuses an account without 2FA", async () => {
    const reply = await call(h.sandbox, "POST", "/v1/auth/login", {
      body: {
        email: "no2fa@sandbox.test",
        password: "no2fa-password-1",
        security_code: "123456",
        client_id: 1,
        client_secret: "sandbox-secret",
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.security_code[0]).toMatch(/Two-factor/);
  });
});

describe("tokens", () => {
  it("expire after 3600 s of sandbox time", async () => {
    const session = await h.login();
    h.clock.advance(3599_000);
    await expect(session.fiatBalance()).resolves.toBeTruthy();
    h.clock.advance(1_000);
    const error = await failure(session.fiatBalance());
    expect(error.status).toBe(401);
    expect(error.kind).toBe("unauthenticated");
    expect(error.body).toEqual({ message: "Unauthenticated." });
  });

  it("are destroyed by logout (200 with status destroyed)", async () => {
    const { access_token } = await h.api.login({ ...h.sandbox.demo, securityCode: h.sandbox.currentCode() });
    const reply = await call(h.sandbox, "POST", "/v1/auth/logout", { token: access_token });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "destroyed" });
    const after = await call(h.sandbox, "GET", "/v1/balance", { token: access_token });
    expect(after.status).toBe(401);
  });

  it("are required: none or an unknown one gives 401", async () => {
    expect((await call(h.sandbox, "GET", "/v1/balance")).status).toBe(401);
    expect((await call(h.sandbox, "GET", "/v1/balance", { token: "made-up" })).status).toBe(401);
  });

  it("each belong to their account", async () => {
    const demo = await h.login();
    const business = await h.login("business@sandbox.test", "business-password-1");
    expect((await demo.userInfo()).account_type).toBe("personal");
    const info = await business.userInfo();
    expect(info.account_type).toBe("business");
    expect(info.company_name).toBe("Hopper Trading GmbH");
  });
});
