import type { MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../../support/logger.ts";
import type { BotContext } from "../context.ts";

/**
 * Told of each update handled and of each error the boundary answered (metrics.ts implements it;
 * the bot knows only this shape).
 */
export interface UpdateObserver {
  /** `kind` is the update's field (message, callback_query, inline_query, …). */
  updateHandled(kind: string, seconds: number): void;
  /** `kind` is the error's (exchange-<kind>, store-unavailable, not-logged-in, other). */
  updateFailed(kind: string): void;
}

/** The update's kind: its one field besides update_id (a loop over keys, no array made). */
export function updateKind(update: Update): string {
  for (const key in update) if (key !== "update_id") return key;
  return "unknown";
}

/** Times each update: its kind and how long it took, never its text (it may be a password). */
export function updateLogger(log: Logger, observer?: UpdateObserver): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (observer !== undefined)
        observer.updateHandled(updateKind(ctx.update), (performance.now() - started) / 1000);
      if (log.isLevelEnabled("debug")) {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        log.debug({ updateId: ctx.update.update_id, kind: updateKind(ctx.update), ms }, "update handled");
      }
    }
  };
}
