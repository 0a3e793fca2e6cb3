/**
 * A tiny HTTP server on loopback whose every answer is scripted by the test, including the ones a
 * real exchange gives on a bad day: HTML instead of JSON, an empty or truncated body, a dropped
 * connection, a late answer. Every request it receives is recorded (method, url, headers, body).
 *
 * @example
 * const server = await startRawServer(sequence(json(503, {}), json(200, { ok: true })));
 * const http = new HttpClient({ baseUrl: server.url });
 * await http.request({ method: "GET", path: "/v1/prices" });
 * expect(server.requests).toHaveLength(2);
 * await server.close();
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query as sent, e.g. `/prefix/v1/prices?pair=btceur`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw request body as text; `""` when there was none. */
  body: string;
}

export interface Exchange {
  request: RecordedRequest;
  /** 0 for the first request the server received, 1 for the second... */
  index: number;
  req: IncomingMessage;
  res: ServerResponse;
  /** Runs `fn` after `ms`, unless the server was closed first. */
  later: (ms: number, fn: () => void) => void;
}

/** Decides what to do with one request: write an answer, drop it, or answer later. */
export type Responder = (exchange: Exchange) => void;

export interface RawServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

export async function startRawServer(handler: Responder): Promise<RawServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const server = createServer((req, res) => {
    // Writing to a socket the client already gave up on must not crash the test run.
    req.on("error", () => {});
    res.on("error", () => {});
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const index = requests.push(request) - 1;
      handler({ request, index, req, res, later });
    });
  });
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL on loopback where nothing listens: connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = await startRawServer(() => {});
  await server.close();
  return server.url;
}

// ---------------------------------------------------------------------------------------------
// Responders

/** Answers with a status, headers and a raw body (text written as is). */
export function text(status: number, body: string, headers: Record<string, string> = {}): Responder {
  return ({ res }) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
    res.end(body);
  };
}

/** Answers with JSON (any value: an object, a string, an array). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return text(status, JSON.stringify(body), { "content-type": "application/json", ...headers });
}

export function html(status: number, body: string, headers: Record<string, string> = {}): Responder {
  return text(status, body, { "content-type": "text/html; charset=utf-8", ...headers });
}

/** Answers with a status and no body at all. */
export function empty(status: number, headers: Record<string, string> = {}): Responder {
  return ({ res }) => {
    res.writeHead(status, headers);
    res.end();
  };
}

/**
 * Promises `declaredLength` bytes, sends only `partial`, then destroys the socket: the client
 * sees the headers and part of the body, then the connection ends.
 */
export function truncated(status: number, partial: string, declaredLength = partial.length + 100): Responder {
  return ({ res }) => {
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": String(declaredLength),
    });
    res.write(partial, () => res.socket?.destroy());
  };
}

/** Sends headers and a first part of the body, then says nothing more (until the server closes). */
export function stalled(status: number, partial: string): Responder {
  return ({ res }) => {
    res.writeHead(status, { "content-type": "application/json", "content-length": "1000" });
    res.write(partial);
  };
}

/** Drops the connection without answering. */
export function drop(): Responder {
  return ({ req }) => {
    req.socket.destroy();
  };
}

/** Answers with `responder` after `ms`. */
export function delayed(ms: number, responder: Responder): Responder {
  return (exchange) => exchange.later(ms, () => responder(exchange));
}

/** The first request gets the first responder, the second the second...; the last one repeats. */
export function sequence(...responders: Responder[]): Responder {
  if (responders.length === 0) throw new Error("sequence() needs at least one responder");
  return (exchange) => {
    const responder = responders[Math.min(exchange.index, responders.length - 1)] as Responder;
    responder(exchange);
  };
}

/** Answers with `{method, url, headers, body}` of the request itself, as JSON or inside HTML. */
export function echo(status: number, as: "json" | "html" = "json"): Responder {
  return (exchange) => {
    const { method, url, headers, body } = exchange.request;
    let parsedBody: unknown = body;
    try {
      parsedBody = JSON.parse(body);
    } catch {
      // Not JSON: echo it as text.
    }
    const echoed = {
      message: `You sent ${body}`,
      errors: { echo: [body] },
      method,
      url,
      headers,
      body: parsedBody,
    };
    if (as === "json") json(status, echoed)(exchange);
    else html(status, `<html><body><pre>${JSON.stringify(echoed)}</pre></body></html>`)(exchange);
  };
}
