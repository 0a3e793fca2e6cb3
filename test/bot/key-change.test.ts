/**
 * A key change is not a lock-out (SECURITY.md, rule 2): the whole bot over a real store (SQLite
 * file, and a real redis-server), restarted with a different SECRETS_KEY. With "B,A" (the new key
 * first) everything sealed under A still works; with "B" alone, what only A opens counts as
 * absent: the user is asked to log in (or told the session ended), /login works from the start,
 * a flow left half-way under A is simply gone, and nobody is told "Something went wrong". The bot
 * logs that once, not per value.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Vault } from "../../src/store/vault.ts";
import { createLogger } from "../../src/support/logger.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, type HarnessOptions, logIn, logInUpToCode, startHarness } from "../support/harness.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";
import { expectAllOpen, halfWayUser, PHRASE, settledUser } from "../support/sealed-users.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

/** The bot's log lines, as JSON objects. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string; sealedBy?: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger("info", stream), lines };
}

const UNOPENABLE = /no SECRETS_KEY key opens/;

function keyChangeSuite(
  name: string,
  storeOptions: () => Promise<{ options: HarnessOptions; stop?(): Promise<void> }>,
) {
  describe(`a restart with another SECRETS_KEY (${name})`, () => {
    const keyA = Vault.generateKey();
    const keyB = Vault.generateKey();
    const captured = capturedLog();
    let h: Harness;
    let stopStore: (() => Promise<void>) | undefined;
    const users: FakeUser[] = [];

    beforeAll(async () => {
      const store = await storeOptions();
      stopStore = store.stop;
      h = await startHarness({ ...store.options, secretsKey: keyA, log: captured.log });
    });
    afterAll(async () => {
      // Whatever happened, nobody was told that something went wrong.
      const told = users.flatMap((user) => user.messages().map((message) => message.text ?? ""));
      await h.stop();
      await stopStore?.();
      expect(told.filter((text) => /Something went wrong/.test(text))).toEqual([]);
    });

    /** A user of sealed-users.ts, remembered for the final check. */
    async function tracked(make: (h: Harness) => Promise<FakeUser>): Promise<FakeUser> {
      const user = await make(h);
      users.push(user);
      return user;
    }

    it('with "B,A" everything sealed under A still works, and nothing is logged', async () => {
      const ada = await tracked(settledUser);
      const carol = await tracked(halfWayUser);
      await h.restartBot({ secretsKey: `${keyB},${keyA}` });
      await expectAllOpen(h, ada, carol);
      expect(captured.lines.filter((line) => UNOPENABLE.test(line.msg))).toEqual([]);
    });

    it('with "B" alone: asked to log in, /login works, no error; logged once', async () => {
      // Sealed under A only: dave's login, remembered password and phrase; erin's half-done login;
      // frank's login, as the version before this one wrote it (its e-mail in plain text).
      await h.restartBot({ secretsKey: keyA });
      const dave = await tracked(settledUser);
      const erin = await tracked(halfWayUser);
      const frank = h.user();
      users.push(frank);
      await logIn(frank, h.sandbox);
      const record = await h.deps.store.get<{ sealedToken: string; issuedAt: number; expiresAt: number }>(
        `auth:${frank.id}`,
      );
      const { sealedToken, issuedAt, expiresAt } = record ?? { sealedToken: "", issuedAt: 0, expiresAt: 0 };
      await h.deps.store.set(`auth:${frank.id}`, {
        email: h.sandbox.demo.email,
        sealedToken,
        issuedAt,
        expiresAt,
        lastActivityAt: issuedAt,
      });
      const logged = captured.lines.length;

      await h.restartBot({ secretsKey: keyB });

      await dave.send("/balance");
      expect((await dave.waitForReply()).text).toBe("Please log in to your exchange account first.");
      // /login from the start: the e-mail is asked (nothing under A is known), no phrase is shown.
      const before = dave.messages().length;
      await logIn(dave, h.sandbox);
      const asked = dave
        .messages()
        .slice(before)
        .map((message) => message.text ?? "");
      expect(asked[0]).toMatch(/^Please send the e-mail address of your exchange account\./);
      expect(asked.join("\n")).not.toContain(PHRASE);
      await dave.send("/balance");
      await dave.waitForReply(/Your balances/);

      // erin's half-done flow is gone: /login starts afresh, and works.
      await logInUpToCode(erin, h.sandbox);
      await erin.send(h.sandbox.currentCode());
      await erin.waitForReply(/Logged in/);

      // frank's e-mail (plain, of the older version) is read, his token does not open: his session
      // counts as ended, and his record is written in the current form, its e-mail sealed.
      await frank.send("/balance");
      await frank.waitForReply(/session has expired/);
      const rewritten = await h.deps.store.get<Record<string, unknown>>(`auth:${frank.id}`);
      expect(rewritten).not.toHaveProperty("email");
      expect(rewritten).toMatchObject({ expired: true, sealedEmail: expect.stringMatching(/^v1\./) });
      await frank.send("/login");
      await frank.waitForReply(/e-mail|password/);

      for (const user of [dave, erin, frank]) {
        const texts = user.messages().map((message) => message.text ?? "");
        expect(texts.filter((text) => /Something went wrong/.test(text))).toEqual([]);
      }
      const lines = captured.lines.slice(logged).filter((line) => UNOPENABLE.test(line.msg));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, sealedBy: new Vault([Buffer.from(keyA, "base64")]).keyId });
      expect(captured.lines.slice(logged).filter((line) => line.level >= 50)).toEqual([]);
    });
  });
}

keyChangeSuite("SQLite file", async () => ({ options: {} }));

describe.skipIf(!redisAvailable())("on Redis", () => {
  keyChangeSuite("Redis", async () => {
    const redis: RedisServer = await startRedis();
    return { options: { storeUrl: redis.url }, stop: () => redis.stop() };
  });
});
