/**
 * `conversation.external`, with the bot's own errors surviving the trip. Conversations v2 passes
 * every `external` result, errors included, through `structuredClone` (and through JSON when the
 * state is stored), which turns an ExchangeError, NotLoggedInError or StoreUnavailableError into a
 * plain Error: the error boundary would then only say "something went wrong" instead of "log in
 * again", "the exchange is down" or "nothing was done, try again". Here the error is stored as plain data and rebuilt on the way out.
 *
 * Use it for every side effect inside a conversation.
 *
 * @example
 * const rate = await externalCall(conversation, () =>
 *   deps.sessions.use(userId, async (client) => (await client.exchangeRate("btceur")).price.toFixed()),
 * );
 */
import { ExchangeError, type ExchangeErrorDetails } from "../../exchange/errors.ts";
import { NotLoggedInError } from "../../session/errors.ts";
import { StoreUnavailableError } from "../../store/errors.ts";
import type { Flow } from "../context.ts";

type StoredError =
  | { type: "exchange"; message: string; details: ExchangeErrorDetails }
  | { type: "not-logged-in"; reason: "logged-out" | "expired" }
  | { type: "store-unavailable"; message: string }
  | { type: "other"; message: string };

function storeError(error: unknown): StoredError {
  if (error instanceof ExchangeError) {
    const details: ExchangeErrorDetails = {
      kind: error.kind,
      method: error.method,
      path: error.path,
      fieldErrors: error.fieldErrors,
      body: JSON.parse(JSON.stringify(error.body ?? null)) as unknown,
    };
    if (error.status !== undefined) details.status = error.status;
    if (error.requestId !== undefined) details.requestId = error.requestId;
    if (error.retryAfterMs !== undefined) details.retryAfterMs = error.retryAfterMs;
    return { type: "exchange", message: error.message, details };
  }
  if (error instanceof NotLoggedInError) return { type: "not-logged-in", reason: error.reason };
  if (error instanceof StoreUnavailableError) return { type: "store-unavailable", message: error.message };
  return { type: "other", message: error instanceof Error ? error.message : String(error) };
}

function loadError(stored: unknown): Error {
  const value = stored as StoredError;
  switch (value?.type) {
    case "exchange":
      return new ExchangeError(value.message, value.details);
    case "not-logged-in":
      return new NotLoggedInError(value.reason);
    case "store-unavailable": {
      // The driver's error (the cause) does not survive the trip; its summary is in the message.
      const error = new StoreUnavailableError(undefined);
      error.message = value.message;
      return error;
    }
    case "other":
      return new Error(value.message);
    default:
      return stored instanceof Error ? stored : new Error(String(stored));
  }
}

/** `conversation.external(task)`, with the bot's own errors surviving the trip. */
export function externalCall<T>(conversation: Flow, task: () => Promise<T>): Promise<T> {
  return conversation.external({ task, beforeStoreError: storeError, afterLoadError: loadError });
}
