/**
 * A load balancer as the deploy puts one in front of several webhook-mode instances (deploy/
 * Caddyfile's `lb_policy round_robin`): not sticky, each request to the next instance in turn, over
 * keep-alive connections. It passes an answer back as it came (so Telegram, here the Bot API double,
 * redelivers on anything but 2xx), answers 502 when an instance cannot be reached or cuts the
 * connection, and records every forwarded request: which update, to which instance, and how it ended.
 * With `skipRefused`, an instance that refuses the connection (down, restarting) is skipped for the
 * next one, as Caddy's `lb_try_duration` does; a failure after the request went out is never retried.
 *
 * @example
 * const balancer = await startRoundRobin([8081, 8082]);
 * await bot.api.setWebhook(`${balancer.url}/telegram`);
 * balancer.log.filter((r) => r.updateId === 7); // [{ upstream: 8081, status: 200, … }]
 */
import { Agent, createServer, request } from "node:http";

export interface Forwarded {
  path: string;
  updateId: number | undefined;
  /** The message text of the update, when it has one. */
  text: string | undefined;
  /** The port of the instance it went to last. */
  upstream: number;
  /** performance.now() when it arrived, and when it ended. */
  at: number;
  endedAt?: number;
  /** The instance's status code, or undefined when the connection failed (then `error`). */
  status?: number;
  error?: string;
}

export interface RoundRobin {
  url: string;
  log: Forwarded[];
  close(): Promise<void>;
}

export async function startRoundRobin(
  upstreams: number[],
  options: { skipRefused?: boolean } = {},
): Promise<RoundRobin> {
  const agent = new Agent({ keepAlive: true });
  const log: Forwarded[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const first = next++;
      let update: { update_id?: number; message?: { text?: string } } = {};
      try {
        update = JSON.parse(body.toString("utf8"));
      } catch {}
      const entry: Forwarded = {
        path: req.url ?? "/",
        updateId: update.update_id,
        text: update.message?.text,
        upstream: 0,
        at: performance.now(),
      };
      log.push(entry);
      const fail = (error: Error) => {
        entry.error = error.message;
        entry.endedAt = performance.now();
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      };
      const attempt = (tried: number) => {
        const upstream = upstreams[(first + tried) % upstreams.length] ?? 0;
        entry.upstream = upstream;
        const out = request(
          {
            host: "127.0.0.1",
            port: upstream,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent,
          },
          (answer) => {
            entry.status = answer.statusCode;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on("end", () => {
              entry.endedAt = performance.now();
            });
            answer.on("error", fail);
          },
        );
        out.on("error", (error: NodeJS.ErrnoException) => {
          const refused = error.code === "ECONNREFUSED" && entry.status === undefined;
          if (options.skipRefused && refused && tried + 1 < upstreams.length) attempt(tried + 1);
          else fail(error);
        });
        out.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
