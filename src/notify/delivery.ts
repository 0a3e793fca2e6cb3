/**
 * Builds the delivery side from the bot's deps: the queue over its own raw Bot API client, the
 * Notifier with the Fluent bundles, and a 403 from a user pausing their alerts.
 *
 * @example
 * const delivery = createDelivery({ deps, api: bot.api });
 * await delivery.notifier.notify({ userId, kind: "orders", render: (t) => ({ text: t("...") }) });
 * await delivery.stop(); // waits a little for what is queued
 */
import type { Api } from "grammy";
import type { BotDeps } from "../bot/deps.ts";
import { apiDeliveryQueue, Notifier } from "./notifier.ts";
import type { DeliveryQueue, DeliveryQueueOptions } from "./queue.ts";

export interface Delivery {
  notifier: Notifier;
  queue: DeliveryQueue;
  /** Stops sending after waiting up to `drainMs` (default 5 s) for the queue to empty. */
  stop(options?: { drainMs?: number }): Promise<void>;
}

export function createDelivery(options: {
  deps: Pick<BotDeps, "alertBook" | "i18n" | "profiles" | "clock" | "log" | "config">;
  api: Pick<Api, "token" | "options">;
  /** Limits and hooks of the queue (tests and benchmarks change them). */
  queue?: Omit<DeliveryQueueOptions, "send" | "onBlocked">;
}): Delivery {
  const { deps } = options;
  const { alertBook: book, i18n } = deps;
  const queue = apiDeliveryQueue(options.api, {
    log: deps.log,
    ...options.queue,
    onBlocked: (chatId) => book.pause(chatId, deps.clock.now()),
  });
  const notifier = new Notifier({
    queue,
    profiles: deps.profiles,
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    defaultLocale: deps.config.defaultLocale,
  });
  return {
    notifier,
    queue,
    stop: (stopOptions = {}) => queue.stop({ drainMs: stopOptions.drainMs ?? 5_000 }),
  };
}
