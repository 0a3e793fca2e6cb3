/**
 * Two helpers for small read-only flows (/price, /fees) inside conversations v2.
 *
 * `externalCall` runs an exchange call through `conversation.external` and keeps its error's type:
 * conversations v2 passes every `external` result, errors included, through `structuredClone`, which
 * turns an ExchangeError or NotLoggedInError into a plain Error, so the error boundary would only
 * see "something went wrong". Here the error is stored as plain data and rebuilt on the way out.
 *
 * `waitForAnswer` waits for typed text or a tap on one of the flow's own buttons. A command ends
 * the flow and is handled as if no flow were running (these flows only ask, they hold nothing);
 * a tap on someone else's button passes on to its handler; anything else gets a hint.
 *
 * @example
 * const rate = await externalCall(conversation, () =>
 *   deps.sessions.use(userId, async (client) => (await client.exchangeRate("btceur")).price.toFixed()),
 * );
 */
import { ExchangeError, type ExchangeErrorDetails } from "../../exchange/errors.ts";
import { NotLoggedInError } from "../../session/errors.ts";
import type { Flow, FlowContext } from "../context.ts";

type StoredError =
  | { type: "exchange"; message: string; details: ExchangeErrorDetails }
  | { type: "not-logged-in"; reason: "logged-out" | "expired" }
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
  return { type: "other", message: error instanceof Error ? error.message : String(error) };
}

function loadError(stored: unknown): Error {
  const value = stored as StoredError;
  switch (value?.type) {
    case "exchange":
      return new ExchangeError(value.message, value.details);
    case "not-logged-in":
      return new NotLoggedInError(value.reason);
    case "other":
      return new Error(value.message);
    default:
      return stored instanceof Error ? stored : new Error(String(stored));
  }
}

/** `conversation.external(task)`, with ExchangeError and NotLoggedInError surviving the trip. */
export function externalCall<T>(conversation: Flow, task: () => Promise<T>): Promise<T> {
  return conversation.external({ task, beforeStoreError: storeError, afterLoadError: loadError });
}

export type Answer =
  | { kind: "text"; text: string; ctx: FlowContext }
  | { kind: "tap"; data: string; ctx: FlowContext };

export async function waitForAnswer(conversation: Flow, callbacks: RegExp): Promise<Answer> {
  const ctx = await conversation.wait();
  const text = ctx.message?.text;
  if (text !== undefined && !text.startsWith("/")) return { kind: "text", text: text.trim(), ctx };
  const data = ctx.callbackQuery?.data;
  if (data !== undefined && callbacks.test(data)) {
    await ctx.answerCallbackQuery();
    return { kind: "tap", data, ctx };
  }
  // Another command: this flow only asked a question, so it steps aside and the command runs.
  if (text !== undefined) return conversation.halt({ next: true });
  // Someone else's button, an edit, a reaction: not ours, let its handler have it.
  if (!ctx.message) return conversation.skip({ next: true });
  await ctx.reply(ctx.t("flow-hint-text"));
  return conversation.skip();
}
