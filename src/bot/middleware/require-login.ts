/**
 * Guards account features: a user without a live session gets a Log in button instead of an
 * error, and an expired session says so. Also records activity for auto-logout.
 */
import type { MiddlewareFn } from "grammy";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { loginKeyboard } from "../ui/keyboards.ts";

export function requireLogin(deps: Pick<BotDeps, "sessions">): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const status = await deps.sessions.status(userId);
    if (status.state !== "active") {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery();
      await ctx.reply(ctx.t(status.state === "expired" ? "session-expired" : "login-required"), {
        reply_markup: loginKeyboard(ctx.t),
      });
      return;
    }
    await deps.sessions.touch(userId);
    await next();
  };
}
