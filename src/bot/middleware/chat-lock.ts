/**
 * One update per private chat at a time across instances. `sequentialize` orders a chat's updates
 * within one process; behind a load balancer two instances can get two updates of one chat at once,
 * and both would replay the chat's conversation from the same stored state (the later write wins,
 * the other answer is lost). A short lease in the store (setIfAbsent with a TTL, released with
 * deleteIfEquals) puts them in a row. Only needed with a shared store (Redis): createBot installs
 * it when asked.
 *
 * @example
 * inPrivate.use(chatLock(store));
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { MiddlewareFn } from "grammy";
import type { Logger } from "../../logger.ts";
import type { Store } from "../../store/store.ts";
import type { BotContext } from "../context.ts";

export interface ChatLockOptions {
  /** A crashed holder's lease runs out after this. */
  leaseMs?: number;
  /** How long an update waits for the chat before it goes ahead anyway (logged). */
  waitMs?: number;
  pollMs?: number;
}

export function chatLock(store: Store, log: Logger, options: ChatLockOptions = {}): MiddlewareFn<BotContext> {
  const leaseMs = options.leaseMs ?? 30_000;
  const waitMs = options.waitMs ?? 20_000;
  const pollMs = options.pollMs ?? 25;
  return async (ctx, next) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    const key = `chat-lock:${chatId}`;
    const holder = randomUUID();
    const deadline = performance.now() + waitMs;
    let held = await store.setIfAbsent(key, holder, leaseMs);
    while (!held && performance.now() < deadline) {
      await delay(pollMs);
      held = await store.setIfAbsent(key, holder, leaseMs);
    }
    if (!held) log.warn({ chatId }, "chat lock not obtained in time; handling the update anyway");
    try {
      await next();
    } finally {
      if (held) await store.deleteIfEquals(key, holder);
    }
  };
}
