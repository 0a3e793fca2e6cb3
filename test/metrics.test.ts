/**
 * /metrics' content after real updates: the whole bot (harness: sandbox exchange, Bot API double,
 * SQLite) with a Metrics wired as main.ts wires it, read back as Prometheus' text exposition.
 * Updates by kind with their latency, errors by kind, exchange calls by operation and outcome
 * (matched against what the sandbox received), store round trips by operation, logins with
 * failures, the lockout and what it refused, the delivery queue's depth, sends and drops, the
 * jobs lease.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationOf } from "../src/exchange/http.ts";
import { createDelivery } from "../src/notify/delivery.ts";
import { startBackgroundJobs } from "../src/process/jobs.ts";
import { Metrics } from "../src/process/metrics.ts";
import { type Harness, logInUpToCode, startHarness } from "./support/harness.ts";

/** One sample of the exposition text: the line with exactly these labels, or undefined. */
function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(labels).sort())) {
      return Number(match[3]);
    }
  }
  return undefined;
}

/** Every sample of a metric, by one of its labels (summed over the others). */
function byLabel(text: string, name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const value = new RegExp(`${label}="((?:[^"\\\\]|\\\\.)*)"`).exec(match[2] ?? "")?.[1];
    if (value !== undefined) out[value] = (out[value] ?? 0) + Number(match[3]);
  }
  return out;
}

