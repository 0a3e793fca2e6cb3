/**
 * `GET /readyz` on the bot's HTTP server: may this instance be sent work? A load balancer (or
 * Kubernetes) asks it to decide where updates go; `/healthz` (webhook.ts) only says the process
 * is up, which is what a container's health check restarts on.
 *
 * Ready means all of:
 * - store: a real round trip answers (a read of a key no cache holds), within `timeoutMs`;
 * - telegram: the Bot API answered getMe, asked at most once per `everyMs` whatever the number of
 *   probes (the outcome, good or bad, is kept that long), so probes never hammer Telegram;
 * - shutdown: the instance is not shutting down (draining its updates).
 *
 * The answer is 200 or 503 with a small JSON naming each check's state; the reasons are fixed
 * words (never an error's text: the endpoint is public).
 *
 * @example
 * const readiness = instanceReadiness({ store, botToken, apiRoot, shuttingDown: () => stopping, log });
 * routes.push(readinessRoute(readiness));
 */
import { Api, GrammyError } from "grammy";
import { undiciFetch } from "../bot/transport/undici-fetch.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import type { HttpRoute } from "./webhook.ts";

/** A check resolves with `ok` or with a short reason why not; a rejection counts as `failed`. */
export type ReadinessCheck = () => Promise<string>;

export const OK = "ok";

export interface ReadinessReport {
  ready: boolean;
  /** The names of the checks that are not `ok`. */
  failed: string[];
  checks: Record<string, string>;
}

export class Readiness {
  readonly #checks: Array<[string, ReadinessCheck]>;
  readonly #timeoutMs: number;
  readonly #onChange: ((report: ReadinessReport) => void) | undefined;
  #lastReady: boolean | undefined;

  constructor(
    checks: Record<string, ReadinessCheck>,
    options: {
      /** How long one check may take before it counts as `timed out` (default 2 s). */
      timeoutMs?: number;
      /** Told when readiness changes (main.ts logs it). */
      onChange?: (report: ReadinessReport) => void;
    } = {},
  ) {
    this.#checks = Object.entries(checks);
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#onChange = options.onChange;
  }

  async check(): Promise<ReadinessReport> {
    const results = await Promise.all(this.#checks.map(([, check]) => this.#bounded(check)));
    const checks: Record<string, string> = {};
    const failed: string[] = [];
    this.#checks.forEach(([name], i) => {
      const result = results[i] ?? "failed";
      checks[name] = result;
      if (result !== OK) failed.push(name);
    });
    const report = { ready: failed.length === 0, failed, checks };
    if (this.#lastReady !== undefined && this.#lastReady !== report.ready) this.#onChange?.(report);
    this.#lastReady = report.ready;
    return report;
  }

  async #bounded(check: ReadinessCheck): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`timed out after ${this.#timeoutMs} ms`), this.#timeoutMs);
    });
    try {
      return await Promise.race([check().catch(() => "failed"), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Key of no cache (store/cached.ts caches only its listed prefixes): a read goes to the backend. */
const PROBE_KEY = "readyz:probe";

/** The store answers a read: one real round trip to SQLite or Redis. */
export function storeReachable(store: Pick<Store, "get">): ReadinessCheck {
  return async () => {
    try {
      await store.get(PROBE_KEY);
      return OK;
    } catch {
      return "unreachable";
    }
  };
}

/**
 * A probe run at most once per `everyMs`: concurrent checks share the one under way, and its
 * outcome is kept for `everyMs` from when it started. `describe` turns a failure into its reason.
 */
export function cachedProbe(
  probe: () => Promise<unknown>,
  options: { everyMs: number; clock?: Clock; describe?: (error: unknown) => string },
): ReadinessCheck {
  const now = () => (options.clock ?? { now: Date.now }).now();
  let last: { at: number; result: Promise<string> } | undefined;
  return () => {
    if (last === undefined || now() - last.at >= options.everyMs) {
      last = {
        at: now(),
        result: probe().then(
          () => OK,
          (error: unknown) => options.describe?.(error) ?? "unreachable",
        ),
      };
    }
    return last.result;
  };
}

export function notShuttingDown(shuttingDown: () => boolean): ReadinessCheck {
  return async () => (shuttingDown() ? "shutting down" : OK);
}

/** `GET /readyz` as a route of the bot's HTTP server (webhook.ts). */
export function readinessRoute(readiness: Readiness): HttpRoute {
  return (req, res, path) => {
    if (path !== "/readyz" || req.method !== "GET") return false;
    req.resume();
    readiness.check().then(
      (report) => {
        res
          .writeHead(report.ready ? 200 : 503, {
            "content-type": "application/json",
            "cache-control": "no-store",
          })
          .end(JSON.stringify(report));
      },
      () => res.writeHead(503, { "content-type": "application/json" }).end('{"ready":false}'),
    );
    return true;
  };
}

/** /readyz asks Telegram's getMe at most this often (default), however often it is probed. */
export const TELEGRAM_CHECK_EVERY_MS = 30_000;

/** The bot instance's readiness as main.ts builds it: store, Telegram, shutdown. */
export function instanceReadiness(options: {
  store: Pick<Store, "get">;
  botToken: string;
  apiRoot: string;
  shuttingDown: () => boolean;
  log: Logger;
  telegramEveryMs?: number;
  clock?: Clock;
  timeoutMs?: number;
}): Readiness {
  const { log } = options;
  // A client of its own, without the bot's retries and transformers: a probe must fail fast, not
  // wait out 5xx or 429s.
  const probe = new Api(options.botToken, {
    apiRoot: options.apiRoot,
    fetch: undiciFetch(),
    timeoutSeconds: 5,
  });
  return new Readiness(
    {
      store: storeReachable(options.store),
      telegram: cachedProbe(() => probe.getMe(), {
        everyMs: options.telegramEveryMs ?? TELEGRAM_CHECK_EVERY_MS,
        ...(options.clock ? { clock: options.clock } : {}),
        describe: (error) => (error instanceof GrammyError ? `refused (${error.error_code})` : "unreachable"),
      }),
      shutdown: notShuttingDown(options.shuttingDown),
    },
    {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      onChange: (report) =>
        report.ready ? log.info("ready again") : log.warn({ checks: report.checks }, "not ready"),
    },
  );
}
