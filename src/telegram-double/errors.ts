import type { ResponseParameters } from "grammy/types";

/** The body Telegram answers a failed call with; the HTTP status equals `error_code`. */
export interface ErrorEnvelope {
  ok: false;
  error_code: number;
  description: string;
  parameters?: ResponseParameters;
}

/**
 * A failed Bot API call, thrown by the double's method handlers and turned into Telegram's error
 * envelope by the HTTP layer. The descriptions copy Telegram's wording, because bots (and grammY's
 * plugins) branch on them.
 *
 * @example
 * throw new BotApiError(400, "Bad Request: message text is empty");
 */
export class BotApiError extends Error {
  readonly code: number;
  readonly parameters: ResponseParameters | undefined;

  constructor(code: number, description: string, parameters?: ResponseParameters) {
    super(description);
    this.name = "BotApiError";
    this.code = code;
    this.parameters = parameters;
  }

  toEnvelope(): ErrorEnvelope {
    const envelope: ErrorEnvelope = { ok: false, error_code: this.code, description: this.message };
    if (this.parameters !== undefined) envelope.parameters = this.parameters;
    return envelope;
  }
}

/** 400 with Telegram's "Bad Request: " prefix. */
export function badRequest(what: string): BotApiError {
  return new BotApiError(400, `Bad Request: ${what}`);
}

/** 403 with Telegram's "Forbidden: " prefix. */
export function forbidden(what: string): BotApiError {
  return new BotApiError(403, `Forbidden: ${what}`);
}

/** 409, as for a second poller or polling while a webhook is set. */
export function conflict(what: string): BotApiError {
  return new BotApiError(409, `Conflict: ${what}`);
}

/** 429 with `retry_after` in whole seconds, as Telegram sends it. */
export function tooManyRequests(retryAfter: number): BotApiError {
  return new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
}

export const notFound = (): BotApiError => new BotApiError(404, "Not Found");
export const unauthorized = (): BotApiError => new BotApiError(401, "Unauthorized");
