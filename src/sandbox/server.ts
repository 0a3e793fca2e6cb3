/**
 * The sandbox exchange as a real HTTP server on loopback: the whole of the exchange's API, stateful,
 * on a clock that tests drive, with switches for misbehaviour.
 *
 * @example
 * const sandbox = await startSandbox({ clock: new ManualClock(Date.parse("2026-01-01T00:00:00Z")) });
 * const http = new HttpClient({ baseUrl: sandbox.url });
 * const api = new AccountApi(http, { clientId: 1, clientSecret: "sandbox-secret" });
 * const { access_token } = await api.login({ ...sandbox.demo, securityCode: sandbox.currentCode() });
 * sandbox.clock.advance(3600_000); // the token has now expired
 * await sandbox.close();
 */
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import Big from "big.js";
import { type AdjustableClock, OffsetClock } from "../support/clock.ts";
import { accountRoutes } from "./account-routes.ts";
import { controlRoutes } from "./control-routes.ts";
import { type DepositInput, type DepositResult, deposit } from "./deposits.ts";
import type { Deps } from "./deps.ts";
import { Faults, matches } from "./faults.ts";
import { HttpError, type Reply } from "./http-kit.ts";
import { Market } from "./market.ts";
import { partnerRoutes } from "./partner-routes.ts";
import { RateLimiter } from "./rate-limit.ts";
import { type RequestContext, Router } from "./router.ts";
import { DEMO, type Seeded, seed } from "./seed.ts";
import { SandboxState } from "./state.ts";
import { totpCodeAt } from "./totp.ts";

export type { AdjustableClock } from "../support/clock.ts";
export type { FaultMatch, Faults } from "./faults.ts";
export type { SandboxState } from "./state.ts";

export interface SandboxOptions {
  /** Default: new OffsetClock() (real time, can be advanced); tests pass a ManualClock. */
  clock?: AdjustableClock;
  /** Default 127.0.0.1 and 0 (a random free port). */
  host?: string;
  port?: number;
  /** Defaults: 1 and "sandbox-secret". */
  clientId?: number;
  clientSecret?: string;
  /** Requests per token per sandbox-clock minute; default 60; 0 disables. */
  rateLimitPerMinute?: number;
  /** Orders go opened → success (or error) after this much sandbox-clock time; default 5000. */
  settleAfterMs?: number;
  /** Bearer token accepted on the partner API; default "sandbox-partner-token". */
  partnerToken?: string;
}

export interface RecordedRequest {
  method: string;
  /** Without the query string and without a trailing slash. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON (or form) body; undefined when there was none or it did not parse. */
  body: unknown;
  rawBody: string;
  /** Sandbox-clock time of arrival. */
  at: number;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  clock: AdjustableClock;
  /** The demo account. */
  demo: { email: string; password: string; totpSecret: string };
  /** Accounts seeded at start (demo, business, one without 2FA, one partner user who passed KYC). */
  seeded: Seeded;
  clientId: number;
  clientSecret: string;
  partnerToken: string;
  /** A valid TOTP code now, on the sandbox clock (default: the demo account's). */
  currentCode(email?: string): string;
  faults: Faults;
  /** Every request to the exchange API received (control routes under /_sandbox are not). */
  requests: RecordedRequest[];
  /** `path` may end in `*` to count a prefix. */
  countRequests(method: string, path: string): number;
  /** Moves a price now; it stays there (pass `{drift: true}` to let it keep drifting around it). */
  setPrice(currency: string, eurPrice: string, options?: { drift?: boolean }): void;
  /** Simulates money arriving from outside (wire transfer, coins to a deposit address). */
  deposit(input: DepositInput): DepositResult;
  market: Market;
  state: SandboxState;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? new OffsetClock();
  const clientId = options.clientId ?? 1;
  const clientSecret = options.clientSecret ?? "sandbox-secret";
  const partnerToken = options.partnerToken ?? "sandbox-partner-token";
  const state = new SandboxState(clock, {
    settleAfterMs: options.settleAfterMs ?? 5000,
    bankAutoVerifyMs: 10 * 60_000,
    kycDecisionMs: 60_000,
    tokenLifetimeSeconds: 3600,
  });
  const market = new Market();
  const seeded = seed(state);
  const faults = new Faults(state);
  const limiter = new RateLimiter(clock, options.rateLimitPerMinute ?? 60);
  const deps: Deps = { state, market, limiter, config: { clientId, clientSecret, partnerToken } };

  const api = new Router();
  accountRoutes(api, deps);
  partnerRoutes(api, deps);

