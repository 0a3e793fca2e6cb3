/**
 * A round-robin forwarder on loopback that acts as deploy/Caddyfile's load balancer does
 * (round-robin.ts records webhook deliveries for the drain tests instead): each request goes to the next instance in turn (not sticky), with its method, path, headers and
 * body; an instance that refuses the connection is skipped for the next one (Caddy's
 * `lb_try_duration`), and when none takes it the answer is 502. Every forwarded request is
 * recorded with the instance that answered and its status.
 *
 * @example
 * const lb = await startRoundRobin(["http://127.0.0.1:8081", "http://127.0.0.1:8082"]);
 * // point WEBHOOK_URL at `${lb.url}/telegram`
 * await lb.close();
 */
import { createServer, type IncomingHttpHeaders, request } from "node:http";

export interface Forwarded {
  /** Index into the targets of the instance that answered (undefined: none took it). */
  target: number | undefined;
  path: string;
  status: number;
  body: Buffer;
}

export interface RoundRobin {
  url: string;
  forwarded: Forwarded[];
  close(): Promise<void>;
}

export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  const forwarded: Forwarded[] = [];
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? "/";
    const first = next++ % targets.length;
    for (let tried = 0; tried < targets.length; tried++) {
      const target = (first + tried) % targets.length;
      const answer = await send(targets[target] ?? "", req.method ?? "GET", path, req.headers, body).catch(
        (error: NodeJS.ErrnoException) => error,
      );
      // Refused: the instance is down, the next one is tried. Any other failure (a reset after the
      // request went out) is not retried: the caller gets 502, as from Caddy.
      if (answer instanceof Error && answer.code === "ECONNREFUSED") continue;
      if (answer instanceof Error) break;
      forwarded.push({ target, path, status: answer.status, body });
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    forwarded.push({ target: undefined, path, status: 502, body }); // no instance answered
    res.writeHead(502).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(
  base: string,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const out = request(url, { method, headers: { ...headers, host: url.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () =>
        resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }),
      );
      answer.on("error", reject);
    });
    out.on("error", reject);
    out.end(body);
  });
}
