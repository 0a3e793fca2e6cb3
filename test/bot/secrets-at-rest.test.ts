/**
 * Rule 2 and rule 9 at rest: after a login with "remember password" on, and in the middle of a
 * login (password typed, code not yet), the raw store holds no password, token or 2FA code in
 * plain text: the SQLite file bytes, and every key and value in Redis. After /logout it holds
 * nothing of the session at all, sealed or not, not even in free pages or the WAL.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, logInUpToCode, startHarness } from "../support/harness.ts";
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

function secretsSuite(
  name: string,
  open: () => Promise<{ h: Harness; dump: RawDump; close(): Promise<void> }>,
) {
  describe(`secrets at rest (${name})`, () => {
    let h: Harness;
    let dump: RawDump;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ h, dump, close } = await open());
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
  });
}

secretsSuite("SQLite file", async () => {
  const h = await startHarness();
  return { h, dump: sqliteDump(h), close: () => h.stop() };
});

describe.skipIf(!redisAvailable())("on Redis", () => {
  secretsSuite("Redis keys", async () => {
    const redis: RedisServer = await startRedis();
    const h = await startHarness({ storeUrl: redis.url });
    return {
      h,
      dump: redisDump(redis.url),
      async close() {
        await h.stop();
        await redis.stop();
      },
    };
  });
});
