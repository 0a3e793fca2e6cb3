/**
 * A fetch for the Bot API client made of undici's `request` on a keep-alive Agent, returning a
 * standard Response. grammY only reads `status` and `json()`, and Node's global fetch spends most
 * of a Bot API call in its WHATWG machinery (measured with `npm run bench`, BENCH_PROFILE=1: about
 * 5x the CPU of `request` for a sendMessage on loopback).
 *
 * What `request` cannot take (a Request object, a web ReadableStream, Blob or FormData body) goes
 * to the global fetch unchanged; grammY sends a string (JSON) or a Node stream (uploads).
 */
import { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";

/** No body allowed in a Response with these statuses. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

let shared: Agent | undefined;

/**
 * One Agent per process, like the global fetch's dispatcher: it keeps idle sockets per origin and
 * lets the process exit while they are idle.
 */
function sharedAgent(): Agent {
  shared ??= new Agent();
  return shared;
}

export function undiciFetch(dispatcher: Dispatcher = sharedAgent()): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    const plainBody =
      body === undefined ||
      body === null ||
      typeof body === "string" ||
      body instanceof Uint8Array ||
      body instanceof Readable;
    if (!plainBody || (typeof input !== "string" && !(input instanceof URL))) {
      return globalThis.fetch(input, init);
    }
    const url = typeof input === "string" ? new URL(input) : input;
    const headers = init?.headers;
    const answer = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: dispatcherMethod(init?.method),
      headers: headers === undefined || headers instanceof Headers ? headerRecord(headers) : headers,
      body: body ?? null,
      signal: init?.signal ?? null,
    });
    const bytes = await answer.body.arrayBuffer();
    const status = answer.statusCode;
    return new Response(NULL_BODY_STATUS.has(status) ? null : bytes, {
      status,
      headers: contentType(answer.headers),
    });
  };
}

function dispatcherMethod(method: string | undefined): Dispatcher.HttpMethod {
  const upper = (method ?? "GET").toUpperCase();
  switch (upper) {
    case "GET":
    case "HEAD":
    case "POST":
    case "PUT":
    case "DELETE":
    case "PATCH":
    case "OPTIONS":
      return upper;
    default:
      throw new TypeError(`Unsupported HTTP method ${upper}.`);
  }
}

function headerRecord(headers: Headers | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  headers?.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function contentType(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const value = headers["content-type"];
  return typeof value === "string" ? { "content-type": value } : {};
}
