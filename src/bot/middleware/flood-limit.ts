/**
 * A per-user flood limit, per instance and in memory: flooding is about this process's work, and
 * a store round trip per update would cost more than it protects. Over the limit, the user is
 * told once per window and further updates are dropped; a dropped tap is still answered (with a
 * short "slow down"), so no button is left spinning (SECURITY.md, Reliability: every callback
 * query is answered).
 */
import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context.ts";
import { negotiateChosenLocale } from "../i18n.ts";

export interface FloodLimitOptions {
  /** Updates a user may send per window. */
  max?: number;
  windowMs?: number;
}

/** Real time, not the injected clock: flooding is about this process's work right now. */
export function floodLimit(options: FloodLimitOptions = {}): MiddlewareFn<BotContext> {
  const max = options.max ?? 30;
  const windowMs = options.windowMs ?? 10_000;
  const windows = new Map<number, { start: number; count: number }>();
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (userId === undefined) return next();
    const now = performance.now();
    let window = windows.get(userId);
    if (window === undefined || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      windows.set(userId, window);
      if (windows.size > 50_000) sweep(windows, now, windowMs);
    }
    window.count++;
    if (window.count <= max) return next();
    // Told in the language the user chose (put off until the lease on Redis: bot.ts).
    await negotiateChosenLocale(ctx);
    // Best effort, as in the error boundary: a query too old to answer must not become an error here.
    if (ctx.callbackQuery) await ctx.answerCallbackQuery(ctx.t("flood-slow-down-tap")).catch(() => undefined);
    if (window.count === max + 1 && ctx.chat?.type === "private") await ctx.reply(ctx.t("flood-slow-down"));
  };
}

function sweep(windows: Map<number, { start: number }>, now: number, windowMs: number): void {
  for (const [userId, window] of windows) if (now - window.start >= windowMs) windows.delete(userId);
}
