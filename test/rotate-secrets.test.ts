/**
 * `npm run rotate-secrets` as an operator runs it: a real child process (the script package.json
 * names) against the store of a running bot. Sealed under A; the bot restarted with "B,A"; the
 * chore run beside it (twice: the second run has nothing to do); then the bot restarted with "B"
 * alone, and everything opens: the session, the remembered password, the anti-phishing phrase, a
 * login left half-way, and in partner mode the service account's token and the e-mail index.
 * Nothing in the raw store is sealed under A any more. SQLite (account mode) and Redis (partner).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Vault } from "../src/store/vault.ts";
import { createLogger } from "../src/support/logger.ts";
import { type Harness, startHarness } from "./support/harness.ts";
import {
  type RedisServer,
  rawRedisDump,
  redisAvailable,
  redisUnavailableReason,
  startRedis,
} from "./support/redis.ts";
import { expectAllOpen, halfWayUser, settledUser } from "./support/sealed-users.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The command `npm run rotate-secrets` runs, read from package.json. */
function rotateCommand(): string[] {
  const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = (manifest.scripts["rotate-secrets"] ?? "").split(/\s+/);
  expect(words[0]).toBe("node");
  return words.slice(1);
}

/** Runs the chore against the harness's store with SECRETS_KEY `keys`; its exit code and output. */
async function rotate(
  h: Harness,
  keys: string,
): Promise<{ code: number | null; out: string; counts: Record<string, number> }> {
  const child = spawn(process.execPath, rotateCommand(), {
    cwd: ROOT,
    env: {
      // What the chore needs, and nothing of the bot's other variables.
      PATH: process.env.PATH,
      STORE_URL: h.storeUrl,
      SECRETS_KEY: keys,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  const counts: Record<string, number> = {};
  for (const line of out.split("\n")) {
    const match = /^(.*?)(?: under \w+| to \w+'s hash)?(?: \(.*\))?: (\d+)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) counts[match[1]] = Number(match[2]);
  }
  return { code, out, counts };
}

function capturedWarnings() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter((line) => /no SECRETS_KEY key opens/.test(line)),
      );
      done();
    },
  });
  return { log: createLogger("warn", stream), lines };
}

const kidOf = (key: string) => Vault.fromBase64(key).keyId;

describe("npm run rotate-secrets (SQLite file, account mode)", () => {
  const keyA = Vault.generateKey();
  const keyB = Vault.generateKey();
  const warnings = capturedWarnings();
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ secretsKey: keyA, log: warnings.log });
  });
  afterAll(() => h.stop());

  const rawFile = () => {
    const path = h.storeUrl.slice("sqlite://".length);
    return [path, `${path}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString("latin1"))
      .join("\n");
  };

  it('re-seals everything under the first key while the bot runs; with "B" alone everything opens', async () => {
    const ada = await settledUser(h);
    const carol = await halfWayUser(h);
    expect(rawFile()).toContain(`v1.${kidOf(keyA)}.`);

    await h.restartBot({ secretsKey: `${keyB},${keyA}` });
    // The bot works on while the chore runs: ada's next update rewrites her login record.
    h.clock.advance(11_000);
    await ada.send("/balance");
    await ada.waitForReply(/Your balances/);

    const first = await rotate(h, `${keyB},${keyA}`);
    expect(first.code, first.out).toBe(0);
    // ada's remembered password and phrase, carol's half-done login (ada's /balance under "B,A"
    // wrote her login record, e-mail and token, under B already).
    expect(first.counts["sealed again"], first.out).toBe(3);
    expect(first.counts["left as they were, no SECRETS_KEY key opens them"]).toBe(0);
    expect(first.out).toContain(`done: everything sealed opens with ${kidOf(keyB)} alone`);

    // Idempotent: nothing left to do.
    const second = await rotate(h, `${keyB},${keyA}`);
    expect(second.code, second.out).toBe(0);
    expect(second.counts["sealed again"], second.out).toBe(0);
    expect(second.counts["keys looked at"]).toBeGreaterThan(0);

    // The bot runs on under "B,A" after the chore: its writes keep everything under B.
    h.clock.advance(11_000);
    await ada.send("/balance");
    await ada.waitForReply(/Your balances/);

    await h.restartBot({ secretsKey: keyB });
    expect(rawFile()).not.toContain(`v1.${kidOf(keyA)}.`);
    await expectAllOpen(h, ada, carol);
    expect(warnings.lines).toEqual([]);
  });

  it("says which variable is wrong, and exits 2, when SECRETS_KEY is malformed", async () => {
    const run = await rotate(h, "not-a-key");
    expect(run.code).toBe(2);
    expect(run.out).toContain("SECRETS_KEY must be 32 random bytes in base64");
  });
});

describe.skipIf(!redisAvailable())("npm run rotate-secrets (Redis, partner mode)", () => {
  const keyA = Vault.generateKey();
  const keyB = Vault.generateKey();
  const warnings = capturedWarnings();
  let redis: RedisServer;
  let h: Harness;
  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({
      storeUrl: redis.url,
      secretsKey: keyA,
      log: warnings.log,
      mode: "partner",
      partner: { auth: "service-account" },
    });
  });
  afterAll(async () => {
    await h.stop();
    await redis.stop();
  });

  it("moves the e-mail index to the new key's hash and re-seals the service account's token", async () => {
    const grace = await h.partnerUser();
    await grace.send("/start");
    await grace.waitForReply(/Home/);
    const email = h.sandbox.state.partnerUser(grace.partnerUserId)?.email ?? "";
    expect(email).not.toBe("");
    let raw = await rawRedisDump(redis.url);
    expect(raw).toContain("partner-auth:token");
    expect(raw).toContain(`v1.${kidOf(keyA)}.`);

    await h.restartBot({ secretsKey: `${keyB},${keyA}` });
    const run = await rotate(h, `${keyB},${keyA}`);
    expect(run.code, run.out).toBe(0);
    expect(run.counts["index entries moved"], run.out).toBe(1);
    expect(run.counts["sealed again"], run.out).toBeGreaterThanOrEqual(1);

    await h.restartBot({ secretsKey: keyB });
    raw = await rawRedisDump(redis.url);
    expect(raw).not.toContain(`v1.${kidOf(keyA)}.`);
    expect(await h.deps.partner?.users.partnerIdByEmail(email.toUpperCase())).toBe(grace.partnerUserId);
    await grace.send("/balance");
    await grace.waitForReply(/Your balances/);
    expect(warnings.lines).toEqual([]);
  });
});
