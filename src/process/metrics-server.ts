/**
 * `GET /metrics` on an HTTP server of its own (METRICS_PORT, bound to METRICS_HOST: loopback unless
 * set), never on the public PORT, where the load balancer would expose it. main.ts starts it only
 * when metrics are asked for.
 *
 * @example
 * const server = metrics && config.metrics ? await serveMetrics(metrics, config.metrics, log) : undefined;
 */
import type { Config } from "../config/config.ts";
import type { Logger } from "../support/logger.ts";
import type { Metrics } from "./metrics.ts";
import { type HttpRoute, startHttpServer, type WebhookServer } from "./webhook.ts";

export async function serveMetrics(
  metrics: Metrics,
  where: NonNullable<Config["metrics"]>,
  log: Logger,
): Promise<WebhookServer> {
  const route: HttpRoute = (req, res, path) => {
    if (path !== "/metrics" || req.method !== "GET") return false;
    req.resume();
    metrics.render().then(
      (text) => res.writeHead(200, { "content-type": metrics.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, "metrics could not be collected");
        res.writeHead(500).end();
      },
    );
    return true;
  };
  const server = await startHttpServer({ port: where.port, host: where.host, routes: [route] });
  log.info({ port: server.port, host: where.host }, "metrics server listening");
  return server;
}
