/**
 * collect() against a real server on loopback, next to undici's `request()` + `body.text()` that
 * it replaces: the same body, and on failure the same error objects (http.ts tells timeouts and
 * network errors apart by them).
 */
import { EventEmitter } from "node:events";
import { Dispatcher, errors, Pool } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type AbortSignalLike, CollectingRequest, collect, utf8Text } from "../src/support/http-collect.ts";
import {
  closedPortUrl,
  empty,
  json,
  type RawServer,
  type Responder,
  stalled,
  startRawServer,
  text,
  truncated,
} from "./support/raw-server.ts";

const servers: RawServer[] = [];
const pools: Pool[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
});

async function serve(responder: Responder): Promise<{ pool: Pool; origin: string; server: RawServer }> {
  const server = await startRawServer(responder);
  servers.push(server);
  return { server, ...poolFor(server.url) };
}

function poolFor(origin: string): { pool: Pool; origin: string } {
  const pool = new Pool(origin);
  pools.push(pool);
  return { pool, origin };
}

function get(origin: string): Dispatcher.DispatchOptions {
  return { origin, method: "GET", path: "/v1/balance" };
}

/** What undici's `request()` + `body.text()` fails with, for the same server and signal. */
async function requestError(pool: Pool, origin: string, signal?: AbortSignal | BareSignal): Promise<unknown> {
  try {
    const response = await pool.request({ ...get(origin), signal: signal ?? null });
    await response.body.text();
  } catch (error) {
    return error;
  }
  throw new Error("request() did not fail");
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

/** Counts the chunks it is handed, to show a body really came in pieces. */
class CountingRequest extends CollectingRequest {
  chunks = 0;
  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks++;
    super.onResponseData(controller, chunk);
  }
}

/**
 * Shaped like grammY's polyfilled signal on Node (`aborted`, the listener methods, no `reason`); an
 * EventEmitter so that undici's `request()` takes it too.
 */
class BareSignal extends EventEmitter implements AbortSignalLike {
  aborted = false;
  addEventListener(type: "abort", listener: () => void): void {
    this.on(type, listener);
  }
  removeEventListener(type: "abort", listener: () => void): void {
    this.off(type, listener);
  }
  abort(): void {
    this.aborted = true;
    this.emit("abort");
  }
}

describe("collect: the answer", () => {
  it("joins a body that arrives in several chunks into one Buffer", async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, name: `item ${i}` }));
    const body = JSON.stringify({ items });
    const { pool, origin } = await serve(({ res }) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "r-1" });
      for (let at = 0; at < body.length; at += 50_000) res.write(body.slice(at, at + 50_000));
      res.end();
    });
    const call = new CountingRequest();
    const answer = await call.send(pool, get(origin));
    expect(call.chunks).toBeGreaterThan(1);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["x-request-id"]).toBe("r-1");
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    expect(JSON.parse(utf8Text(answer.body))).toEqual({ items });
  });

  it("gives an empty Buffer for a 204 and for a 200 without a body", async () => {
    let n = 0;
    const { pool, origin } = await serve((exchange) => (n++ === 0 ? empty(204) : empty(200))(exchange));
    const noContent = await collect(pool, get(origin));
    expect(noContent.statusCode).toBe(204);
    expect(noContent.body.length).toBe(0);
    const ok = await collect(pool, get(origin));
    expect(ok.statusCode).toBe(200);
    expect(ok.body.length).toBe(0);
    expect(utf8Text(ok.body)).toBe("");
  });

  it("reads text as body.text() does, a UTF-8 byte order mark skipped", async () => {
    const { pool, origin } = await serve(text(200, '\uFEFF{"euro":"€"}'));
    const answer = await collect(pool, get(origin));
    expect(utf8Text(answer.body)).toBe('{"euro":"€"}');
    expect(utf8Text(answer.body)).toBe(await (await pool.request(get(origin))).body.text());
  });

  it("sends the request body and keeps the headers of the answer", async () => {
    const { pool, origin, server } = await serve(json(201, { id: 7 }, { "retry-after": "3" }));
    const answer = await collect(pool, {
      origin,
      method: "POST",
      path: "/v1/orders",
      headers: { "content-type": "application/json" },
      body: '{"amount":"1"}',
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers["retry-after"]).toBe("3");
    expect(server.requests[0]?.body).toBe('{"amount":"1"}');
  });
});