  let url = "";
  const control = new Router();
  controlRoutes(control, {
    state,
    market,
    faults,
    clock,
    demo: { ...DEMO },
    url: () => url,
    clientId,
    clientSecret,
  });

  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const dispatch = async (router: Router, ctx: RequestContext): Promise<Reply> => {
    try {
      state.catchUp();
      const found = router.find(ctx.method, ctx.path);
      if (found instanceof HttpError) return found.reply;
      if (!found) {
        return {
          status: 404,
          body: { message: `The route ${ctx.path.replace(/^\//, "")} could not be found.` },
        };
      }
      ctx.params = found.params;
      const reply = await found.handler(ctx);
      return { ...reply, headers: { ...ctx.replyHeaders, ...reply.headers } };
    } catch (error) {
      if (error instanceof HttpError)
        return { ...error.reply, headers: { ...ctx.replyHeaders, ...error.reply.headers } };
      console.error("sandbox: handler failed", ctx.method, ctx.path, error);
      return { status: 500, body: { message: "Server Error" } };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    if (rawBody === undefined) {
      send(res, { status: 413, body: { message: "The request body is too large." } });
      return;
    }
    const method = (req.method ?? "GET").toUpperCase();
    const parsedUrl = new URL(req.url ?? "/", "http://sandbox.invalid");
    const path = parsedUrl.pathname.replace(/\/+$/, "") || "/";
    const query: Record<string, string> = {};
    for (const [key, value] of parsedUrl.searchParams) query[key] = value;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    const parsed = parseBody(rawBody, headers["content-type"]);
    const requestId = headers["x-request-id"];
    const reply = (r: Reply) => send(res, r, requestId);
    const ctx: RequestContext = {
      method,
      path,
      query,
      headers,
      body: parsed.ok ? parsed.body : undefined,
      input: {
        ...query,
        ...(parsed.ok && isPlainObject(parsed.body) ? parsed.body : {}),
      },
      params: {},
      replyHeaders: {},
    };

    if (path === "/_sandbox" || path.startsWith("/_sandbox/")) {
      reply(parsed.ok ? await dispatch(control, ctx) : malformed());
      return;
    }

    requests.push({ method, path, query, headers, body: ctx.body, rawBody, at: clock.now() });

    const wait = faults.latencyFor(method, path);
    if (wait > 0) await delay(wait);
    const fault = faults.take(method, path);
    if (fault?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "fail") {
      reply({ status: fault.status, body: { message: STATUS_CODES[fault.status] ?? "Server Error" } });
      return;
    }
    if (fault?.kind === "rate-limit") {
      reply({
        status: 429,
        body: { message: "Too Many Attempts." },
        headers: { "retry-after": String(fault.retryAfterSeconds), "x-ratelimit-remaining": "0" },
      });
      return;
    }
    if (!parsed.ok) {
      reply(malformed());
      return;
    }
    if (fault?.kind === "drop-answer") {
      await dispatch(api, ctx);
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "hold") {
      const applied = fault.apply ? await dispatch(api, ctx) : undefined;
      faults.held.push({
        method,
        path,
        applied: applied !== undefined,
        release: (answer) => {
          if (!answer) {
            req.socket.destroy();
            return;
          }
          if (applied) reply(applied);
          else void dispatch(api, ctx).then(reply);
        },
      });
      return;
    }
    reply(await dispatch(api, ctx));
  };

  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 0 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("sandbox: request failed", error);
      if (!res.headersSent && !res.destroyed) send(res, { status: 500, body: { message: "Server Error" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // Benchmarks open hundreds of connections at once.
  server.maxConnections = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  return {
    url,
    clock,
    demo: { ...DEMO },
    seeded,
    clientId,
    clientSecret,
    partnerToken,
    currentCode(email = DEMO.email) {
      const secret = state.accountByEmail(email)?.totpSecret;
      if (secret === undefined) throw new RangeError(`No sandbox account with 2FA for ${email}.`);
      return totpCodeAt(secret, clock.now());
    },
    faults,
    requests,
    countRequests(method, path) {
      const want = { method: method.toUpperCase(), path: path === "/" ? path : path.replace(/\/+$/, "") };
      return requests.filter((r) => matches(want, r.method, r.path)).length;
    },
    setPrice(currency, eurPrice, priceOptions = {}) {
      market.setPrice(currency.toLowerCase(), new Big(eurPrice), clock.now(), priceOptions);
    },
    deposit(input) {
      return deposit(state, market, input);
    },
    market,
    state,
    async close() {
      faults.release({ answer: false });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}

function malformed(): Reply {
  return { status: 400, body: { message: "The request body is not valid JSON." } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body as text, or undefined past the size limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON, or a form, or nothing; Laravel accepts both encodings. */
function parseBody(
  raw: string,
  contentType: string | undefined,
): { ok: true; body: unknown } | { ok: false } {
  if (raw.trim() === "") return { ok: true, body: undefined };
  if (contentType?.includes("application/x-www-form-urlencoded")) {
    return { ok: true, body: Object.fromEntries(new URLSearchParams(raw)) };
  }
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

function send(res: ServerResponse, reply: Reply, requestId?: string): void {
  if (res.destroyed || res.writableEnded || res.headersSent) return;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "cache-control": "no-cache, private",
    ...(requestId ? { "x-request-id": requestId } : {}),
    ...reply.headers,
  };
  const text = reply.status === 204 || reply.body === undefined ? "" : JSON.stringify(reply.body);
  headers["content-length"] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}
