/**
 * The bot's HTTP server on node:http. In webhook mode Telegram POSTs updates to the path of
 * WEBHOOK_URL with the secret in `X-Telegram-Bot-Api-Secret-Token`; a request without the right
 * secret gets 401 and changes nothing (rule 7). More routes (the Mini App login page) are served
 * by the same server, in webhook and in polling mode. `/healthz` answers the container's health
 * check.
 *
 * @example
 * const server = await startWebhookServer(bot, { port: 8080, path: "/telegram", secret });
 * const pages = await startHttpServer({ port: 8080, routes: [webAppRoutes(…)] }); // polling mode
 * await server.close();
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type Bot, webhookCallback } from "grammy";
import type { BotContext } from "./bot/context.ts";

/** Answers the request and returns true, or returns false to let the next route try. */
export type HttpRoute = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;

export interface WebhookServer {
  server: Server;
  /** The webhook's URL, or the server's base URL without a webhook. */
  url: string;
  close(): Promise<void>;
}

export interface HttpServerOptions {
  port: number;
  host?: string;
  webhook?: { bot: Bot<BotContext>; path: string; secret: string };
  routes?: HttpRoute[];
  onError?: (error: unknown) => void;
}

export function startWebhookServer(
  bot: Bot<BotContext>,
  options: Omit<HttpServerOptions, "webhook"> & { path: string; secret: string },
): Promise<WebhookServer> {
  const { path, secret, ...rest } = options;
  return startHttpServer({ ...rest, webhook: { bot, path, secret } });
}

export async function startHttpServer(options: HttpServerOptions): Promise<WebhookServer> {
  const webhook = options.webhook ? webhookRoute(options.webhook, options.onError) : undefined;
  const routes = [...(webhook ? [webhook] : []), ...(options.routes ?? [])];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (routes.some((route) => route(req, res, path))) return;
    res.writeHead(404).end();
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "0.0.0.0", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    server,
    url: `http://${options.host ?? "127.0.0.1"}:${port}${options.webhook?.path ?? ""}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function webhookRoute(
  options: NonNullable<HttpServerOptions["webhook"]>,
  onError: ((error: unknown) => void) | undefined,
): HttpRoute {
  if (!options.secret) throw new Error("Webhook mode refuses to start without WEBHOOK_SECRET.");
  const handle = webhookCallback(options.bot, "http", { secretToken: options.secret, onTimeout: "return" });
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
    handle(req, res).catch((error: unknown) => {
      onError?.(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return true;
  };
}
