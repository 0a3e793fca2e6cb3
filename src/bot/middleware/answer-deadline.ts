/**
 * A user never waits in silence (SECURITY.md, Reliability). Each update gets one deadline: when no
 * answer has gone out after `firstSignMs`, the chat shows "typing…" (renewed while the work goes
 * on, as Telegram clears it after 5 s), and every exchange call made while handling the update fits
 * in `finalMs` minus room for the sentence itself (exchange/deadline.ts), so the error boundary or
 * the flow can still say what happened in time.
 *
 * @example
 * bot.use(answerDeadline({ firstSignMs: 2_000, finalMs: 20_000 }));
 */
import type { MiddlewareFn } from "grammy";
import { withDeadline } from "../../exchange/deadline.ts";
import { systemTimers, type Timers } from "../../support/clock.ts";
import type { BotContext } from "../context.ts";

export interface AnswerDeadlineOptions {
  /** No answer after this long: show "typing…" (default 2 s). */
  firstSignMs?: number;
  /** The final sentence is out by then (default 20 s). */
  finalMs?: number;
  /** What waits for the first sign (tests move it instead of racing the machine's load). */
  timers?: Timers;
}

/** Telegram shows a chat action for about 5 s. */
const TYPING_RENEW_MS = 4_500;

/** Calls that put something in front of the user: after one, "typing…" would promise more. */
function answers(method: string): boolean {
  return method !== "sendChatAction" && (method.startsWith("send") || method.startsWith("edit"));
}

export function answerDeadline(options: AnswerDeadlineOptions = {}): MiddlewareFn<BotContext> {
  const firstSignMs = options.firstSignMs ?? 2_000;
  const finalMs = options.finalMs ?? 20_000;
  const timers = options.timers ?? systemTimers;
  // What the exchange may use of the deadline; the rest is for the reply (and its retries).
  const exchangeMs = finalMs - Math.min(3_000, Math.round(finalMs * 0.15));
  return async (ctx, next) => {
    const chatId = ctx.chat?.type === "private" ? ctx.chat.id : undefined;
    let cancel: (() => void) | undefined;
    if (chatId !== undefined) {
      let answered = false;
      // ctx.api is this update's own Api (flows inside conversations use it too).
      ctx.api.config.use((prev, method, payload, signal) => {
        if (answers(method)) answered = true;
        return prev(method, payload, signal);
      });
      const sign = () => {
        if (answered) return;
        ctx.api.sendChatAction(chatId, "typing").catch(() => undefined);
        cancel = timers.after(TYPING_RENEW_MS, sign);
      };
      cancel = timers.after(firstSignMs, sign);
    }
    try {
      await withDeadline(exchangeMs, () => next());
    } finally {
      cancel?.();
    }
  };
}
