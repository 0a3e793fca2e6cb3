/**
 * A fetch for the Bot API client made of one undici dispatch on a keep-alive Agent, the answer
 * collected whole (http-collect.ts) and returned as a standard Response that reads from those bytes
 * (collected-response.ts). grammY only reads `status` and `json()`, and Node's global fetch spends
 * most of a Bot API call in its WHATWG machinery (measured with `npm run bench`, BENCH_PROFILE=1:
 * about 5x the CPU of undici's `request` for a sendMessage on loopback).
 *
 * grammY's AbortSignal (its own polyfill on Node) is taken as it is. What a dispatch cannot take (a
 * Request object, a web ReadableStream, Blob or FormData body) goes to the global fetch, with a
 * native signal; grammY sends a string (JSON) or a Node stream (uploads).
 */
import { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import { collect } from "../../support/http-collect.ts";
import { CollectedResponse } from "./collected-response.ts";

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
      return globalThis.fetch(input, withNativeSignal(init));
    }
    const url = typeof input === "string" ? new URL(input) : input;
    const headers = init?.headers;
    const answer = await collect(
      dispatcher,
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: dispatcherMethod(init?.method),
        headers: headerRecord(headers),
        body: body ?? null,
      },
      { signal: init?.signal },
    );
    return new CollectedResponse(answer.body, {
      status: answer.statusCode,
      headers: contentType(answer.headers),
    });
  };
}

/**
 * grammY on Node hands fetch an AbortSignal of its own polyfill, which Node's fetch refuses:
 * forward its abort to a native one. (undici's dispatch takes the polyfill as it is.)
 */
export function withNativeSignal(init: RequestInit | undefined): RequestInit | undefined {
  const given = init?.signal as
    | { aborted: boolean; addEventListener(type: "abort", listener: () => void): void }
    | null
    | undefined;
  if (!init || !given || given instanceof AbortSignal) return init;
  const controller = new AbortController();
  if (given.aborted) controller.abort();
  else given.addEventListener("abort", () => controller.abort());
  return { ...init, signal: controller.signal };
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

/**
 * Any HeadersInit as a plain record. Told apart by shape, not by `instanceof Headers`: reading the
 * global `Headers` would load Node's bundled copy of undici (see collected-response.ts).
 */
function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  if (headers === undefined) return {};
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  if (typeof (headers as Headers).forEach !== "function") return headers as Record<string, string>;
  const record: Record<string, string> = {};
  (headers as Headers).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function contentType(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const value = headers["content-type"];
  return typeof value === "string" ? { "content-type": value } : {};
}
