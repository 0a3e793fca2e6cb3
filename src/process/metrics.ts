/**
 * What an operator can watch, in Prometheus' text format (prom-client). Only the composition root
 * builds and imports this, and only when METRICS_PORT is set (main.ts loads it at first use): the
 * layers below know nothing of prom-client, each offers a small hook of its own (the update
 * logger and error boundary, the exchange client's `onCall`, `observedStore`, the Sessions'
 * `onLogin`), and main.ts / services.ts connect those hooks to the methods here.
 *
 * One Registry per Metrics, never prom-client's global one: two bots in one test process (or a
 * test and the bot it starts) each count their own.
 *
 * Cost per update: one histogram observe (a label object looked up once per kind and kept), no
 * timers and no closures; the delivery queue and the jobs lease are read only when scraped.
 *
 * @example
 * const metrics = new Metrics();
 * metrics.updateHandled("message", 0.012);
 * const text = await metrics.render(); // what GET /metrics answers
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** What the delivery queue (notify/queue.ts) shows of itself; read at each scrape. */
export interface DeliveryReading {
  /** Messages queued or in flight. */
  readonly pending: number;
  readonly stats: {
    readonly sent: number;
    readonly rateLimited: number;
    readonly retried: number;
    readonly blocked: number;
    readonly failed: number;
  };
}

/** Seconds: an update that takes longer than 20 s has missed the answer deadline anyway. */
const UPDATE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
const EXCHANGE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A store round trip is sub-millisecond on a healthy Redis or SQLite. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

export class Metrics {
  readonly registry: Registry;
  readonly #updates: Histogram<"kind">;
  readonly #updateErrors: Counter<"kind">;
  readonly #exchangeCalls: Counter<"operation" | "outcome">;
  readonly #exchangeSeconds: Histogram<"operation">;
  readonly #storeSeconds: Histogram<"op">;
  readonly #storeErrors: Counter<"op">;
  readonly #logins: Counter<"outcome">;
  // Label objects by value, made once per value (the values come from small fixed sets).
  readonly #kind = labelCache("kind");
  readonly #operation = labelCache("operation");
  readonly #op = labelCache("op");
  readonly #outcome = labelCache("outcome");
  readonly #callLabels = new Map<string, Map<string, Record<string, string>>>();
  #delivery: DeliveryReading | undefined;
  #leaseHeld: (() => boolean) | undefined;

