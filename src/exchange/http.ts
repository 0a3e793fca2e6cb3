/**
 * The one way this project speaks HTTP to the exchange: an undici Pool per base URL with
 * keep-alive, our own deadlines, JSON in and out, typed errors, and a retry policy that only ever
 * repeats what is safe to repeat (GET), with capped, jittered backoff that honours Retry-After.
 *
 * Time: each attempt has its own timeout, and a call as a whole has a budget that its attempts and
 * backoff share (they never add up past it). Inside a user's action (deadline.ts) the budget is
 * clipped to what is left of the action's deadline.
 *
 * @example
 * const http = new HttpClient({ baseUrl: "https://exchange.example" });
 * const { data } = await http.request({ method: "GET", path: "/v1/prices", token });
 * await http.close();
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { type Dispatcher, Pool } from "undici";
import { type Collected, CollectingRequest, utf8Text } from "../support/http-collect.ts";
import { InFlight } from "../support/in-flight.ts";
import { timeLeft } from "./deadline.ts";
import { ExchangeError, type ExchangeErrorKind, kindForStatus, readErrorBody } from "./errors.ts";

export type HttpMethod = "GET" | "POST" | "DELETE";
export type QueryValue = string | number | boolean | undefined;

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute path below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body. Leave out for a request with no body at all. */
  body?: Record<string, unknown>;
  /** Bearer token; never logged, never kept in an error. */
  token?: string;
  headers?: Record<string, string>;
  /**
   * Values that must never reappear in an error (a password, a 2FA code): they are cut out of any
   * response text kept for diagnosis. Token and the usual secret fields of `body` are added anyway.
   */
  secrets?: string[];
  /** This call's total budget across attempts, instead of the client's `budgetMs`. */
  budgetMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Parsed JSON; `null` for an empty body. */
  data: unknown;
  requestId: string | undefined;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** How long a TCP/TLS connect may take. */
  connectTimeoutMs?: number;
  /** How long one attempt may take from start to the last byte of the body. */
  timeoutMs?: number;
  /**
   * How long one call may take across all its attempts and waits (default 60 s, for background
   * work; a user's action clips it to its own deadline).
   */
  budgetMs?: number;
  /** How many times a GET is tried again after the first attempt. */
  retries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the caller gets the rate-limited error. */
  maxRetryAfterMs?: number;
  /** Bring your own dispatcher (tests, proxies); the client then does not close it. */
  dispatcher?: Dispatcher;
  /** How many sockets to the exchange at most. */
  connections?: number;
  /** Injected for tests of the retry policy. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * Told of every call when it ends (metrics): its operation (see {@link operationOf}), its
   * outcome (`ok` or the ExchangeError's kind) and how long it took, retries included.
   */
  onCall?: (operation: string, outcome: string, seconds: number) => void;
}

const SECRET_FIELDS = ["password", "security_code", "client_secret", "token", "access_token"];
const KEEP_BODY_CHARS = 1_000;
/**
 * The first attempt gets at least this even when the deadline has (nearly) passed: a call that is
 * never sent would be reported as a timeout, and a POST's timeout means "outcome unknown".
 */
const MIN_ATTEMPT_MS = 1_000;
/**
 * A POST (an order) is never clipped below this: giving up on it early only turns an order that
 * went through into "outcome unknown". The action's final sentence may then come a little late.
 */
const MIN_POST_ATTEMPT_MS = 10_000;

export class HttpClient {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  readonly #budgetMs: number;
  readonly #retries: number;
  readonly #retryBaseDelayMs: number;
  readonly #retryMaxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #inFlight = new InFlight();
  readonly #onCall: HttpClientOptions["onCall"];

  constructor(options: HttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#budgetMs = options.budgetMs ?? 60_000;
    this.#retries = options.retries ?? 3;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 250;
    this.#retryMaxDelayMs = options.retryMaxDelayMs ?? 4_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
    this.#random = options.random ?? Math.random;
    this.#onCall = options.onCall;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ??
      new Pool(this.#origin, {
        connections: options.connections ?? 16,
        connect: { timeout: options.connectTimeoutMs ?? 5_000 },
        // Below the usual 5 s of servers, so we never write to a socket the server is closing.
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 30_000,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
  }

  /**
   * Sends one request; GETs are retried on network errors, timeouts, 5xx and 429, as long as the
   * wait and another attempt still fit in the budget.
   */
  async request(request: HttpRequest): Promise<HttpResponse> {
    const onCall = this.#onCall;
    return this.#inFlight.track(() =>
      onCall === undefined ? this.#withRetries(request) : this.#observed(request, onCall),
    );
  }

