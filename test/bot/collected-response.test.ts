/**
 * CollectedResponse answers like undici's `new Response(bytes)` over the same bytes (the class it
 * extends; Node's global Response is another copy of the same code): every reader, `clone()`,
 * `body` and `bodyUsed`.
 */
import { Response } from "undici";
import { describe, expect, it } from "vitest";
import { CollectedResponse } from "../../src/bot/transport/collected-response.ts";

const JSON_HEADERS = { "content-type": "application/json" };
const BODY = '{"ok":true,"result":{"message_id":7,"text":"Grüße €"}}';

function both(body: string, status = 200): [Response, Response] {
  const bytes = Buffer.from(body);
  return [
    new CollectedResponse(bytes, { status, headers: JSON_HEADERS }),
    new Response(bytes, { status, headers: JSON_HEADERS }),
  ];
}

async function rejection(read: () => Promise<unknown>): Promise<unknown> {
  try {
    await read();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function streamed(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(part.value);
  return Buffer.concat(chunks).toString("utf8");
}

describe("CollectedResponse: a standard Response over collected bytes", () => {
  it("is a Response with the status, ok and headers it was given", () => {
    const [ours] = both(BODY, 429);
    expect(ours).toBeInstanceOf(Response);
    expect(ours.status).toBe(429);
    expect(ours.ok).toBe(false);
    expect(ours.headers.get("content-type")).toBe("application/json");
  });

  it("reads json, text, bytes, arrayBuffer and blob as Node's Response does", async () => {
    const readers: ((r: Response) => Promise<unknown>)[] = [
      (r) => r.json(),
      (r) => r.text(),
      async (r) => [...(await r.bytes())],
      async (r) => [...new Uint8Array(await r.arrayBuffer())],
      async (r) => {
        const blob = await r.blob();
        return [blob.type, await blob.text()];
      },
    ];
    for (const read of readers) {
      const [ours, native] = both(`\uFEFF${BODY}`);
      expect(await read(ours)).toEqual(await read(native));
    }
  });

  it("gives an ArrayBuffer of the body alone when the bytes are a view into a larger buffer", async () => {
    const larger = Buffer.from(`xxxx${BODY}yyyy`);
    const view = larger.subarray(4, 4 + Buffer.byteLength(BODY));
    const response = new CollectedResponse(view, { status: 200, headers: JSON_HEADERS });
    const buffer = await response.arrayBuffer();
    expect(buffer.byteLength).toBe(view.length);
    expect(Buffer.from(buffer).toString()).toBe(BODY);
  });

  it("rejects bad JSON with a SyntaxError, as Response.json() does", async () => {
    const [ours, native] = both("<html>Bad Gateway</html>", 502);
    expect(await rejection(() => ours.json())).toBeInstanceOf(SyntaxError);
    expect(await rejection(() => native.json())).toBeInstanceOf(SyntaxError);
  });

  it("is read once: bodyUsed turns true and a second read rejects with a TypeError", async () => {
    const [ours, native] = both(BODY);
    for (const response of [ours, native]) {
      expect(response.bodyUsed).toBe(false);
      await response.text();
      expect(response.bodyUsed).toBe(true);
      expect(await rejection(() => response.json())).toBeInstanceOf(TypeError);
      expect(() => response.clone()).toThrow(TypeError);
    }
  });

  it("clones: the clone and the original are each read on their own", async () => {
    const [ours] = both(BODY);
    const copy = ours.clone();
    expect(copy).toBeInstanceOf(Response);
    expect(copy.status).toBe(200);
    expect(copy.headers.get("content-type")).toBe("application/json");
    expect(await copy.json()).toEqual(JSON.parse(BODY));
    expect(ours.bodyUsed).toBe(false);
    expect(await ours.text()).toBe(BODY);
  });

  it("gives a stream as body when asked, and then bodyUsed follows that stream", async () => {
    const [ours] = both(BODY);
    expect(ours.body).not.toBeNull();
    expect(ours.bodyUsed).toBe(false);
    expect(ours.clone().bodyUsed).toBe(false);
    expect(await streamed(ours.clone())).toBe(BODY);
    expect(await streamed(ours)).toBe(BODY);
    expect(ours.bodyUsed).toBe(true);
    expect(await rejection(() => ours.text())).toBeInstanceOf(TypeError);
  });

  it("can cancel its body (retryingFetch does, before it sends again)", async () => {
    const [ours] = both(BODY, 429);
    expect(await ours.clone().json()).toEqual(JSON.parse(BODY));
    await ours.body?.cancel();
    expect(ours.bodyUsed).toBe(true);
  });

  it("keeps bodyUsed true when body is asked for after a read", async () => {
    const [ours] = both(BODY);
    await ours.json();
    expect(ours.body).not.toBeNull();
    expect(ours.bodyUsed).toBe(true);
  });

  it("has no body at all for a null-body status, like Response(null)", async () => {
    for (const status of [204, 304]) {
      const ours = new CollectedResponse(Buffer.alloc(0), { status, headers: {} });
      const native = new Response(null, { status });
      expect(ours.body).toBe(native.body);
      expect(await ours.text()).toBe("");
      expect(await ours.text()).toBe(""); // nothing to use up
      expect(ours.bodyUsed).toBe(false);
      expect(await rejection(() => ours.json())).toBeInstanceOf(SyntaxError);
      expect(ours.clone().status).toBe(status);
    }
  });

  it("has an empty, not a missing, body for a 200 without bytes", async () => {
    const [ours, native] = both("");
    expect(ours.body).not.toBeNull();
    expect(native.body).not.toBeNull();
    expect(await ours.text()).toBe(await native.text());
  });
});
