/**
 * The fetch grammY uses for every Bot API call, retrying a 429 after Telegram's `retry_after`.
 *
 * Why at this depth: inside a conversation, grammY's transformers (auto-retry included) sit
 * outside the conversation's recorder of API calls, so a recorded 429 would be waited for again
 * on every replay of the flow. Beneath the recorder, the flow records only the final answer.
 * @grammyjs/auto-retry stays on `bot.api` for the rest of what it does (5xx).
 *
 * Only calls whose body can be sent again are retried (JSON); an upload's stream is used up, so
 * its 429 is returned as it is.
 */
import { setTimeout as delay } from "node:timers/promises";
import { undiciFetch, withNativeSignal } from "./undici-fetch.ts";

export interface RetryingFetchOptions {
  maxRetries?: number;
  /** A longer `retry_after` is not waited for: the caller gets the 429. */
  maxDelaySeconds?: number;
  /** Default: undici `request` on a keep-alive Agent (undici-fetch.ts). */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export function retryingFetch(options: RetryingFetchOptions = {}): typeof fetch {
  const inner = options.fetch ?? undiciFetch();
  // The default fetch takes grammY's polyfilled signal as it is (and makes a native one itself
  // only for what it hands to the global fetch); another fetch gets a native one here.
  const nativeSignal = options.fetch !== undefined;
  const maxRetries = options.maxRetries ?? 3;
  const maxDelaySeconds = options.maxDelaySeconds ?? 60;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  return async (input, givenInit) => {
    const init = nativeSignal ? withNativeSignal(givenInit) : givenInit;
    const replayable = init?.body === undefined || init.body === null || typeof init.body === "string";
    for (let attempt = 0; ; attempt++) {
      const response = await inner(input, init);
      if (response.status !== 429 || !replayable || attempt >= maxRetries) return response;
      const retryAfter = await retryAfterOf(response.clone());
      if (retryAfter === undefined || retryAfter > maxDelaySeconds) return response;
      await response.body?.cancel();
      await sleep(retryAfter * 1000);
    }
  };
}

async function retryAfterOf(response: Response): Promise<number | undefined> {
  try {
    const body = (await response.json()) as { parameters?: { retry_after?: unknown } };
    const value = body.parameters?.retry_after;
    return typeof value === "number" && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
