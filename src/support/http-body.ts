/**
 * A request body read up to a limit, for the routes of the bot's HTTP server (the webhook, the
 * Mini App login). A declared length over the limit is refused with 413 before a byte is read; a
 * body that grows past it (chunked, or longer than declared) is cut off there with 413: what is
 * beyond the limit is never read into memory.
 *
 * @example
 * const text = await readBoundedBody(req, res, 64 * 1024);
 * if (text === undefined) return; // 413 was answered
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The body as text, or undefined after answering 413 (the connection is closed then). */
export function readBoundedBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<string | undefined> {
  const tooLarge = () => {
    res.writeHead(413, { connection: "close" }).end();
    // Nothing more of it is read: the connection goes once the answer is out.
    res.once("finish", () => req.destroy());
  };
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    tooLarge();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.pause();
        tooLarge();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
