/**
 * (g) Ten thousand recurring plans due at once, run against the sandbox's partner API over real
 * HTTP on loopback (the runner the jobs call, src/plans/runner.ts, on the composition root's
 * services: SQLite store, the one pipeline, the exchange client): the wall time of the tick, runs
 * per second, and the exchange calls per run by endpoint. The sandbox's rate limit is off (its
 * default of 60 a minute would measure the limit, not the bot); the clock is moved past the
 * spread, so all 10,000 are due in one tick (in production RECURRING_SPREAD_MINUTES cuts them in
 * groups of one minute). Figures only; the machine is shared, so they move from run to run.
 *
 * Run alone: `node bench/plans.ts` (BENCH_PLANS=1000 for fewer, BENCH_PLAN_CONCURRENCY=8).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Big from "big.js";
import { newActionId } from "../src/orders/ledger.ts";
import { DEFAULT_PLAN_SETTINGS } from "../src/plans/book.ts";
import { PlanRunner } from "../src/plans/runner.ts";
import { createServices } from "../src/process/services.ts";
import { startSandbox } from "../src/sandbox/server.ts";
import { Vault } from "../src/store/vault.ts";
import { ManualClock } from "../src/support/clock.ts";
import { silentLogger } from "../src/support/logger.ts";
import { CountingStore, STORE_READS, STORE_WRITES } from "./lib/counting-store.ts";

export const PLANS_BENCH = {
  plans: Number(process.env.BENCH_PLANS ?? 10_000),
  concurrency: Number(process.env.BENCH_PLAN_CONCURRENCY ?? DEFAULT_PLAN_SETTINGS.concurrency),
};

/** A Sunday morning; every plan runs daily at 09:00 Berlin time. */
const START = Date.parse("2026-11-22T05:00:00Z");

function endpointOf(method: string, path: string): string {
  return `${method} ${path.replace(/\/users\/\d+\//, "/users/{id}/").replace(/\/users\/\d+$/, "/users/{id}")}`;
}

export async function benchPlans(plan = PLANS_BENCH): Promise<string> {
  const clock = new ManualClock(START);
  const sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
  const folder = mkdtempSync(join(tmpdir(), "bench-plans-"));
  let counting: CountingStore | undefined;
  const settings = { ...DEFAULT_PLAN_SETTINGS, maxPlans: 1, concurrency: plan.concurrency };
  const services = await createServices(
    {
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: process.env.BENCH_PLAN_STORE ?? `sqlite://${join(folder, "bot.sqlite")}`,
      secretsKey: Vault.generateKey(),
      defaultLocale: "en",
      telegramApiRoot: "http://127.0.0.1:9",
      partner: {
        auth: { kind: "token", token: sandbox.partnerToken },
        operatorIds: [],
        supportContact: "@support",
        termsUrl: "https://partner.test/terms",
      },
      recurring: settings,
    },
    {
      clock,
      log: silentLogger,
      retrySleep: async () => {},
      wrapStore: (store) => {
        counting = new CountingStore(store);
        return counting;
      },
    },
  );
  const { deps } = services;
  const partner = deps.partner;
  if (partner === undefined) throw new Error("partner mode expected");
  try {
    const setupStart = performance.now();
    for (let i = 0; i < plan.plans; i++) {
      const telegramId = 5_000_000 + i;
      const email = `plan${i}@bench.test`;
      const { id } = await partner.api.createUser({
        email,
        name: "Bench",
        surname: "User",
        phone: "+491511234567",
      });
      const account = sandbox.state.partnerUser(id);
      if (account === undefined) throw new Error(`no partner user ${id}`);
      sandbox.faults.setPartnerUserStatus(id, { kyc_status: "passed", edd_status: "not_required" });
      sandbox.state.credit(account, "eur", new Big(1_000));
      await partner.users.link(telegramId, id, {
        consent: { version: "bench", url: "x", at: clock.now() },
        email,
      });
      const made = await deps.plans.create({
        id: newActionId(),
        userId: telegramId,
        mode: "partner",
        currency: "btc",
        amount: "25",
        schedule: { every: "day", hour: 9 },
        zone: "Europe/Berlin",
      });
      if (!made.ok) throw new Error(`plan ${i}: ${made.reason}`);
    }
    const setupS = (performance.now() - setupStart) / 1000;

    // 09:31 Berlin: every plan is due (its minute within the spread passed), none is late.
    clock.advance(Date.parse("2026-11-22T08:31:00Z") - clock.now());
    const runner = PlanRunner.over(deps);
    const before = sandbox.requests.length;
    const storeBefore = { ...counting?.counts };
    const sum = (counts: Partial<Record<string, number>> | undefined, ops: readonly string[]) =>
      ops.reduce((total, op) => total + (counts?.[op] ?? 0), 0);
    const tickStart = performance.now();
    const events = await runner.tick();
    const tickS = (performance.now() - tickStart) / 1000;
    const calls = sandbox.requests.slice(before);
    const reads = sum(counting?.counts, STORE_READS) - sum(storeBefore, STORE_READS);
    const writes = sum(counting?.counts, STORE_WRITES) - sum(storeBefore, STORE_WRITES);
    const byEndpoint = new Map<string, number>();
    for (const call of calls) {
      const key = endpointOf(call.method, call.path);
      byEndpoint.set(key, (byEndpoint.get(key) ?? 0) + 1);
    }
    const outcomes = new Map<string, number>();
    for (const event of events) outcomes.set(event.kind, (outcomes.get(event.kind) ?? 0) + 1);
    const orders = [...sandbox.state.transactions.values()].filter((tx) => tx.type === "buy_crypto").length;
    const runs = events.length || 1;
    const lines = [
      `(g) Recurring plans: ${plan.plans.toLocaleString("en")} partner plans due in one tick, concurrency ${settings.concurrency}, against the sandbox over loopback (rate limit off; shared machine: figures move between runs)`,
      `    setup (users, links, plans): ${setupS.toFixed(1)} s`,
      `    tick: ${tickS.toFixed(1)} s, ${(plan.plans / tickS).toFixed(0)} runs/s, ${((tickS * 1000) / plan.plans).toFixed(2)} ms per run`,
      `    outcomes: ${[...outcomes].map(([kind, n]) => `${kind} ${n}`).join(", ")}; orders at the sandbox: ${orders}`,
      `    store round trips per run: ${(reads / runs).toFixed(1)} reads, ${(writes / runs).toFixed(1)} writes (SQLite${process.env.BENCH_PLAN_STORE ? `: ${process.env.BENCH_PLAN_STORE}` : ""})`,
      `    exchange calls: ${calls.length} in all, ${(calls.length / runs).toFixed(2)} per run`,
      ...[...byEndpoint]
        .sort((a, b) => b[1] - a[1])
        .map(([endpoint, n]) => `      ${endpoint}: ${(n / runs).toFixed(2)} per run`),
    ];
    return lines.join("\n");
  } finally {
    await services.close();
    await sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchPlans());
