/**
 * The bot's HTTP server on node:http. In webhook mode Telegram POSTs updates to the path of
 * WEBHOOK_URL with the secret in `X-Telegram-Bot-Api-Secret-Token`; a request without the right
 * secret gets 401 and changes nothing (rule 7). More routes (the Mini App login page) are served
 * by the same server, in webhook and in polling mode. `/healthz` answers the container's health
 * check.
 *
 * A webhook body over {@link WEBHOOK_BODY_LIMIT} gets 413, decided from Content-Length before a
 * byte is read, or where a chunked body crosses it. Shutting down (a `Draining` that started):
 * new webhook requests get 503 (Telegram delivers them again, to another instance), idle keep-alive
 * connections are closed, and requests under way finish and get their answer, each on a
 * connection that closes after it; `close()` stops listening and waits for them.
 *
 * @example
 * const server = await startWebhookServer(bot, { port: 8080, path: "/telegram", secret });
 * const pages = await startHttpServer({ port: 8080, routes: [webAppRoutes(…)] }); // polling mode
 * await server.close();
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type Bot, webhookCallback } from "grammy";
import type { Update } from "grammy/types";
import type { BotContext } from "../bot/context.ts";
import { readBoundedBody } from "../support/http-body.ts";
import type { HttpRoute } from "../support/http-route.ts";
import type { Draining } from "./draining.ts";

export type { HttpRoute };

/**
 * The largest webhook body taken (1 MiB). Telegram's updates are small: a message holds at most
 * 4,096 characters (a few tens of KiB as JSON, with its entities and the message it replies to).
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export interface WebhookServer {
  server: Server;
  /** The webhook's URL, or the server's base URL without a webhook. */
  url: string;
  /** The port it listens on (the one the system picked for port 0). */
  port: number;
  /**
   * Stops listening and resolves once the requests under way have been answered (their
   * connections close after them; idle ones at once). Called again, the same promise.
   */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  port: number;
  host?: string;
  webhook?: { bot: Bot<BotContext>; path: string; secret: string };
  routes?: HttpRoute[];
  onError?: (error: unknown) => void;
  /** Once it starts, the webhook answers 503 and keep-alive connections wind down. */
  draining?: Draining;
}

export function startWebhookServer(
  bot: Bot<BotContext>,
  options: Omit<HttpServerOptions, "webhook"> & { path: string; secret: string },
): Promise<WebhookServer> {
  const { path, secret, ...rest } = options;
  return startHttpServer({ ...rest, webhook: { bot, path, secret } });
}

export async function startHttpServer(options: HttpServerOptions): Promise<WebhookServer> {
  const draining = options.draining;
  const webhook = options.webhook ? webhookRoute(options.webhook, options.onError, draining) : undefined;
  const routes = [...(webhook ? [webhook] : []), ...(options.routes ?? [])];
  // Answers not yet sent: when the server winds down, each goes out on a connection that then closes.
  const underWay = new Set<ServerResponse>();
  let winding = false;
  const server = createServer((req, res) => {
    if (winding) res.setHeader("connection", "close");
    else {
      underWay.add(res);
      res.once("close", () => underWay.delete(res));
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (routes.some((route) => route(req, res, path))) return;
    res.writeHead(404).end();
    req.resume();
  });
  const windDown = () => {
    winding = true;
    for (const res of underWay) if (!res.headersSent) res.setHeader("connection", "close");
    server.closeIdleConnections();
  };
  draining?.onStart(windDown);
  let closed: Promise<void> | undefined;
  // A port in use (EADDRINUSE) or not allowed (EACCES) rejects here instead of crashing the process.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    server,
    url: `http://${options.host ?? "127.0.0.1"}:${port}${options.webhook?.path ?? ""}`,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        windDown();
        // Resolves when the last connection has closed: the answers under way are out by then.
        server.close((error) => (error ? reject(error) : resolve()));
      });
      return closed;
    },
  };
}

function webhookRoute(
  options: NonNullable<HttpServerOptions["webhook"]>,
  onError: ((error: unknown) => void) | undefined,
  draining: Draining | undefined,
): HttpRoute {
  if (!options.secret) throw new Error("Webhook mode refuses to start without WEBHOOK_SECRET.");
  // The body is read here (bounded), so grammY is handed the update itself.
  const adapter = (update: Update, res: ServerResponse, header: string) => ({
    update,
    header,
    end: () => res.end(),
    respond: (json: string) => res.writeHead(200, { "content-type": "application/json" }).end(json),
    unauthorized: () => res.writeHead(401).end("secret token is wrong"),
  });
  const handle = webhookCallback(options.bot, adapter, { secretToken: options.secret, onTimeout: "return" });
  const expected = Buffer.from(options.secret);
  return (req, res, path) => {
    if (path !== options.path) return false;
    if (req.method !== "POST") {
      res.writeHead(404).end();
      return true;
    }
    // grammY checks the secret too; checking here first, in constant time, keeps the body unread.
    const given = Buffer.from(String(req.headers["x-telegram-bot-api-secret-token"] ?? ""));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end("secret token is wrong");
      req.resume();
      return true;
    }
    if (draining?.active) {
      // Not taken: Telegram delivers it again, and the balancer sends it to an instance that stays.
      res.writeHead(503, { connection: "close", "retry-after": "1" }).end("shutting down");
      req.resume();
      return true;
    }
    void receive(req, res, given.toString()).catch((error: unknown) => {
      onError?.(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return true;
  };

  async function receive(req: IncomingMessage, res: ServerResponse, header: string): Promise<void> {
    const body = await readBoundedBody(req, res, WEBHOOK_BODY_LIMIT);
    if (body === undefined) return;
    let update: Update;
    try {
      update = JSON.parse(body) as Update;
    } catch {
      res.writeHead(400).end("not JSON");
      return;
    }
    await handle(update, res, header);
  }
}
