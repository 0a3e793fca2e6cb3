/**
 * Rule 2 and rule 9 at rest: after a login with "remember password" on, and in the middle of a
 * login (password typed, code not yet), the raw store holds no password, token or 2FA code in
 * plain text: the SQLite file bytes, and every key and value in Redis (read by type). After
 * /logout it holds nothing of the session at all, sealed or not, not even in free pages or the WAL.
 *
 * Personal data likewise (SECURITY.md, "What is sealed at rest"): while a user is logged in, and
 * after a partner sign-up, no e-mail, name or phone number is in the raw store, nor a plain hash of
 * the e-mail (anyone could test a guessed address against that).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, type HarnessOptions, logInUpToCode, startHarness } from "../support/harness.ts";
import {
  type RedisServer,
  rawRedisDump,
  redisAvailable,
  redisUnavailableReason,
  startRedis,
} from "../support/redis.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

type RawDump = () => Promise<string>;

function sqliteDump(h: Harness): RawDump {
  const path = h.storeUrl.slice("sqlite://".length);
  return async () =>
    [path, `${path}-wal`, `${path}-shm`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString("latin1"))
      .join("\n");
}

function redisDump(url: string): RawDump {
  return () => rawRedisDump(url);
}

type Open = (options: HarnessOptions) => Promise<{ h: Harness; dump: RawDump; close(): Promise<void> }>;

/** Every form of `text` that must not be found: as written, lower-case, and its plain (unkeyed) hashes. */
function forms(text: string): string[] {
  const normal = text.trim().toLowerCase();
  const sha = createHash("sha256").update(normal);
  const digest = sha.digest();
  return [text, normal, digest.toString("hex").slice(0, 32), digest.toString("base64url")];
}

function expectNone(raw: string, texts: string[]): void {
  for (const text of texts.flatMap(forms)) expect(raw, text).not.toContain(text);
}

function secretsSuite(name: string, open: Open) {
  describe(`secrets at rest (${name})`, () => {
    let h: Harness;
    let dump: RawDump;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ h, dump, close } = await open({}));
    });
    afterAll(async () => {
      await close();
    });

    function tokensIssued(): string[] {
      return [...h.sandbox.state.tokens.keys()];
    }

    it("keeps no password, token or code in plain text, during and after a remembered login", async () => {
      const ada = h.user();
      await h.deps.profiles.update(ada.id, (profile) => ({ ...profile, rememberPassword: true }));
      await logInUpToCode(ada, h.sandbox);
      // Mid-flow: the conversation holds the typed password in its (encrypted) state.
      let raw = await dump();
      expect(raw.length).toBeGreaterThan(0);
      expect(raw).not.toContain(h.sandbox.demo.password);
      const code = h.sandbox.currentCode();
      await ada.send(code);
      await ada.waitForReply(/Logged in/);
      expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(true);

      raw = await dump();
      expect(raw).toContain(`auth:${ada.id}`);
      // Logged in: the login record names nobody (its e-mail is sealed; the limits' keys are keyed).
      expectNone(raw, [h.sandbox.demo.email]);
      expect(raw).not.toContain(h.sandbox.demo.password);
      expect(raw).not.toContain(`"${code}"`);
      expect(raw).not.toContain(h.sandbox.clientSecret);
      for (const token of tokensIssued()) expect(raw).not.toContain(token);

      // The remembered password works for a quick re-login with only a code.
      await ada.send("/login");
      await ada.waitForReply(/You are logged in as .* send the current 6-digit code/);
      await ada.send(h.sandbox.currentCode());
      await ada.waitForReply(/Logged in/);
      raw = await dump();
      for (const token of tokensIssued()) expect(raw).not.toContain(token);

      // A wrong password (a failed attempt, counted per e-mail too) leaves no e-mail either.
      const eve = h.user();
      await logInUpToCode(eve, h.sandbox, "wrong-password-1");
      await eve.send(h.sandbox.currentCode());
      await eve.waitForReply(/wrong/i);
      raw = await dump();
      expect(raw).toContain("login-email-reserved:");
      expectNone(raw, [h.sandbox.demo.email]);

      // What logout deletes, as it sits in the store: the session row and the remembered password.
      const sealedToken = (await h.deps.store.get<{ sealedToken: string }>(`auth:${ada.id}`))?.sealedToken;
      const sealedPassword = await h.deps.store.get<string>(`remembered-password:${ada.id}`);
      expect(sealedToken).toBeTruthy();
      expect(sealedPassword).toBeTruthy();

      // /logout wipes the remembered password too.
      await ada.send("/logout");
      await ada.waitForReply(/logged out/);
      expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(false);

      // Deleted means deleted: not in the live data, and not in the file's free pages or its WAL.
      raw = await dump();
      expect(raw).not.toContain(h.sandbox.demo.email);
      expect(raw).not.toContain(`auth:${ada.id}`);
      expect(raw).not.toContain(`remembered-password:${ada.id}`);
      expect(raw).not.toContain(sealedToken);
      expect(raw).not.toContain(sealedPassword);
    });

    it("keeps a saved address and its label only sealed", async () => {
      const ada = await h.loggedInUser();
      const address = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
      const label = "Aunt Margaret's wallet";
      const saved = await h.deps.safety.saveAddress(ada.id, { currency: "btc", label, address });
      expect(saved.ok).toBe(true);
      expect((await h.deps.safety.addresses.list(ada.id)).map((a) => a.address)).toEqual([address]);
      const raw = await dump();
      expect(raw).not.toContain(address);
      expect(raw).not.toContain(label);
    });
  });
}

