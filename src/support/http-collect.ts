/**
 * One HTTP request through an undici Dispatcher with its whole answer collected into one Buffer.
 *
 * Why not undici's `request()` and `body.text()`: they hand the body through a Node Readable (a
 * `process.nextTick` per chunk, stream state, an abort listener per request), which is most of
 * what an exchange call or a Bot API call allocates on our side. Every answer we receive is small
 * JSON that is read whole anyway, so a handler that keeps the chunks does the same job.
 *
 * Failures reject with the very errors `request()` gives: undici's own (ECONNREFUSED, "other side
 * closed", UND_ERR_HEADERS_TIMEOUT...), the signal's reason (or undici's RequestAbortedError when it
 * has none), and for `timeoutMs` the DOMException "TimeoutError" that `AbortSignal.timeout` uses.
 *
 * @example
 * const answer = await collect(pool, { origin, method: "GET", path: "/v1/prices" }, { timeoutMs: 15_000 });
 * if (answer.statusCode === 200) JSON.parse(utf8Text(answer.body));
 */
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { type Dispatcher, errors } from "undici";

export interface Collected {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** The whole body; empty when there was none. */
  readonly body: Buffer;
}

/** What undici's `request()` accepts as a signal: a native AbortSignal or a polyfill such as grammY's. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export interface CollectLimits {
  signal?: AbortSignalLike | null;
  /** From the dispatch to the last byte of the body; then the request is aborted. */
  timeoutMs?: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * The handler and the answer in one object (one allocation per request). While the request is
 * under way, `statusCode` tells whether the answer had begun: a failure after that is an answer
 * cut off, not an exchange out of reach.
 */
export class CollectingRequest implements Dispatcher.DispatchHandler, Collected {
  /** 0 until the response's status line (a final one, not 1xx) has arrived. */
  statusCode = 0;
  headers: IncomingHttpHeaders = {};
  body: Buffer = EMPTY;

  #chunks: Buffer[] | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #reason: Error | undefined;
  #timer: NodeJS.Timeout | undefined;
  #signal: AbortSignalLike | null | undefined;
  #onAbort: (() => void) | undefined;
  #requestBody: unknown;
  #resolve: (answer: Collected) => void = noop;
  #reject: (error: unknown) => void = noop;

  /** Sends `options` once; resolves when the last byte has arrived. */
  send(
    dispatcher: Dispatcher,
    options: Dispatcher.DispatchOptions,
    limits?: CollectLimits,
  ): Promise<Collected> {
    return new Promise<Collected>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      this.#requestBody = options.body;
      const signal = limits?.signal;
      const timeoutMs = limits?.timeoutMs;
      if (signal?.aborted) {
        this.#reason = abortReason(signal);
      } else if (signal) {
        this.#signal = signal;
        this.#onAbort = () => this.abort(abortReason(signal));
        signal.addEventListener("abort", this.#onAbort);
      }
      if (timeoutMs !== undefined) {
        this.#timer = setTimeout(timeOut, timeoutMs, this);
        this.#timer.unref();
      }
      try {
        dispatcher.dispatch(options, this);
      } catch (error) {
        // undici's own dispatchers report through the handler; another one may throw: same end.
        this.onResponseError(null, error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * Ends the request with `reason` as its error. Before the dispatcher has started it (queued for a
   * socket, or still connecting) the caller hears at once, not only when a socket frees up as with
   * undici's `request()`; the reason is kept, and the dispatcher drops the request as it starts, so
   * nothing of it is ever written.
   */
  abort(reason: Error): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    if (this.#controller !== undefined) {
      this.#controller.abort(reason);
      return;
    }
    this.#disarm();
    this.#reject(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#reason !== undefined) {
      controller.abort(this.#reason);
      return;
    }
    this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200) return; // 100 Continue and the like: the answer is still to come
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // Most answers come in one chunk: that chunk is the body, nothing copied.
    if (this.#chunks !== undefined) this.#chunks.push(chunk);
    else if (this.body.length === 0) this.body = chunk;
    else this.#chunks = [this.body, chunk];
  }

  onResponseEnd(): void {
    if (this.#chunks !== undefined) this.body = Buffer.concat(this.#chunks);
    this.#chunks = undefined;
    this.#settle();
    this.#resolve(this);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.#chunks = undefined;
    this.body = EMPTY;
    this.#settle();
    // A stream body (an upload) that was not sent to the end is closed, as `request()` does.
    const body = this.#requestBody;
    if (body instanceof Readable && !body.destroyed) body.on("error", noop).destroy(error);
    this.#reject(error);
  }

  #settle(): void {
    this.#disarm();
    this.#requestBody = undefined;
    this.#controller = undefined;
  }

  /** The timer and the abort listener, let go of. */
  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#timer = undefined;
    this.#signal = undefined;
    this.#onAbort = undefined;
  }
}

/** `new CollectingRequest().send(...)` for a caller that needs only the answer. */
export function collect(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limits?: CollectLimits,
): Promise<Collected> {
  return new CollectingRequest().send(dispatcher, options, limits);
}

/** The body as text, a UTF-8 byte order mark skipped (as `body.text()` and `Response.text()` do). */
export function utf8Text(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bom ? bytes.toString("utf8", 3) : bytes.toString("utf8");
}

function abortReason(signal: AbortSignalLike): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason; // DOMException included
  // No reason (grammY's polyfilled signal): undici's own abort error, as `request()` gives.
  return new errors.RequestAbortedError(reason === undefined ? undefined : String(reason));
}

function timeOut(request: CollectingRequest): void {
  request.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
}

function noop(): void {}
