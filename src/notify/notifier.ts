/**
 * The one door for messages the bot starts itself: a notice is rendered in the user's language,
 * dropped when the user switched that kind off in /settings, and queued in the {@link DeliveryQueue}.
 *
 * Kinds: `alerts` (price alerts), `orders` (an order settled or failed), `expiry` (offer to stay
 * logged in) follow the user's switches; `account` (auto-logout, order outcomes) and `security`
 * (safety/security-events.ts: a login, a changed setting, a freeze) always go out, never silenced.
 *
 * @example
 * // order tracking, when an order settled:
 * await notifier.notify({
 *   userId,
 *   kind: "orders",
 *   render: (t) => ({ text: t("order-settled", { amount }) }),
 * });
 */
import { Api } from "grammy";
import type { Profiles } from "../session/profiles.ts";
import type { Translate } from "../translate.ts";
import { DeliveryQueue, type DeliveryQueueOptions, type SendOther } from "./queue.ts";

export type NoticeKind = "alerts" | "orders" | "expiry" | "account" | "security";

export interface Notice {
  userId: number;
  kind: NoticeKind;
  /** The language to use when the user has not picked one (e.g. the one they set the alert in). */
  locale?: string | undefined;
  render(t: Translate, locale: string): { text: string; other?: SendOther };
}

export interface NotifierOptions {
  queue: DeliveryQueue;
  profiles: Profiles;
  /** Fluent lookup outside an update (createI18n(...).t). */
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: string;
}

export class Notifier {
  readonly queue: DeliveryQueue;
  readonly #options: NotifierOptions;

  constructor(options: NotifierOptions) {
    this.queue = options.queue;
    this.#options = options;
  }

  /** Renders and queues the notice; false when the user switched this kind of notice off. */
  async notify(notice: Notice): Promise<boolean> {
    const profile = await this.#options.profiles.get(notice.userId);
    const { kind } = notice;
    if (kind !== "account" && kind !== "security" && !profile.notifications[kind]) return false;
    const locale = profile.locale ?? notice.locale ?? profile.appLocale ?? this.#options.defaultLocale;
    const t: Translate = (key, variables) => this.#options.translate(locale, key, variables);
    const { text, other } = notice.render(t, locale);
    this.queue.enqueue({ chatId: notice.userId, text, kind: notice.kind, ...(other ? { other } : {}) });
    return true;
  }
}

/**
 * The queue over the Bot API: its own `Api` instance without auto-retry (the queue handles 429
 * itself, so a retry never jumps the pacing), pointed where the bot's is.
 */
export function apiDeliveryQueue(
  api: Pick<Api, "token" | "options">,
  options: Omit<DeliveryQueueOptions, "send"> = {},
): DeliveryQueue {
  const raw = new Api(api.token, api.options);
  return new DeliveryQueue({
    ...options,
    send: (message) => raw.sendMessage(message.chatId, message.text, message.other as never),
  });
}
