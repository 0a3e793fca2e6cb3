/**
 * Webhook mode on node:http: Telegram POSTs updates to the path of WEBHOOK_URL with the secret in
 * `X-Telegram-Bot-Api-Secret-Token`; a request without the right secret gets 401 and changes
 * nothing (rule 7). `/healthz` answers the container's health check.
 *
 * @example
 * const server = await startWebhookServer(bot, { port: 8080, path: "/telegram", secret });
 * await server.close();
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { type Bot, webhookCallback } from "grammy";
import type { BotContext } from "./bot/context.ts";

export interface WebhookServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startWebhookServer(
  bot: Bot<BotContext>,
  options: { port: number; host?: string; path: string; secret: string; onError?: (error: unknown) => void },
): Promise<WebhookServer> {
  if (!options.secret) throw new Error("Webhook mode refuses to start without WEBHOOK_SECRET.");
  const handle = webhookCallback(bot, "http", { secretToken: options.secret, onTimeout: "return" });
  const expected = Buffer.from(options.secret);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (req.method !== "POST" || path !== options.path) {
      res.writeHead(404).end();
      return;
    }
    // grammY checks the secret too; checking here first, in constant time, keeps the body unread.
    const given = Buffer.from(String(req.headers["x-telegram-bot-api-secret-token"] ?? ""));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end("secret token is wrong");
      req.resume();
      return;
    }
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "0.0.0.0", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    server,
    url: `http://${options.host ?? "127.0.0.1"}:${port}${options.path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
