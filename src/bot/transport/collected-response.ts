/**
 * A standard Response over a body that has already arrived whole (http-collect.ts), for the
 * Bot API client's fetch (undici-fetch.ts).
 *
 * undici's own Response class, not the global one: Node's globals `Response`, `Headers`, `fetch`
 * and `FormData` come from a second copy of undici bundled inside Node, loaded at their first use
 * (~0.9 MiB of heap and ~3 MiB RSS, measured at start-up), while the bot already has this one.
 *
 * Why not `new Response(bytes)`: a Response wraps any body in a web ReadableStream, and
 * `json()` reads it back through the stream and a TextDecoder; per Bot API call that is more than
 * everything else the fetch does. This one is built without a body and answers `json()`, `text()`
 * and the rest from the bytes it holds; only someone who asks for `body` gets a stream (then a real
 * Response over the same bytes answers from there on, so `bodyUsed` stays right).
 *
 * @example
 * const res = new CollectedResponse(bytes, { status: 200, headers: { "content-type": "application/json" } });
 * await res.clone().json(); // the original can still be read
 */
import { Response } from "undici";
import { utf8Text } from "../../support/http-collect.ts";

/** No body allowed in a Response with these statuses. */
export const NULL_BODY_STATUS: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const EMPTY = Buffer.alloc(0);

interface CollectedInit {
  status: number;
  headers: Record<string, string>;
}

type BodyReaders = Pick<
  Response,
  "body" | "bodyUsed" | "arrayBuffer" | "blob" | "bytes" | "formData" | "json" | "text" | "clone"
>;

export class CollectedResponse extends Response {
  /** undefined for a null-body status: there is no body at all. */
  readonly #bytes: Buffer | undefined;
  readonly #init: CollectedInit;
  #used = false;
  /** Made when someone asks for `body`; from then on it answers for the body. */
  #streamed: Response | undefined;

  constructor(bytes: Buffer, init: CollectedInit) {
    super(null, init);
    this.#bytes = NULL_BODY_STATUS.has(init.status) ? undefined : bytes;
    this.#init = init;
  }

  /** The bytes for one read; a body is read once, like any Response's. */
  #take(): Buffer {
    if (this.#bytes === undefined) return EMPTY;
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#bytes;
  }

  #stream(): Response {
    if (this.#streamed === undefined) {
      this.#streamed = new Response(this.#bytes, this.#init);
      // Already read: its stream is read too, so `bodyUsed` stays true.
      if (this.#used) void this.#streamed.arrayBuffer();
    }
    return this.#streamed;
  }

  static {
    // TypeScript's types for Response (undici-types) declare these as properties, so a subclass
    // cannot declare them as methods and getters; at run time they are methods and getters on
    // Response.prototype, and here they are the same on this prototype, with Response's own types.
    const readers: BodyReaders & ThisType<CollectedResponse> = {
      get body() {
        return this.#bytes === undefined ? null : this.#stream().body;
      },
      get bodyUsed() {
        return this.#streamed?.bodyUsed ?? this.#used;
      },
      async arrayBuffer() {
        if (this.#streamed) return this.#streamed.arrayBuffer();
        // A copy: the collected bytes may be a view into a larger buffer.
        return new Uint8Array(this.#take()).buffer;
      },
      async blob() {
        if (this.#streamed) return this.#streamed.blob();
        return new Blob([this.#take()], { type: this.headers.get("content-type") ?? "" });
      },
      async bytes() {
        if (this.#streamed) return this.#streamed.bytes();
        return new Uint8Array(this.#take());
      },
      async formData() {
        if (this.#streamed) return this.#streamed.formData();
        return new Response(this.#take(), this.#init).formData();
      },
      async json() {
        if (this.#streamed) return this.#streamed.json();
        return JSON.parse(utf8Text(this.#take()));
      },
      async text() {
        if (this.#streamed) return this.#streamed.text();
        return utf8Text(this.#take());
      },
      clone() {
        if (this.#streamed) return this.#streamed.clone();
        if (this.#used) throw new TypeError("Response.clone: Body has already been consumed.");
        return new CollectedResponse(this.#bytes ?? EMPTY, this.#init);
      },
    };
    Object.defineProperties(CollectedResponse.prototype, Object.getOwnPropertyDescriptors(readers));
  }
}
