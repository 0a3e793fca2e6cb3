/**
 * (t) One background tick's store work with 1,000,000 stored users on a real redis-server
 * (BENCH_ONLY=t, heavy: not in the default run). Most users are idle (a session and a profile);
 * a realistic few hundred are logged in, have orders whose outcome is open, alerts, or are paused.
 * Then the store work of the jobs' tick is timed with the bot's own parts, exchange calls aside:
 * the session sweep (`checkSessions`), the order reconciliation (`reconcileAll`; the users with
 * open orders are logged out, so no exchange call is made and only the listing and reads remain),
 * and the alert scheduler's sync (a full reload: the first tick and every ten minutes; then a
 * steady sync that reads only the change log).
 *
 * Idle users are written straight into Redis through `redis-cli --pipe` (the bot's own key and
 * value form: `bot::session:ID`, `bot::profile:ID`, Keyv's `{"value":…}`), the active users
 * through the bot's own classes. Also runs alone: `node bench/tick.ts` (BENCH_TICK_USERS=N).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { AlertBook } from "../src/alerts/book.ts";
import { AlertScheduler, type AlertSchedulerOptions } from "../src/alerts/scheduler.ts";
import { AccountApi } from "../src/exchange/account.ts";
import { HttpClient } from "../src/exchange/http.ts";
import { OrderClients } from "../src/orders/clients.ts";
import { Ledger } from "../src/orders/ledger.ts";
import { reconcileAll } from "../src/orders/reconcile.ts";
import { checkSessions } from "../src/session/expiry-watch.ts";
import { Profiles } from "../src/session/profiles.ts";
import { Sessions } from "../src/session/sessions.ts";
import { openStore } from "../src/store/open-store.ts";
import { Vault } from "../src/store/vault.ts";
import type { Clock } from "../src/support/clock.ts";
import { draftOf } from "../test/support/quotes.ts";
import { startRedis } from "../test/support/redis.ts";
import { CountingStore } from "./lib/counting-store.ts";

const LOGGED_IN = 300;
const WITH_OPEN_ORDERS = 100;
const WITH_ALERTS = 200;
const PAUSED = 20;

export async function benchTick(users = Number(process.env.BENCH_TICK_USERS ?? 1_000_000)): Promise<string> {
  const redis = await startRedis();
  const lines: string[] = [];
  try {
    let started = performance.now();
    await loadIdleUsers(redis.port, users);
    const loadS = (performance.now() - started) / 1000;
    const clock: Clock = { now: () => Date.now() };
    const raw = await openStore(redis.url);
    const store = new CountingStore(raw);
    const vault = new Vault([randomBytes(32)]);
    // Never called: nobody the tick looks at needs the exchange (see the header).
    const account = new AccountApi(new HttpClient({ baseUrl: "http://127.0.0.1:9" }), {
      clientId: 1,
      clientSecret: "bench",
    });
    const sessions = new Sessions({ store, vault, account, clock });
    const profiles = new Profiles(store);
    const ledger = new Ledger(store, clock);
    const book = new AlertBook(store);
    started = performance.now();
    await seedActiveUsers({ store, vault, ledger, book }, users);
    const seedS = (performance.now() - started) / 1000;
    const keys = await redisDbSize(redis.url);
    lines.push(
      `\n(t) One tick's store work, ${users.toLocaleString("en")} users on Redis ` +
        `(${keys.toLocaleString("en")} keys; ${LOGGED_IN} logged in, ${WITH_OPEN_ORDERS} with an open order, ` +
        `${WITH_ALERTS} with alerts, ${PAUSED} paused). Loaded in ${loadS.toFixed(1)} s + ${seedS.toFixed(1)} s.`,
    );
    // reload() and sync() read only the store; the feed is asked by tick(), which is not run here.
    const feed: AlertSchedulerOptions["feed"] = {
      snapshot: () => Promise.reject(new Error("not asked in this bench")),
    };
    const scheduler = new AlertScheduler({
      book,
      feed,
      clock,
      log: { warn: () => {}, error: () => {}, debug: () => {} },
      onFired: async () => {},
    });
    const clients = new OrderClients(sessions);
    // What an instance does when it takes the jobs lead: records written without their index (the
    // login records above, as an older version wrote them) are indexed, by one key listing each.
    started = performance.now();
    const indexed = await Promise.all([
      sessions.indexExisting(),
      ledger.indexExisting(),
      book.indexExisting(),
    ]);
    lines.push(
      `Taking the lead: ${indexed.reduce((a, b) => a + b, 0)} records indexed by key listings in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (once per lead, not per tick).`,
    );
    const parts: Array<[string, () => Promise<unknown>]> = [
      ["sessions sweep", () => checkSessions({ sessions, profiles, store, clock, notify: async () => {} })],
      ["open orders", () => reconcileAll({ ledger, clients, profiles, clock })],
      ["alerts: full reload", () => scheduler.reload()],
      ["alerts: steady sync", () => scheduler.sync()],
    ];
    lines.push("| part | time | store calls |", "|---|---|---|");
    let total = 0;
    for (const [name, run] of parts) {
      const before = { ...store.counts };
      const t0 = performance.now();
      await run();
      const ms = performance.now() - t0;
      if (name !== "alerts: full reload") total += ms;
      const calls = Object.entries(store.counts)
        .map(([op, n]) => [op, n - (before[op as keyof typeof before] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .map(([op, n]) => `${op} ${n}`)
        .join(", ");
      lines.push(`| ${name} | ${ms.toFixed(1)} ms | ${calls || "none"} |`);
    }
    lines.push(`Steady tick (sessions + orders + alert sync): ${total.toFixed(1)} ms.`);
    await store.close();
  } finally {
    await redis.stop();
  }
  return lines.join("\n");
}

/** An idle user: a session and a profile, as the bot writes them. */
async function loadIdleUsers(port: number, users: number): Promise<void> {
  const child = spawn("redis-cli", ["-p", String(port), "--pipe"], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const done = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
  const resp = (...args: string[]) =>
    `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;
  const session = JSON.stringify({ value: { __language_code: "en" }, expires: null });
  const profile = JSON.stringify({ value: { locale: "en", autoLogoutMinutes: 60 }, expires: null });
  let batch = "";
  for (let i = 0; i < users; i++) {
    const id = String(100_000_000 + i);
    batch += resp("SET", `bot::session:${id}`, session) + resp("SET", `bot::profile:${id}`, profile);
    if (batch.length > 1 << 20) {
      if (!child.stdin.write(batch)) await new Promise((r) => child.stdin.once("drain", r));
      batch = "";
    }
  }
  child.stdin.end(batch);
  if ((await done) !== 0) throw new Error(`redis-cli --pipe failed: ${output}`);
}

async function seedActiveUsers(
  parts: { store: CountingStore; vault: Vault; ledger: Ledger; book: AlertBook },
  users: number,
): Promise<void> {
  const { store, vault, ledger, book } = parts;
  const now = Date.now();
  const at = (k: number) => 100_000_000 + Math.floor((users / 1000) * k);
  for (let k = 0; k < LOGGED_IN; k++) {
    // The login record as Sessions.login writes it: an hour to live, not due for anything yet.
    await store.set(`auth:${at(k)}`, {
      email: `user${k}@example.com`,
      sealedToken: vault.encrypt(randomBytes(24).toString("hex")),
      issuedAt: now,
      expiresAt: now + 60 * 60_000,
      lastActivityAt: now,
    });
  }
  for (let k = 0; k < WITH_OPEN_ORDERS; k++) {
    const userId = at(LOGGED_IN + k);
    const action = await ledger.quote({ userId, ...draftOf("buy", "btc", "100") });
    await ledger.confirm(action.id, userId);
    await ledger.markSent(action.id);
    await ledger.markUnknown(action.id);
  }
  for (let k = 0; k < WITH_ALERTS; k++) {
    const userId = at(k * 2);
    await book.add(userId, { currency: "btc", kind: "above", level: String(60_000 + k) }, now);
    await book.add(userId, { currency: "eth", kind: "below", level: String(2_000 + k) }, now);
  }
  for (let k = 0; k < PAUSED; k++) await book.pause(at(k * 2), now);
}

async function redisDbSize(url: string): Promise<number> {
  const { createClient } = await import("@keyv/redis");
  const client = createClient({ url });
  await client.connect();
  const size = await client.dbSize();
  await client.close();
  return size;
}

if (import.meta.main) console.log(await benchTick());
