/**
 * A route on the bot's HTTP server: it answers the request and returns true, or returns false to
 * leave it to the next route. Features below the process (charts, the Mini App login) offer routes
 * of this shape; `process/webhook.ts` serves them beside the webhook.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type HttpRoute = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
