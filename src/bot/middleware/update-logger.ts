import type { MiddlewareFn } from "grammy";
import type { Logger } from "../../logger.ts";
import type { BotContext } from "../context.ts";

/** Times each update: its kind and how long it took, never its text (it may be a password). */
export function updateLogger(log: Logger): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (log.isLevelEnabled("debug")) {
        const kind = Object.keys(ctx.update).find((key) => key !== "update_id");
        log.debug(
          { updateId: ctx.update.update_id, kind, ms: Math.round((performance.now() - started) * 10) / 10 },
          "update handled",
        );
      }
    }
  };
}