type Details = { email: string; name: string; surname: string; phone: string };

/** The partner sign-up as a person goes through it, up to the phone question. */
async function signUpToPhone(user: FakeUser, details: Details) {
  await user.send("/start");
  await user.waitForReply(/e-mail address/);
  await user.send(details.email);
  await user.waitForReply(/first name/);
  await user.send(details.name);
  await user.waitForReply(/surname/);
  await user.send(details.surname);
  await user.waitForReply(/phone number/);
}

/** The rest of it: phone, consent, PIN twice; returns after the "is open" answer. */
async function finishSignUp(user: FakeUser, details: Details) {
  await user.send(details.phone);
  const consent = await user.waitForReply(/terms \(version/);
  await user.tap("✅ I agree", consent);
  await user.waitForReply(/6-digit PIN/);
  await user.send("975310");
  await user.waitForReply(/same PIN again/);
  await user.send("975310");
  await user.waitForReply(/is open/);
}

function partnerSuite(name: string, open: Open) {
  describe(`personal data at rest after a partner sign-up (${name})`, () => {
    let h: Harness;
    let dump: RawDump;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ h, dump, close } = await open({ mode: "partner" }));
    });
    afterAll(async () => {
      await close();
    });

    it("keeps no e-mail, name or phone number, mid-way or once signed up; the desk still finds the e-mail", async () => {
      const details = {
        email: "Ottilie.Quarnstrom@Example.org",
        name: "Ottilie",
        surname: "Quarnstrom",
        phone: "+49 1523 7654321",
      };
      const personal = [details.email, details.name, details.surname, details.phone, "+4915237654321"];
      const ottilie = h.user();
      // Mid-way: what was typed so far sits in the (sealed) conversation state.
      await signUpToPhone(ottilie, details);
      let raw = await dump();
      expect(raw).toContain(`conversation:${ottilie.id}`);
      expectNone(raw, personal);

      await finishSignUp(ottilie, details);
      const partnerUserId = await h.deps.partner?.users.partnerIdOf(ottilie.id);
      expect(partnerUserId).toBeGreaterThan(0);
      // The sign-up reached the exchange with her details: the bot had them, and kept none.
      expect(h.sandbox.state.partnerUser(partnerUserId ?? 0)?.email).toBe(details.email);
      raw = await dump();
      expect(raw).toContain("partner-email:");
      expectNone(raw, personal);
      // The operator desk's look-up by e-mail (any case) works through the keyed hash.
      expect(await h.deps.partner?.users.partnerIdByEmail("ottilie.quarnstrom@example.org")).toBe(
        partnerUserId,
      );
    });
  });
}

const onSqlite: Open = async (options) => {
  const h = await startHarness(options);
  return { h, dump: sqliteDump(h), close: () => h.stop() };
};
secretsSuite("SQLite file", onSqlite);
partnerSuite("SQLite file", onSqlite);

describe.skipIf(!redisAvailable())("on Redis", () => {
  const onRedis: Open = async (options) => {
    const redis: RedisServer = await startRedis();
    const h = await startHarness({ ...options, storeUrl: redis.url });
    return {
      h,
      dump: redisDump(redis.url),
      async close() {
        await h.stop();
        await redis.stop();
      },
    };
  };
  secretsSuite("Redis keys", onRedis);
  partnerSuite("Redis keys", onRedis);
});