describe("/metrics after real updates", () => {
  let h: Harness;
  const metrics = new Metrics();
  const read = async (name: string, labels: Record<string, string> = {}) =>
    sampleOf(await metrics.render(), name, labels) ?? 0;

  beforeAll(async () => {
    h = await startHarness({ metrics });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("counts updates by kind with their latency, exchange calls by operation and outcome, store round trips", async () => {
    const ada = await h.loggedInUser();
    const messagesBefore = await read("bot_updates_seconds_count", { kind: "message" });
    const storeSetsBefore = await read("bot_store_seconds_count", { op: "set" });

    const newcomer = h.user();
    await newcomer.send("/start");
    await newcomer.waitForReply(/Welcome/);
    await ada.send("/prices");
    await ada.waitForReply();
    await ada.send("/balance");
    await ada.waitForReply(/Euro/);
    await h.telegram.waitUntilIdle();
    expect(await read("bot_updates_seconds_count", { kind: "message" })).toBe(messagesBefore + 3);

    await ada.inlineQuery("btc");
    await h.telegram.waitUntilIdle();
    expect(await read("bot_updates_seconds_count", { kind: "inline_query" })).toBe(1);

    const text = await metrics.render();
    // Latency: every update falls in some bucket up to 20 s, and the time is counted.
    const count = sampleOf(text, "bot_updates_seconds_count", { kind: "message" });
    expect(sampleOf(text, "bot_updates_seconds_bucket", { kind: "message", le: "+Inf" })).toBe(count);
    expect(sampleOf(text, "bot_updates_seconds_sum", { kind: "message" })).toBeGreaterThan(0);

    // Exchange calls: per operation, exactly what the sandbox received (nothing failed, no retries).
    const received: Record<string, number> = {};
    for (const request of h.sandbox.requests) {
      const operation = operationOf(request.method as "GET" | "POST" | "DELETE", request.path);
      received[operation] = (received[operation] ?? 0) + 1;
    }
    expect(byLabel(text, "bot_exchange_calls_total", "operation")).toEqual(received);
    expect(Object.keys(byLabel(text, "bot_exchange_calls_total", "outcome"))).toEqual(["ok"]);
    expect(
      sampleOf(text, "bot_exchange_calls_total", { operation: "POST /v1/auth/login", outcome: "ok" }),
    ).toBe(1);
    expect(sampleOf(text, "bot_exchange_call_seconds_count", { operation: "POST /v1/auth/login" })).toBe(1);

    // Store round trips: the newcomer's first session write reached SQLite.
    expect(sampleOf(text, "bot_store_seconds_count", { op: "set" })).toBeGreaterThan(storeSetsBefore);
    expect(sampleOf(text, "bot_store_errors_total", { op: "set" })).toBeUndefined();
    expect(sampleOf(text, "bot_login_attempts_total", { outcome: "ok" })).toBe(1);
  });

  it("counts an exchange outage as an error of its kind, and the failed calls by outcome", async () => {
    const ada = await h.loggedInUser();
    const before = await read("bot_update_errors_total", { kind: "exchange-server" });
    // Enough 500s for every attempt of every GET /balance makes (the client retries GETs 3 times).
    h.sandbox.faults.failNext(100, 500, { method: "GET" });
    try {
      await ada.send("/balance");
      await ada.waitForReply(/exchange/i);
    } finally {
      h.sandbox.faults.reset();
    }
    await h.telegram.waitUntilIdle();
    expect(await read("bot_update_errors_total", { kind: "exchange-server" })).toBe(before + 1);
    const outcomes = byLabel(await metrics.render(), "bot_exchange_calls_total", "outcome");
    expect(outcomes.server).toBeGreaterThanOrEqual(1);
  });

  it("counts failed logins, the lockout and the attempts it refuses", async () => {
    const bob = h.user();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await logInUpToCode(bob, h.sandbox, "not-the-password");
      await bob.send(h.sandbox.currentCode());
      await bob.waitForReply(attempt < 5 ? /wrong/ : /Too many failed logins/);
    }
    expect(await read("bot_login_attempts_total", { outcome: "bad-credentials" })).toBe(4);
    expect(await read("bot_login_attempts_total", { outcome: "locked" })).toBe(1);
    // Locked out, an attempt (as the Mini App's POST makes it) is refused before the exchange.
    const logins = h.sandbox.countRequests("POST", "/v1/auth/login");
    const again = await h.deps.sessions.login(bob.id, {
      email: h.sandbox.demo.email,
      password: h.sandbox.demo.password,
      securityCode: h.sandbox.currentCode(),
    });
    expect(again).toMatchObject({ ok: false, reason: "rate-limited", lockedNow: false });
    expect(h.sandbox.countRequests("POST", "/v1/auth/login")).toBe(logins);
    expect(await read("bot_login_attempts_total", { outcome: "refused" })).toBe(1);
  });

  it("shows the delivery queue's depth, sends and drops, and whether this instance holds the jobs lease", async () => {
    const delivery = createDelivery({ deps: h.deps, api: h.bot.api });
    const jobs = startBackgroundJobs({
      deps: h.deps,
      api: h.bot.api,
      intervalMs: 60_000,
      autoStart: false,
      delivery,
    });
    metrics.watchDelivery(delivery.queue);
    metrics.watchJobsLease(() => jobs.lease.held);
    try {
      expect(await read("bot_jobs_leader")).toBe(0);
      await jobs.tick();
      expect(await read("bot_jobs_leader")).toBe(1);

      const cleo = h.user();
      const notice = { userId: cleo.id, kind: "account" as const, render: () => ({ text: "A notice" }) };
      // Two for one chat: the second waits a second behind the first (Telegram's per-chat pace).
      await jobs.notifier.notify(notice);
      await jobs.notifier.notify(notice);
      expect(await read("bot_delivery_queue_depth")).toBe(2);
      await delivery.queue.idle();
      expect(await read("bot_delivery_queue_depth")).toBe(0);
      expect(await read("bot_delivery_sent_total")).toBe(2);

      h.telegram.blockBot(cleo.id);
      await jobs.notifier.notify(notice);
      await delivery.queue.idle();
      expect(await read("bot_delivery_dropped_total", { reason: "blocked" })).toBe(1);
      expect(await read("bot_delivery_dropped_total", { reason: "failed" })).toBe(0);
      expect(await read("bot_delivery_sent_total")).toBe(2);
    } finally {
      await jobs.stop();
    }
    expect(await read("bot_jobs_leader")).toBe(0);
  });
});