  async #observed(
    request: HttpRequest,
    onCall: NonNullable<HttpClientOptions["onCall"]>,
  ): Promise<HttpResponse> {
    const started = performance.now();
    let outcome = "ok";
    try {
      return await this.#withRetries(request);
    } catch (error) {
      outcome = error instanceof ExchangeError ? error.kind : "error";
      throw error;
    } finally {
      onCall(operationOf(request.method, request.path), outcome, (performance.now() - started) / 1000);
    }
  }

  /** Resolves when no request is under way, retries included (tests wait for stragglers on this). */
  idle(): Promise<void> {
    return this.#inFlight.drain();
  }

  async #withRetries(request: HttpRequest): Promise<HttpResponse> {
    const retryable = request.method === "GET";
    const ends = performance.now() + Math.min(request.budgetMs ?? this.#budgetMs, timeLeft() ?? Infinity);
    for (let attempt = 0; ; attempt++) {
      const left = ends - performance.now();
      try {
        const floor = retryable ? MIN_ATTEMPT_MS : MIN_POST_ATTEMPT_MS;
        return await this.#attempt(request, Math.ceil(Math.min(this.#timeoutMs, Math.max(floor, left))));
      } catch (error) {
        if (!(error instanceof ExchangeError) || !retryable || attempt >= this.#retries) throw error;
        const wait = this.#retryDelay(error, attempt);
        if (wait === undefined || wait + MIN_ATTEMPT_MS > ends - performance.now()) throw error;
        await this.#sleep(wait);
      }
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #retryDelay(error: ExchangeError, attempt: number): number | undefined {
    if (error.kind === "rate-limited") {
      if (error.retryAfterMs === undefined) return this.#backoff(attempt);
      return error.retryAfterMs <= this.#maxRetryAfterMs ? error.retryAfterMs : undefined;
    }
    const transient: ExchangeErrorKind[] = ["network", "timeout", "server"];
    return transient.includes(error.kind) ? this.#backoff(attempt) : undefined;
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, capped. */
  #backoff(attempt: number): number {
    const ceiling = Math.min(this.#retryMaxDelayMs, this.#retryBaseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (this.#random() * ceiling) / 2);
  }

  async #attempt(request: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
    const path = this.#basePath + request.path;
    const headers: Record<string, string> = {
      accept: "application/json",
      "x-request-id": randomUUID(),
      ...request.headers,
    };
    if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["content-type"] = "application/json";
    }
    // The attempt's deadline is a timer of the request's own (http-collect.ts), cleared with the
    // last byte: no AbortController and abort listener per attempt, and no AbortSignal.timeout,
    // whose timer stays armed after the answer (15 s per request, tens of thousands under load).
    return this.#exchange(request, path, headers, body, timeoutMs);
  }

  async #exchange(
    request: HttpRequest,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<HttpResponse> {
    const call = new CollectingRequest();
    let answer: Collected;
    try {
      answer = await call.send(
        this.#dispatcher,
        {
          origin: this.#origin,
          method: request.method,
          path: path + queryString(request.query),
          headers,
          body,
        },
        { timeoutMs },
      );
    } catch (error) {
      // The redactor is built only here and below: a call that goes well never needs it.
      const redact = redactor(request);
      const cause = describe(error, redact);
      const timedOut = isTimeout(error);
      const kind = timedOut ? "timeout" : "network";
      if (call.statusCode === 0) {
        throw fail(
          request,
          path,
          redact,
          kind,
          `${request.method} ${path}: ${timedOut ? "no answer in time" : "could not reach the exchange"} (${cause.code ?? cause.name})`,
          { cause },
        );
      }
      throw fail(request, path, redact, kind, `${request.method} ${path}: the answer was cut off`, {
        status: call.statusCode,
        requestId: requestIdOf(call.headers),
        cause,
      });
    }

    const status = answer.statusCode;
    const requestId = requestIdOf(answer.headers);
    const text = utf8Text(answer.body);
    const parsed = parseJson(text);
    if (status >= 200 && status < 300 && parsed.ok) return { status, data: parsed.value, requestId };

    const redact = redactor(request);
    if (status >= 200 && status < 300) {
      throw fail(
        request,
        path,
        redact,
        "bad-response",
        `${request.method} ${path}: the exchange answered ${status} with a body that is not JSON`,
        {
          status,
          requestId,
          body: redact(text).slice(0, KEEP_BODY_CHARS),
        },
      );
    }

    const kept = parsed.ok ? redactDeep(parsed.value, redact) : redact(text).slice(0, KEEP_BODY_CHARS);
    const { message, fieldErrors } = readErrorBody(kept);
    const kind = kindForStatus(status);
    const retryAfterMs =
      kind === "rate-limited" ? parseRetryAfter(headerValue(answer.headers, "retry-after")) : undefined;
    throw fail(
      request,
      path,
      redact,
      kind,
      `${request.method} ${path}: ${status}${message ? ` ${message}` : ""}`,
      {
        status,
        requestId,
        fieldErrors,
        retryAfterMs,
        body: kept,
      },
    );
  }
}

