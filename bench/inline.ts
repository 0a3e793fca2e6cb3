/**
 * 1,000 concurrent inline queries through the whole stack: createBot over the Bot API double
 * (getUpdates, @grammyjs/runner), the sandbox exchange on real HTTP, SQLite, i18n, the market feed.
 * 1,000 different users (never logged in; the operator's market-data account is configured) type
 * `@bot …` in the same instant, three times:
 *
 *   cold     nothing cached: the feed logs in once and asks the exchange once for all of them
 *   warm     inside the TTL: no exchange request at all
 *   expired  just past the TTL (the clock is moved, nobody sleeps): one request again
 *
 * Printed per burst: exchange requests made (target: 1, 0, 1), and the answer time of each query
 * from its push into the double until the double records the bot's answerInlineQuery (p50, p99,
 * max). Figures only, no assertions on time.
 *
 * Run alone: `node bench/inline.ts`.
 */
import { performance } from "node:perf_hooks";
import { OffsetClock } from "../src/support/clock.ts";
import type { RecordedCall } from "../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../test/support/harness.ts";

export const INLINE_PLAN = { queries: 1_000, ttlMs: 10_000 };

const QUERIES = ["", "btc", "Bitcoin", "btceur", "eth", "ETH", "xrp", "doge"];

interface Burst {
  name: string;
  upstreamPrices: number;
  upstreamLogins: number;
  latenciesMs: number[];
  elapsedMs: number;
  emptyAnswers: number;
}

export async function benchInline(plan = INLINE_PLAN): Promise<string> {
  const clock = new OffsetClock();
  const stack = await startHarness({ marketData: true, marketTtlMs: plan.ttlMs, clock });
  try {
    const users = Array.from({ length: plan.queries }, (_, i) =>
      stack.user(700_000 + i, { firstName: `Inline ${i}`, languageCode: i % 4 === 0 ? "de" : "en" }),
    );
    const bursts: Burst[] = [];
    bursts.push(await burst(stack, users, "cold"));
    bursts.push(await burst(stack, users, "warm"));
    clock.advance(plan.ttlMs);
    bursts.push(await burst(stack, users, "expired"));
    return report(plan, bursts);
  } finally {
    await stack.stop();
  }
}

async function burst(stack: Harness, users: ReturnType<Harness["user"]>[], name: string): Promise<Burst> {
  const prices0 = stack.sandbox.countRequests("GET", "/v1/prices");
  const logins0 = stack.sandbox.countRequests("POST", "/v1/auth/login");
  const sentAt = new Map<string, number>();
  const latenciesMs: number[] = [];
  let emptyAnswers = 0;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  const unsubscribe = stack.telegram.on("call", (call: RecordedCall) => {
    if (call.method !== "answerInlineQuery") return;
    const id = String(call.payload.inline_query_id);
    const t0 = sentAt.get(id);
    if (t0 === undefined) return;
    sentAt.delete(id);
    latenciesMs.push(performance.now() - t0);
    if ((call.payload.results as unknown[]).length === 0) emptyAnswers++;
    if (latenciesMs.length === users.length) resolveAll();
  });
  const start = performance.now();
  // All pushed in the same tick: the double hands them out in getUpdates batches as Telegram would.
  await Promise.all(
    users.map(async (user, i) => {
      const t0 = performance.now();
      const id = await user.inlineQuery(QUERIES[i % QUERIES.length] ?? "");
      sentAt.set(id, t0);
    }),
  );
  const timeout = setTimeout(() => resolveAll(), 60_000);
  await all;
  clearTimeout(timeout);
  unsubscribe();
  if (latenciesMs.length < users.length) {
    throw new Error(`${name}: only ${latenciesMs.length} of ${users.length} inline queries were answered.`);
  }
  return {
    name,
    upstreamPrices: stack.sandbox.countRequests("GET", "/v1/prices") - prices0,
    upstreamLogins: stack.sandbox.countRequests("POST", "/v1/auth/login") - logins0,
    latenciesMs,
    elapsedMs: performance.now() - start,
    emptyAnswers,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(plan: typeof INLINE_PLAN, bursts: Burst[]): string {
  const rows = bursts.map((b) => {
    const sorted = [...b.latenciesMs].sort((x, y) => x - y);
    return [
      b.name,
      String(b.upstreamPrices),
      String(b.upstreamLogins),
      `${percentile(sorted, 50).toFixed(1)} ms`,
      `${percentile(sorted, 99).toFixed(1)} ms`,
      `${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms`,
      `${Math.round((b.latenciesMs.length / b.elapsedMs) * 1000)}/s`,
      String(b.emptyAnswers),
    ];
  });
  const head = ["burst", "GET v1/prices", "logins", "p50", "p99", "max", "answered", "empty (doge)"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [
    `Inline: ${plan.queries.toLocaleString("en")} concurrent inline queries from different users ` +
      `(whole stack, sandbox, SQLite; market feed TTL ${plan.ttlMs / 1000} s; target 1 exchange request per burst past the TTL)`,
    line(head),
    ...rows.map(line),
  ].join("\n");
}

if (import.meta.main) {
  console.log(await benchInline());
}