  constructor(options: { registry?: Registry; processMetrics?: boolean } = {}) {
    this.registry = options.registry ?? new Registry();
    const registers = [this.registry];
    const histogram = <L extends string>(name: string, help: string, label: L, buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames: [label], buckets, registers });
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    this.#updates = histogram(
      "bot_updates_seconds",
      "Updates handled, by kind (message, callback_query, inline_query, …), and how long each took from the user's turn to the last reply (seconds)",
      "kind",
      UPDATE_BUCKETS,
    );
    this.#updateErrors = counter(
      "bot_update_errors_total",
      "Updates that ended in an error the user was told about, by kind (exchange-<kind>, store-unavailable, not-logged-in, other)",
      ["kind"],
    );
    this.#exchangeCalls = counter(
      "bot_exchange_calls_total",
      "Calls to the exchange API (retries included in one call), by operation (method and path, ids as :id) and outcome (ok or the error kind)",
      ["operation", "outcome"],
    );
    this.#exchangeSeconds = histogram(
      "bot_exchange_call_seconds",
      "How long exchange API calls took, retries and their waits included (seconds)",
      "operation",
      EXCHANGE_BUCKETS,
    );
    this.#storeSeconds = histogram(
      "bot_store_seconds",
      "Store round trips (what reaches SQLite or Redis, past the in-process cache), by operation, and how long each took (seconds)",
      "op",
      STORE_BUCKETS,
    );
    this.#storeErrors = counter(
      "bot_store_errors_total",
      "Store operations that failed (the store unreachable or refusing), by operation",
      ["op"],
    );
    this.#logins = counter(
      "bot_login_attempts_total",
      "Exchange logins through the bot (chat and Mini App), by outcome: ok; the failures bad-credentials, bad-code and locked (the failure that used up the limit: a lockout); refused (stopped by the limit before reaching the exchange)",
      ["outcome"],
    );
    scrapedMetrics(
      registers,
      () => this.#delivery,
      () => this.#leaseHeld?.() ?? false,
    );
    // CPU, memory, event loop delay, GC: read when scraped (an event-loop histogram runs meanwhile).
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** One update handled (its error, if any, counted by {@link updateFailed}). */
  updateHandled(kind: string, seconds: number): void {
    this.#updates.observe(this.#kind(kind), seconds);
  }

  updateFailed(kind: string): void {
    this.#updateErrors.inc(this.#kind(kind));
  }

  exchangeCall(operation: string, outcome: string, seconds: number): void {
    let byOutcome = this.#callLabels.get(operation);
    if (byOutcome === undefined) {
      byOutcome = new Map();
      this.#callLabels.set(operation, byOutcome);
    }
    let labels = byOutcome.get(outcome);
    if (labels === undefined) {
      labels = { operation, outcome };
      byOutcome.set(outcome, labels);
    }
    this.#exchangeCalls.inc(labels);
    this.#exchangeSeconds.observe(this.#operation(operation), seconds);
  }

  storeCall(op: string, seconds: number, failed: boolean): void {
    const labels = this.#op(op);
    this.#storeSeconds.observe(labels, seconds);
    if (failed) this.#storeErrors.inc(labels);
  }

  loginAttempt(outcome: string): void {
    this.#logins.inc(this.#outcome(outcome));
  }

  /** The delivery queue whose depth, sends and drops are reported. */
  watchDelivery(queue: DeliveryReading): void {
    this.#delivery = queue;
  }

  /** Whether this instance holds the jobs lease, asked at each scrape. */
  watchJobsLease(held: () => boolean): void {
    this.#leaseHeld = held;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text GET /metrics answers. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

function labelCache(name: string): (value: string) => Record<string, string> {
  const made = new Map<string, Record<string, string>>();
  return (value) => {
    let labels = made.get(value);
    if (labels === undefined) {
      labels = { [name]: value };
      made.set(value, labels);
    }
    return labels;
  };
}

/**
 * What is read when scraped: the delivery queue's depth and running totals, and whether this
 * instance holds the jobs lease (registered in this order, after the Metrics' own).
 */
function scrapedMetrics(
  registers: Registry[],
  delivery: () => DeliveryReading | undefined,
  held: () => boolean,
): void {
  new Gauge({
    name: "bot_delivery_queue_depth",
    help: "Notices the bot starts itself (alerts, order updates, expiry warnings) queued or in flight",
    registers,
    collect() {
      this.set(delivery()?.pending ?? 0);
    },
  });
  // The queue keeps its own running totals; each scrape copies them (a counter may be set
  // from a source that only grows).
  const totals = (name: string, help: string, read: (stats: DeliveryReading["stats"]) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        const reading = delivery();
        this.reset();
        if (reading) this.inc(read(reading.stats));
      },
    });
  totals("bot_delivery_sent_total", "Notices delivered", (s) => s.sent);
  totals(
    "bot_delivery_rate_limited_total",
    "429s Telegram answered to a notice (each retried)",
    (s) => s.rateLimited,
  );
  totals("bot_delivery_retried_total", "Notices tried again after a network error or 5xx", (s) => s.retried);
  new Counter({
    name: "bot_delivery_dropped_total",
    help: "Notices dropped, by reason: blocked (the user blocked the bot) or failed (a permanent error, too many attempts, or queued after stop)",
    labelNames: ["reason"],
    registers,
    collect() {
      const reading = delivery();
      this.reset();
      this.inc({ reason: "blocked" }, reading?.stats.blocked ?? 0);
      this.inc({ reason: "failed" }, reading?.stats.failed ?? 0);
    },
  });
  new Gauge({
    name: "bot_jobs_leader",
    help: "1 while this instance holds the jobs lease and runs the background jobs (alerts, reconciliation, expiry), else 0",
    registers,
    collect() {
      this.set(held() ? 1 : 0);
    },
  });
}
