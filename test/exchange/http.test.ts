import { afterEach, describe, expect, it } from "vitest";
import { withDeadline } from "../../src/exchange/deadline.ts";
import type { ExchangeErrorKind } from "../../src/exchange/errors.ts";
import { HttpClient, type HttpClientOptions, parseRetryAfter } from "../../src/exchange/http.ts";
import { failure } from "../support/failure.ts";
import {
  closedPortUrl,
  delayed,
  drop,
  empty,
  html,
  json,
  type RawServer,
  type Responder,
  sequence,
  stalled,
  startRawServer,
  text,
  truncated,
} from "../support/raw-server.ts";

const servers: RawServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  // Servers first: closing them ends any request a client still waits for.
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function client(baseUrl: string, options: Partial<HttpClientOptions> = {}) {
  const sleeps: number[] = [];
  const http = new HttpClient({
    baseUrl,
    retries: 0,
    retryBaseDelayMs: 10,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  clients.push(http);
  return { http, sleeps };
}

async function serve(responder: Responder, options: Partial<HttpClientOptions> = {}) {
  const server = await startRawServer(responder);
  servers.push(server);
  return { server, ...client(server.url, options) };
}

describe("HttpClient: success", () => {
  it("returns parsed JSON, the status and the exchange's request id", async () => {
    const { http } = await serve(json(200, { balance: "12.50" }, { "x-request-id": "req-123" }));
    const response = await http.request({ method: "GET", path: "/v1/balance" });
    expect(response).toEqual({ status: 200, data: { balance: "12.50" }, requestId: "req-123" });
  });

  it("reads the request id from `request-id` too", async () => {
    const { http } = await serve(json(200, [], { "request-id": "alt-7" }));
    expect((await http.request({ method: "GET", path: "/x" })).requestId).toBe("alt-7");
  });

  it("gives data null for a 200 with an empty body and for a 204", async () => {
    const { http } = await serve(sequence(empty(200), empty(204), text(200, "  \n")));
    expect(await http.request({ method: "GET", path: "/a" })).toMatchObject({ status: 200, data: null });
    expect(await http.request({ method: "POST", path: "/v1/auth/logout" })).toMatchObject({
      status: 204,
      data: null,
    });
    expect(await http.request({ method: "GET", path: "/c" })).toMatchObject({ status: 200, data: null });
  });

  it("accepts any JSON value as a success body", async () => {
    const { http } = await serve(sequence(json(200, "created"), json(200, [1, 2]), json(200, 42)));
    expect((await http.request({ method: "GET", path: "/a" })).data).toBe("created");
    expect((await http.request({ method: "GET", path: "/b" })).data).toEqual([1, 2]);
    expect((await http.request({ method: "GET", path: "/c" })).data).toBe(42);
  });
});

describe("HttpClient: error mapping", () => {
  it("maps a refused connection to network", async () => {
    const { http } = client(await closedPortUrl());
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error.kind).toBe("network");
    expect(error.status).toBeUndefined();
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/v1/prices");
    expect(error.cause).toMatchObject({ code: "ECONNREFUSED" });
    expect(error.outcomeUnknown).toBe(true);
  });

  it("maps a connection dropped without an answer to network", async () => {
    const { http, server } = await serve(drop());
    const error = await failure(http.request({ method: "GET", path: "/v1/balance" }));
    expect(error.kind).toBe("network");
    expect(error.status).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("maps an answer later than timeoutMs to timeout", async () => {
    const { http } = await serve(delayed(1_000, json(200, { ok: true })), { timeoutMs: 200 });
    const error = await failure(http.request({ method: "GET", path: "/v1/balance" }));
    expect(error.kind).toBe("timeout");
    expect(error.status).toBeUndefined();
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain("GET /v1/balance");
  });

  it("maps a body that stops arriving to timeout", async () => {
    const { http } = await serve(stalled(200, '{"balance":'), { timeoutMs: 200 });
    const error = await failure(http.request({ method: "GET", path: "/v1/balance" }));
    expect(error.kind).toBe("timeout");
    expect(error.status).toBe(200);
  });

  it("maps a truncated body (connection closed before Content-Length bytes) to network", async () => {
    const { http } = await serve(truncated(200, '{"balance":"12'));
    const error = await failure(http.request({ method: "GET", path: "/v1/balance" }));
    expect(error.kind).toBe("network");
    expect(error.status).toBe(200);
    expect(error.message).toContain("cut off");
    expect(error.cause).toMatchObject({ name: expect.any(String), message: expect.any(String) });
  });

  it("maps Laravel's 401 to unauthenticated with its message", async () => {
    const { http } = await serve(json(401, { message: "Unauthenticated." }, { "x-request-id": "r-401" }));
    const error = await failure(http.request({ method: "GET", path: "/v1/user/info", token: "old" }));
    expect(error.kind).toBe("unauthenticated");
    expect(error.status).toBe(401);
    expect(error.requestId).toBe("r-401");
    expect(error.message).toBe("GET /v1/user/info: 401 Unauthenticated.");
    expect(error.body).toEqual({ message: "Unauthenticated." });
    expect(error.fieldErrors).toEqual({});
    expect(error.outcomeUnknown).toBe(false);
  });

  it("maps 403 to forbidden and 404 (even as HTML) to not-found", async () => {
    const { http } = await serve(
      sequence(json(403, { message: "This action is unauthorized." }), html(404, "<h1>Not Found</h1>")),
    );
    const forbidden = await failure(http.request({ method: "GET", path: "/a" }));
    expect(forbidden).toMatchObject({ kind: "forbidden", status: 403 });
    expect(forbidden.message).toContain("This action is unauthorized.");
    const notFound = await failure(http.request({ method: "GET", path: "/v1/transactions/9" }));
    expect(notFound).toMatchObject({ kind: "not-found", status: 404, body: "<h1>Not Found</h1>" });
  });

  it("maps 422 to validation with Laravel's field errors", async () => {
    const { http } = await serve(
      json(422, {
        message: "The given data was invalid.",
        errors: {
          amount: ["The amount must be at least 10.", "The amount must be a number."],
          currency_code: ["The selected currency code is invalid."],
        },
      }),
    );
    const error = await failure(http.request({ method: "POST", path: "/v1/buy", body: { amount: "1" } }));
    expect(error.kind).toBe("validation");
    expect(error.status).toBe(422);
    expect(error.message).toBe("POST /v1/buy: 422 The given data was invalid.");
    expect(error.fieldErrors).toEqual({
      amount: ["The amount must be at least 10.", "The amount must be a number."],
      currency_code: ["The selected currency code is invalid."],
    });
  });

  it("maps 429 with Retry-After in seconds to rate-limited with retryAfterMs", async () => {
    const { http } = await serve(json(429, { message: "Too Many Attempts." }, { "retry-after": "7" }));
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error).toMatchObject({ kind: "rate-limited", status: 429, retryAfterMs: 7_000 });
  });

  it("maps 429 with Retry-After as an HTTP date to the time left until then", async () => {
    const until = new Date(Date.now() + 5_000).toUTCString();
    const { http } = await serve(json(429, {}, { "retry-after": until }));
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error.kind).toBe("rate-limited");
    // An HTTP date has whole seconds, so up to a second is lost to rounding.
    expect(error.retryAfterMs).toBeGreaterThan(2_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(5_000);
  });

  it("maps 429 without Retry-After to rate-limited with no retryAfterMs", async () => {
    const { http } = await serve(empty(429));
    const error = await failure(http.request({ method: "POST", path: "/v1/buy", body: {} }));
    expect(error).toMatchObject({ kind: "rate-limited", retryAfterMs: undefined, body: null });
  });

  it.each([500, 502, 503, 504])("maps %i to server", async (status) => {
    const { http } = await serve(html(status, "<html><body>Bad Gateway</body></html>"));
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error).toMatchObject({ kind: "server", status });
    expect(error.body).toBe("<html><body>Bad Gateway</body></html>");
    expect(error.outcomeUnknown).toBe(true);
  });

  it.each([400, 405, 409, 410, 418, 302])("maps any other status such as %i to http", async (status) => {
    const { http } = await serve(json(status, { message: "nope" }));
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error).toMatchObject({ kind: "http", status });
    expect(error.message).toBe(`GET /v1/prices: ${status} nope`);
  });

  it("maps a 200 with an HTML body to bad-response and keeps the start of the text", async () => {
    const page = `<!DOCTYPE html><html><body>Maintenance${" ".repeat(2_000)}</body></html>`;
    const { http } = await serve(html(200, page));
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error.kind).toBe("bad-response");
    expect(error.status).toBe(200);
    expect(error.message).toContain("not JSON");
    expect(typeof error.body).toBe("string");
    expect(error.body as string).toMatch(/^<!DOCTYPE html><html><body>Maintenance/);
    expect((error.body as string).length).toBeLessThanOrEqual(1_000);
  });

  it("maps non-Laravel error shapes cleanly", async () => {
    const { http } = await serve(
      sequence(
        json(400, { error: "x" }),
        json(500, "Something broke"),
        json(422, ["amount", "too small"]),
        json(422, { errors: { amount: "too small", code: [1, "wrong"] } }),
        text(503, "upstream connect error"),
        json(500, null),
      ),
    );
    const call = () => failure(http.request({ method: "GET", path: "/e" }));

    const errorField = await call();
    expect(errorField).toMatchObject({ kind: "http", status: 400, body: { error: "x" }, fieldErrors: {} });
    expect(errorField.message).toBe("GET /e: 400 x");

    const jsonString = await call();
    expect(jsonString).toMatchObject({ kind: "server", body: "Something broke", fieldErrors: {} });
    expect(jsonString.message).toBe("GET /e: 500");

    const array = await call();
    expect(array).toMatchObject({ kind: "validation", body: ["amount", "too small"], fieldErrors: {} });

    const oddErrors = await call();
    expect(oddErrors.fieldErrors).toEqual({ amount: ["too small"], code: ["wrong"] });

    const plain = await call();
    expect(plain).toMatchObject({ kind: "server", status: 503, body: "upstream connect error" });

    const nullBody = await call();
    expect(nullBody).toMatchObject({ kind: "server", status: 500, body: null });
  });

  it("keeps at most 1,000 characters of a non-JSON error body", async () => {
    const { http } = await serve(text(500, "y".repeat(5_000)));
    const error = await failure(http.request({ method: "GET", path: "/e" }));
    expect(error.body).toBe("y".repeat(1_000));
  });
});

