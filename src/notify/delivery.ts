/**
 * Builds the delivery side from what it needs of the app (the bot's deps satisfy it): the queue
 * over its own raw Bot API client, the Notifier with the Fluent bundles, and a 403 from a user
 * pausing their alerts. Its own narrow type, so `notify/` (below `bot/`) never imports `bot/`.
 *
 * @example
 * const delivery = createDelivery({ deps, api: bot.api });
 * await delivery.notifier.notify({ userId, kind: "orders", render: (t) => ({ text: t("...") }) });
 * await delivery.stop(); // waits a little for what is queued
 */
import type { Api } from "grammy";
import type { Profiles } from "../session/profiles.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import { apiDeliveryQueue, Notifier } from "./notifier.ts";
import type { DeliveryQueue, DeliveryQueueOptions } from "./queue.ts";

/** What delivery uses of the app: a narrow view of `BotDeps`. */
export interface DeliveryDeps {
  /** Pauses a user's alerts when Telegram says the user blocked the bot. */
  alertBook: { pause(userId: number, at: number): Promise<void> };
  /** The Fluent bundles (createI18n(...)): notices are rendered outside any update. */
  i18n: { t(locale: string, key: string, variables?: Record<string, string | number>): string };
  profiles: Profiles;
  /** Notices held in quiet hours wait here. */
  store: Store;
  vault: Vault;
  clock: Clock;
  log: Logger;
  config: { defaultLocale: string };
}

export interface Delivery {
  notifier: Notifier;
  queue: DeliveryQueue;
  /** Stops sending after waiting up to `drainMs` (default 5 s) for the queue to empty. */
  stop(options?: { drainMs?: number }): Promise<void>;
}

export function createDelivery(options: {
  deps: DeliveryDeps;
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
    store: deps.store,
    vault: deps.vault,
    clock: deps.clock,
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    defaultLocale: deps.config.defaultLocale,
  });
  return {
    notifier,
    queue,
    stop: (stopOptions = {}) => queue.stop({ drainMs: stopOptions.drainMs ?? 5_000 }),
  };
}
