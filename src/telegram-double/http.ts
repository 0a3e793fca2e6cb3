import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BotApiError, badRequest, notFound, unauthorized } from "./errors.ts";
import { type Payload, Upload } from "./payload.ts";

/** What the HTTP layer asks of the double for each `POST /bot{token}/{method}`. */
export type CallHandler = (
  method: string,
  payload: Payload,
  onAbort: (cb: () => void) => void,
) => Promise<unknown>;

/**
 * Listens on loopback and speaks the Bot API's wire format: `/bot{token}/{method}` with a JSON,
 * form-urlencoded or multipart body (or a query string), answering `{ok:true,result}` or Telegram's
 * error envelope with the matching HTTP status.
 *
 * @example
 * const server = await listen(0, "TOKEN", async (method) => (method === "getMe" ? { id: 1 } : undefined));
 */
export async function listen(port: number, token: string, handle: CallHandler): Promise<Server> {
  const server = createServer((req, res) => {
    void serve(req, res, token, handle);
  });
  // Long polls are held open for up to `timeout` seconds; Node's default request timeout must not cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  // Idle connections stay open as Telegram's do; with Node's 5 s a bot idle for a few seconds
  // could send on a socket the server was closing that instant ("socket hang up", the update lost).
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

export function serverPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  handle: CallHandler,
): Promise<void> {
  try {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const m = /^\/bot([^/]+)\/([A-Za-z]+)\/?$/.exec(url.pathname);
    if (m === null) throw notFound();
    if (decodeURIComponent(m[1] as string) !== token) throw unauthorized();
    const payload = await readPayload(req, url);
    const onAbort = (cb: () => void) => {
      res.on("close", () => {
        if (!res.writableFinished) cb();
      });
    };
    const result = await handle(m[2] as string, payload, onAbort);
    send(res, 200, { ok: true, result });
  } catch (error) {
    const apiError = error instanceof BotApiError ? error : new BotApiError(500, "Internal Server Error");
    if (!(error instanceof BotApiError)) console.error("Bot API double: unexpected error", error);
    send(res, apiError.code, apiError.toEnvelope());
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Reads the parameters wherever Telegram accepts them: query string, JSON, urlencoded or multipart. */
async function readPayload(req: IncomingMessage, url: URL): Promise<Payload> {
  const payload: Payload = Object.fromEntries(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (body.length === 0) return payload;
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw badRequest("JSON object expected");
    return { ...payload, ...(parsed as Payload) };
  }
  if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
    // The web platform's parser copes with grammY's terse part headers ("content-disposition:form-data;name=…").
    const form = await new Request(url, {
      method: "POST",
      headers: { "content-type": type },
      body,
    }).formData();
    const files = new Map<string, Upload>();
    for (const [key, value] of form) {
      if (typeof value === "string") payload[key] = value;
      else {
        const bytes = new Uint8Array(await value.arrayBuffer());
        files.set(key, new Upload(value.name, value.size, value.type || "application/octet-stream", bytes));
      }
    }
    // grammY sends each file as its own part and puts "attach://<part name>" in the field that uses it.
    for (const [key, value] of Object.entries(payload)) {
      if (typeof value !== "string" || !value.startsWith("attach://")) continue;
      const name = value.slice("attach://".length);
      const attached = files.get(name);
      if (attached === undefined) throw badRequest(`file attach://${name} not found`);
      payload[key] = attached;
      files.delete(name);
    }
    // A file sent directly under the field's own name (as curl -F photo=@x.jpg does).
    for (const [key, file] of files) payload[key] ??= file;
    return payload;
  }
  throw badRequest(`unsupported content-type ${type}`);
}