describe("HttpClient: retry policy", () => {
  it("retries a GET that failed twice with 503 and returns the third answer", async () => {
    const { http, server, sleeps } = await serve(
      sequence(json(503, {}), json(503, {}), json(200, { price: 1 })),
      { retries: 3 },
    );
    const response = await http.request({ method: "GET", path: "/v1/prices" });
    expect(response.data).toEqual({ price: 1 });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("gives up on a GET after `retries` extra attempts and throws the last error", async () => {
    const { http, server, sleeps } = await serve(json(503, { message: "down" }), { retries: 2 });
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error).toMatchObject({ kind: "server", status: 503 });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("retries a GET after a dropped connection and after a timeout", async () => {
    const { http, server } = await serve(
      sequence(drop(), delayed(1_000, json(200, "late")), json(200, "ok")),
      { retries: 3, timeoutMs: 200 },
    );
    expect((await http.request({ method: "GET", path: "/v1/balance" })).data).toBe("ok");
    expect(server.requests).toHaveLength(3);
  });

  it("retries a GET on a refused connection", async () => {
    const { http, sleeps } = client(await closedPortUrl(), { retries: 2 });
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error.kind).toBe("network");
    expect(sleeps).toHaveLength(2);
  });

  it.each<[string, Responder, ExchangeErrorKind]>([
    ["503", json(503, {}), "server"],
    ["a dropped connection", drop(), "network"],
    ["429 with Retry-After: 1", json(429, {}, { "retry-after": "1" }), "rate-limited"],
    ["a truncated body", truncated(200, '{"status":'), "network"],
  ])("never sends a POST again after %s", async (_label, responder, kind) => {
    const { http, server, sleeps } = await serve(sequence(responder, json(200, { status: "created" })), {
      retries: 3,
    });
    const error = await failure(
      http.request({ method: "POST", path: "/v1/buy", body: { amount: "100", currency_code: "btc" } }),
    );
    expect(error.kind).toBe(kind);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("never sends a POST again after a timeout", async () => {
    const { http, server, sleeps } = await serve(
      sequence(delayed(1_000, json(200, { status: "created" })), json(200, { status: "created" })),
      { retries: 3, timeoutMs: 200 },
    );
    const error = await failure(http.request({ method: "POST", path: "/v1/sell", body: { amount: "1" } }));
    expect(error.kind).toBe("timeout");
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each<[string, Responder, ExchangeErrorKind]>([
    ["503", json(503, {}), "server"],
    ["a dropped connection", drop(), "network"],
  ])("never sends a DELETE again after %s", async (_label, responder, kind) => {
    const { http, server, sleeps } = await serve(sequence(responder, json(200, { status: "destroyed" })), {
      retries: 3,
    });
    const error = await failure(http.request({ method: "DELETE", path: "/v1/bank-accounts/7" }));
    expect(error.kind).toBe(kind);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.method).toBe("DELETE");
    expect(sleeps).toEqual([]);
  });

  it("waits what Retry-After says before asking again", async () => {
    const { http, server, sleeps } = await serve(
      sequence(json(429, { message: "Too Many Attempts." }, { "retry-after": "1" }), json(200, { ok: 1 })),
      { retries: 3 },
    );
    expect((await http.request({ method: "GET", path: "/v1/prices" })).data).toEqual({ ok: 1 });
    expect(sleeps).toEqual([1_000]);
    expect(server.requests).toHaveLength(2);
  });

  it("waits until the HTTP date a Retry-After names", async () => {
    const until = new Date(Date.now() + 4_000).toUTCString();
    const { http, sleeps } = await serve(sequence(json(429, {}, { "retry-after": until }), json(200, 1)), {
      retries: 1,
    });
    await http.request({ method: "GET", path: "/v1/prices" });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1_000);
    expect(sleeps[0]).toBeLessThanOrEqual(4_000);
  });

  it("backs off when a 429 has no Retry-After", async () => {
    const { http, sleeps } = await serve(sequence(empty(429), json(200, 1)), {
      retries: 1,
      retryBaseDelayMs: 100,
      random: () => 0.5,
    });
    await http.request({ method: "GET", path: "/v1/prices" });
    expect(sleeps).toEqual([75]);
  });

  it("does not wait for a Retry-After beyond maxRetryAfterMs: the caller gets the 429", async () => {
    const { http, server, sleeps } = await serve(
      sequence(json(429, {}, { "retry-after": "60" }), json(200, 1)),
      {
        retries: 3,
        maxRetryAfterMs: 10_000,
      },
    );
    const error = await failure(http.request({ method: "GET", path: "/v1/prices" }));
    expect(error).toMatchObject({ kind: "rate-limited", retryAfterMs: 60_000 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each<[number, ExchangeErrorKind]>([
    [422, "validation"],
    [401, "unauthenticated"],
    [403, "forbidden"],
    [404, "not-found"],
    [400, "http"],
  ])("never retries a %i", async (status, kind) => {
    const { http, server, sleeps } = await serve(sequence(json(status, { message: "no" }), json(200, 1)), {
      retries: 3,
    });
    const error = await failure(http.request({ method: "GET", path: "/v1/limits" }));
    expect(error.kind).toBe(kind);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("never retries a 200 whose body is not JSON", async () => {
    const { http, server } = await serve(sequence(html(200, "<html></html>"), json(200, 1)), { retries: 3 });
    expect((await failure(http.request({ method: "GET", path: "/v1/prices" }))).kind).toBe("bad-response");
    expect(server.requests).toHaveLength(1);
  });

  it("backs off exponentially with equal jitter, capped at retryMaxDelayMs", async () => {
    const run = async (random: () => number) => {
      const { http, server, sleeps } = await serve(json(503, {}), {
        retries: 6,
        retryBaseDelayMs: 100,
        retryMaxDelayMs: 1_000,
        random,
      });
      await failure(http.request({ method: "GET", path: "/v1/prices" }));
      expect(server.requests).toHaveLength(7);
      return sleeps;
    };
    // Ceilings: 100, 200, 400, 800, then the cap 1000; the wait is between half the ceiling and all of it.
    expect(await run(() => 0)).toEqual([50, 100, 200, 400, 500, 500]);
    expect(await run(() => 0.5)).toEqual([75, 150, 300, 600, 750, 750]);
    expect(await run(() => 0.999_999)).toEqual([100, 200, 400, 800, 1_000, 1_000]);

    const randoms = [0.9, 0.1, 0.7, 0.3, 1, 0];
    const mixed = await run(() => randoms.shift() ?? 0);
    const ceilings = [100, 200, 400, 800, 1_000, 1_000];
    mixed.forEach((wait, i) => {
      const ceiling = ceilings[i] as number;
      expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
      expect(wait).toBeLessThanOrEqual(ceiling);
    });
  });
});

describe("HttpClient: the request that goes out", () => {
  it("joins a base URL with a path prefix and the request path", async () => {
    const server = await startRawServer(json(200, {}));
    servers.push(server);
    for (const base of [`${server.url}/prefix`, `${server.url}/prefix/`, `${server.url}/prefix//`]) {
      await client(base).http.request({ method: "GET", path: "/v1/prices" });
    }
    await client(server.url).http.request({ method: "GET", path: "/v1/prices" });
    await client(`${server.url}/`).http.request({ method: "GET", path: "/v1/prices" });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/prefix/v1/prices",
      "/prefix/v1/prices",
      "/prefix/v1/prices",
      "/v1/prices",
      "/v1/prices",
    ]);
  });

  it("an error names the full path, prefix included, but never the query", async () => {
    const server = await startRawServer(json(404, {}));
    servers.push(server);
    const error = await failure(
      client(`${server.url}/api`).http.request({ method: "GET", path: "/v1/x", query: { iban: "DE89" } }),
    );
    expect(error.path).toBe("/api/v1/x");
    expect(error.message).not.toContain("DE89");
  });

  it("encodes the query and leaves out undefined values", async () => {
    const { http, server } = await serve(json(200, {}));
    await http.request({
      method: "GET",
      path: "/v1/fees/buy",
      query: { amount: "100.50", q: "a b&c=d/é?", n: 5, flag: false, skip: undefined },
    });
    const url = server.requests[0]?.url ?? "";
    expect(url.startsWith("/v1/fees/buy?")).toBe(true);
    const params = new URL(url, "http://host").searchParams;
    expect([...params.entries()]).toEqual([
      ["amount", "100.50"],
      ["q", "a b&c=d/é?"],
      ["n", "5"],
      ["flag", "false"],
    ]);
    expect(url).toContain("q=a+b%26c%3Dd%2F%C3%A9%3F");
    expect(url).not.toContain("skip");
  });

  it("sends no query string when every value is undefined", async () => {
    const { http, server } = await serve(json(200, {}));
    await http.request({ method: "GET", path: "/v1/limits", query: { type: undefined } });
    expect(server.requests[0]?.url).toBe("/v1/limits");
  });

  it("sends a JSON body with its content type, the bearer token and a request id", async () => {
    const { http, server } = await serve(json(200, { status: "created" }));
    const body = { amount: "100.50", currency_code: "btc", nested: { list: [1, "two"] } };
    await http.request({
      method: "POST",
      path: "/v1/buy",
      body,
      token: "tok-abc",
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    const sent = server.requests[0];
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toBe("/v1/buy");
    expect(JSON.parse(sent?.body ?? "")).toEqual(body);
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.accept).toBe("application/json");
    expect(sent?.headers.authorization).toBe("Bearer tok-abc");
    expect(sent?.headers["x-requested-with"]).toBe("XMLHttpRequest");
    expect(sent?.headers["x-request-id"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it("sends no body and no content type when body is undefined, and no Authorization without a token", async () => {
    const { http, server } = await serve(json(200, {}));
    await http.request({ method: "GET", path: "/v1/prices" });
    await http.request({ method: "POST", path: "/v1/auth/logout", token: "t-1" });
    await http.request({ method: "DELETE", path: "/v1/bank-accounts/3", token: "t-1" });
    const [get, post, del] = server.requests;
    for (const sent of [get, post, del]) {
      expect(sent?.body).toBe("");
      expect(sent?.headers["content-type"]).toBeUndefined();
      expect(sent?.headers["transfer-encoding"]).toBeUndefined();
    }
    expect(get?.headers.authorization).toBeUndefined();
    expect(post?.method).toBe("POST");
    expect(post?.headers.authorization).toBe("Bearer t-1");
    expect(del?.method).toBe("DELETE");
    expect(del?.url).toBe("/v1/bank-accounts/3");
  });

  it("sends an empty object body as `{}`", async () => {
    const { http, server } = await serve(json(200, {}));
    await http.request({ method: "POST", path: "/v1/addresses", body: {} });
    expect(server.requests[0]?.body).toBe("{}");
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 30 ", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now)).toBe(5_000);
  });

  it("never gives a negative wait for a date in the past", () => {
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
  });

  it("gives undefined for a missing or unreadable value", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
  });
});

describe("HttpClient: one budget per call", () => {
  it("stops retrying a GET when another wait and attempt would not fit in the budget", async () => {
    // Every attempt runs into its 300 ms timeout; a budget of 500 ms leaves no room for a second.
    const { http, server } = await serve(delayed(5_000, json(200, "late")), {
      retries: 3,
      timeoutMs: 300,
      budgetMs: 500,
    });
    const error = await failure(http.request({ method: "GET", path: "/v1/balance" }));
    expect(error.kind).toBe("timeout");
    expect(server.requests).toHaveLength(1);
  });

  it("clips an attempt to what is left of the user's action (withDeadline)", async () => {
    // Without the deadline this attempt would wait for its own 20 s timeout, then retry.
    const { http, server } = await serve(delayed(10_000, json(200, "late")), {
      retries: 3,
      timeoutMs: 20_000,
    });
    const error = await failure(
      withDeadline(1_200, () => http.request({ method: "GET", path: "/v1/balance" })),
    );
    expect(error.kind).toBe("timeout");
    expect(server.requests).toHaveLength(1);
  });

  it("never clips a POST (an order) to a deadline that has nearly passed: its answer is waited for", async () => {
    const { http, server } = await serve(delayed(1_500, json(200, "placed")), { timeoutMs: 15_000 });
    const reply = await withDeadline(200, () => http.request({ method: "POST", path: "/v1/buy", body: {} }));
    expect(reply).toMatchObject({ data: "placed" });
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the client's own budget outside an action: work started by a finished action included", async () => {
    const { http, server } = await serve(sequence(delayed(1_500, json(200, "late")), json(200, "ok")), {
      retries: 1,
      timeoutMs: 5_000,
    });
    let later: Promise<unknown> = Promise.resolve();
    await withDeadline(100, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
        http.request({ method: "GET", path: "/v1/balance" }),
      );
    });
    expect(await later).toMatchObject({ data: "late" });
    expect(server.requests).toHaveLength(1);
  });
});
