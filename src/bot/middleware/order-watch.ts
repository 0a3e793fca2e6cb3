import type { MiddlewareFn } from "grammy";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { orderNoticeText } from "../ui/quote-card.ts";

/** How often (at most) a returning user's open orders are checked. */
const WATCH_INTERVAL_MS = 60_000;

/**
 * "When the user comes back": after each private update, at most once a minute per user (a store
 * claim, so across instances too), reconcile the user's open orders and tell them the news.
 * Cheap when there is nothing open (nearly always): one read of the user's open-orders flag (kept
 * in memory with SQLite), no write.
 */
export function orderWatch(
  deps: Pick<BotDeps, "orders" | "store" | "phishing">,
): MiddlewareFn<PrivateContext> {
  // A memo in front of the store claim: the claim is a write, and most updates come from users
  // this instance has just checked (measured: the claim cost more than the rest of a /help).
  const checkedAt = new Map<number, number>();
  return async (ctx, next) => {
    await next();
    const userId = ctx.from.id;
    const now = performance.now();
    if (now - (checkedAt.get(userId) ?? Number.NEGATIVE_INFINITY) < WATCH_INTERVAL_MS) return;
    checkedAt.set(userId, now);
    if (checkedAt.size > 100_000) checkedAt.clear();
    // Asked before the claim: the claim is a write (and a key kept for a minute) per user.
    if (!(await deps.orders.hasOpen(userId))) return;
    if (!(await deps.store.setIfAbsent(`order-watch:${userId}`, 1, WATCH_INTERVAL_MS))) return;
    const notices = await deps.orders.reconcileUser(userId);
    if (notices.length === 0) return;
    const locale = await ctx.i18n.getLocale();
    const phrase = await deps.phishing.get(userId);
    for (const notice of notices) {
      await ctx.api.sendMessage(userId, orderNoticeText(ctx.t, notice, locale, phrase));
    }
  };
}
