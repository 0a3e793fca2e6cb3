/**
 * The first call `npm start` makes to Telegram (getMe, what grammY's `bot.init` makes), with what an
 * operator needs to hear about it. A token Telegram refuses (401, or 404 for a malformed one) is a
 * configuration error: one sentence, no stack trace. An unreachable Bot API is not: within
 * `attemptMs` (under 10 s) one line says so at info, and the bot keeps trying with a growing pause,
 * so a start during a network blip or a DNS hiccup recovers by itself.
 *
 * @example
 * await connectTelegram(bot, { log, apiRoot: config.telegramApiRoot });
 */
import { setTimeout as delay } from "node:timers/promises";
import { type Bot, type Context, GrammyError } from "grammy";
import type { Logger } from "../support/logger.ts";

export class TokenRefusedError extends Error {
  constructor(status: number) {
    super(
      `BOT_TOKEN was refused by Telegram (${status}): copy the token @BotFather gave you (/mybots → API Token) into BOT_TOKEN.`,
    );
    this.name = "TokenRefusedError";
  }
}

export interface ConnectOptions {
  log: Logger;
  apiRoot: string;
  /** How long one getMe may take before it counts as unreachable. */
  attemptMs?: number;
  /** Pauses between attempts; the last one repeats. */
  pausesMs?: readonly number[];
  /** Waits between attempts (injected by tests). */
  wait?: (ms: number) => Promise<unknown>;
}

const DEFAULT_PAUSES_MS = [2_000, 5_000, 10_000, 30_000];

export async function connectTelegram<C extends Context>(
  bot: Bot<C>,
  options: ConnectOptions,
): Promise<void> {
  const attemptMs = options.attemptMs ?? 8_000;
  const pauses = options.pausesMs ?? DEFAULT_PAUSES_MS;
  const wait = options.wait ?? ((ms: number) => delay(ms));
  for (let attempt = 0; ; attempt++) {
    try {
      // bot.init() would retry getMe inside grammY, silently, until its signal ends; one call per
      // attempt lets every failure be seen and said.
      bot.botInfo = await bot.api.getMe(grammySignal(AbortSignal.timeout(attemptMs)));
      if (attempt > 0) options.log.info({ attempts: attempt + 1 }, "reached Telegram");
      return;
    } catch (error) {
      if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
        throw new TokenRefusedError(error.error_code);
      }
      const pauseMs = pauses[Math.min(attempt, pauses.length - 1)] ?? 30_000;
      options.log.info(
        { apiRoot: options.apiRoot, reason: reasonOf(error), retryInSeconds: pauseMs / 1000 },
        "cannot reach Telegram; trying again",
      );
      await wait(pauseMs);
    }
  }
}

/**
 * grammY types signals as its Node polyfill's AbortSignal, which Node's own does not match as a
 * type; at run time grammY only passes it on to fetch (bot/transport/undici-fetch.ts takes either).
 */
function grammySignal(signal: AbortSignal): Parameters<Bot["api"]["getMe"]>[0] {
  return signal as unknown as Parameters<Bot["api"]["getMe"]>[0];
}

/** The cause a person can act on (refused, timed out, DNS), not grammY's wrapper text. */
function reasonOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    // The only abort here is the attempt's own timeout.
    if (current.name === "TimeoutError" || current.name === "AbortError" || code === "UND_ERR_ABORTED") {
      return "no answer in time";
    }
    if (typeof code === "string") return code;
    if (current instanceof GrammyError) return `${current.error_code} ${current.description}`;
    current = (current as { cause?: unknown }).cause ?? (current as { error?: unknown }).error;
  }
  return error instanceof Error ? error.message : String(error);
}