describe("collect: failures, as request() has them", () => {
  it("rejects with the signal's reason when aborted in the middle of the body", async () => {
    const reason = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    let controller = new AbortController();
    const { pool, origin } = await serve((exchange) => {
      stalled(200, '{"balance":')(exchange);
      exchange.later(50, () => controller.abort(reason));
    });
    const call = new CollectingRequest();
    const error = await rejection(call.send(pool, get(origin), { signal: controller.signal }));
    expect(error).toBe(reason);
    expect(call.statusCode).toBe(200); // the answer had begun: it was cut off

    controller = new AbortController();
    expect(await requestError(pool, origin, controller.signal)).toBe(reason);
  });

  it("rejects with undici's RequestAbortedError when the signal has no reason (grammY's polyfill)", async () => {
    let signal = new BareSignal();
    const { pool, origin } = await serve((exchange) => {
      stalled(200, '{"ok":')(exchange);
      exchange.later(50, () => signal.abort());
    });
    expect(await rejection(collect(pool, get(origin), { signal }))).toBeInstanceOf(
      errors.RequestAbortedError,
    );

    signal = new BareSignal();
    expect(await requestError(pool, origin, signal)).toBeInstanceOf(errors.RequestAbortedError);
  });

  it("does not send at all under a signal that is already aborted", async () => {
    const { pool, origin, server } = await serve(json(200, {}));
    const signal = new BareSignal();
    signal.abort();
    expect(await rejection(collect(pool, get(origin), { signal }))).toBeInstanceOf(
      errors.RequestAbortedError,
    );
    const reason = new Error("gone");
    expect(await rejection(collect(pool, get(origin), { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it("times out with AbortSignal.timeout's TimeoutError, before the headers or in the body", async () => {
    const { pool, origin } = await serve(stalled(200, '{"balance":'));
    const inBody = new CollectingRequest();
    const error = await rejection(inBody.send(pool, get(origin), { timeoutMs: 100 }));
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: "TimeoutError" });
    expect(inBody.statusCode).toBe(200);

    const silent = await serve(() => {});
    const beforeHeaders = new CollectingRequest();
    const early = await rejection(beforeHeaders.send(silent.pool, get(silent.origin), { timeoutMs: 100 }));
    expect(early).toMatchObject({ name: "TimeoutError" });
    expect(beforeHeaders.statusCode).toBe(0);
  });

  it("times out a request still waiting for a socket, which is then never sent", async () => {
    const server = await startRawServer(stalled(200, '{"balance":'));
    servers.push(server);
    const origin = server.url;
    const busy = new Pool(origin, { connections: 1 });
    pools.push(busy);
    const first = busy.request(get(origin)).catch((error: unknown) => error);
    const queued = new CollectingRequest();
    const error = await rejection(queued.send(busy, { ...get(origin), path: "/queued" }, { timeoutMs: 100 }));
    expect(error).toMatchObject({ name: "TimeoutError" });
    expect(queued.statusCode).toBe(0);
    await busy.destroy();
    await first;
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/balance"]);
  });

  it("rejects with undici's own error when the connection is reset in the middle of the body", async () => {
    const { pool, origin } = await serve(truncated(200, '{"balance":"12'));
    const call = new CollectingRequest();
    const error = await rejection(call.send(pool, get(origin)));
    const before = await requestError(pool, origin);
    expect(error).toBeInstanceOf(errors.SocketError);
    expect(error).toMatchObject({ code: (before as { code?: string }).code, name: (before as Error).name });
    expect(call.statusCode).toBe(200);
  });

  it("rejects with the connect error when nothing listens", async () => {
    const { pool, origin } = poolFor(await closedPortUrl());
    const call = new CollectingRequest();
    const error = await rejection(call.send(pool, get(origin)));
    expect(error).toMatchObject({ code: "ECONNREFUSED" });
    expect(call.statusCode).toBe(0);
    expect(await requestError(pool, origin)).toMatchObject({ code: "ECONNREFUSED" });
  });

  it("rejects, and lets go of its timer and signal, when a dispatcher throws instead of reporting", async () => {
    class Throwing extends Dispatcher {
      override dispatch(): boolean {
        throw new TypeError("no such origin");
      }
    }
    const removed: string[] = [];
    const signal: AbortSignalLike = {
      aborted: false,
      addEventListener: () => {},
      removeEventListener: (type) => removed.push(type),
    };
    const error = await rejection(
      collect(new Throwing(), get("http://127.0.0.1:1"), { signal, timeoutMs: 60_000 }),
    );
    expect(error).toMatchObject({ name: "TypeError", message: "no such origin" });
    expect(removed).toEqual(["abort"]);
  });

  it("lets go of the signal once the answer is in", async () => {
    const { pool, origin } = await serve(json(200, { ok: true }));
    const added: string[] = [];
    const removed: string[] = [];
    const signal: AbortSignalLike = {
      aborted: false,
      addEventListener: (type) => added.push(type),
      removeEventListener: (type) => removed.push(type),
    };
    await collect(pool, get(origin), { signal });
    expect(added).toEqual(["abort"]);
    expect(removed).toEqual(["abort"]);
  });
});