/** Path segments that are always followed by an id. */
const BEFORE_AN_ID = new Set(["users", "transactions", "bank-accounts"]);

/**
 * A call's name for metrics, from a small fixed set: the method and the path below the base URL,
 * with ids as `:id` (a segment after users/transactions/bank-accounts, or one with a digit other
 * than the version), so a label never carries a user's id.
 *
 * @example
 * operationOf("GET", "/api/v1/partners/users/17/balances"); // "GET /api/v1/partners/users/:id/balances"
 */
export function operationOf(method: HttpMethod, path: string): string {
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (BEFORE_AN_ID.has(segments[i - 1] as string) || (/\d/.test(segment) && !/^v\d+$/.test(segment))) {
      segments[i] = ":id";
    }
  }
  return `${method} ${segments.join("/")}`;
}

type ExchangeErrorDetailsLite = ConstructorParameters<typeof ExchangeError>[1];

function fail(
  request: HttpRequest,
  path: string,
  redact: (text: string) => string,
  kind: ExchangeErrorKind,
  message: string,
  extra: Partial<ExchangeErrorDetailsLite> = {},
): ExchangeError {
  return new ExchangeError(redact(message), { kind, method: request.method, path, ...extra });
}

function requestIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  return headerValue(headers, "x-request-id") ?? headerValue(headers, "request-id");
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After is either seconds or an HTTP date (RFC 9110, 10.2.3). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // Whole seconds per RFC 9110; fractional seconds are tolerated rather than misread as a date.
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1_000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isTimeout(error: unknown): boolean {
  const { name, code } = error as { name?: string; code?: string };
  return (
    name === "TimeoutError" ||
    code === "UND_ERR_CONNECT_TIMEOUT" ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  );
}

/** A low-level error reduced to name, code and message: undici errors can hold sockets and more. */
function describe(
  error: unknown,
  redact: (text: string) => string,
): { name: string; code?: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      ...(typeof code === "string" ? { code } : {}),
      message: redact(error.message),
    };
  }
  return { name: "Error", message: redact(String(error)) };
}

function redactor(request: HttpRequest): (text: string) => string {
  const secrets = new Set<string>(request.secrets ?? []);
  if (request.token) secrets.add(request.token);
  for (const field of SECRET_FIELDS) {
    const value = request.body?.[field] ?? request.query?.[field];
    if (value !== undefined && value !== null && String(value).length > 0) secrets.add(String(value));
  }
  const list = [...secrets].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
  return (text) => list.reduce((acc, secret) => acc.split(secret).join("[redacted]"), text);
}

function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  // A 2FA code goes out as a JSON number (v1/send) and may come back as one.
  if (typeof value === "number") return redact(String(value)) === String(value) ? value : "[redacted]";
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)]));
  }
  return value;
}
