/**
 * The one door for messages the bot starts itself: a notice is rendered in the user's language and
 * goes out as the user chose for its kind in /settings (on, silent: Telegram's
 * `disable_notification`, or off), and as their quiet hours allow, through the {@link DeliveryQueue}.
 *
 * Kinds and quiet hours:
 * - `alerts` (price alerts) and `digest` follow the user's mode and are held during quiet hours
 *   (in the store, `held.ts`); `releaseHeld` (the jobs' tick) delivers them afterwards, merged
 *   into one message.
 * - `expiry` (the offer to stay logged in) follows the mode; during quiet hours it goes out
 *   silently: held until morning it would offer a session long gone.
 * - `orders` (an order settled or failed: money outcomes) follows the mode, never held; a notice
 *   marked `always` (the user was left not knowing) goes out even when the kind is off.
 * - `account` and `security` (auto-logout, security notices) always go out, with a sound, never held.
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
import { withReaderZone } from "../domain/reader-zone.ts";
import { localTime, zoneLabel } from "../domain/time-zone.ts";
import type { Translate } from "../domain/translate.ts";
import { NOTIFY_KINDS, type NotifyKind, type NotifyMode, type Profiles } from "../session/profiles.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import { type HeldNotice, HeldNotices, type HeldPrice } from "./held.ts";
import { DeliveryQueue, type DeliveryQueueOptions, type SendOther } from "./queue.ts";
import { clockText, inQuietHours } from "./quiet-hours.ts";

export type NoticeKind = NotifyKind | "account" | "security";

export interface Notice {
  userId: number;
  kind: NoticeKind;
  /** The language to use when the user has not picked one (e.g. the one they set the alert in). */
  locale?: string | undefined;
  /** Goes out even when the user switched its kind off (an order whose fate the user did not know). */
  always?: boolean;
  render(t: Translate, locale: string): { text: string; other?: SendOther };
  /** A price the text names: held past quiet hours, the delivery adds what it is by then. */
  price?: HeldPrice;
}

/**
 * The line a held notice that names a price gets when it is delivered (the price then and now,
 * worded by the caller, who knows the market), or undefined to leave the notice as it was.
 */
export type HeldPriceLine = (price: HeldPrice, t: Translate, locale: string) => Promise<string | undefined>;

/** What quiet hours do to a kind: hold it until they end, send it silently, or nothing. */
const DURING_QUIET: Record<NoticeKind, "hold" | "silent" | "ring"> = {
  alerts: "hold",
  digest: "hold",
  expiry: "silent",
  orders: "ring",
  account: "ring",
  security: "ring",
};

/** Telegram's limit on a message's text: a longer merge is split between notices. */
const MAX_TEXT = 4096;

export interface NotifierOptions {
  queue: DeliveryQueue;
  profiles: Profiles;
  /** Where notices held in quiet hours wait (the bot's store: they outlive a restart). */
  store: Store;
  /** Seals what is held (its text may name the user's money). */
  vault: Vault;
  clock: Clock;
  /** Fluent lookup outside an update (createI18n(...).t). */
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: string;
}

export type NotifyOutcome = "sent" | "silent" | "held" | "off";

export class Notifier {
  readonly queue: DeliveryQueue;
  readonly #options: NotifierOptions;
  readonly #held: HeldNotices;

  constructor(options: NotifierOptions) {
    this.queue = options.queue;
    this.#options = options;
    this.#held = new HeldNotices(options);
  }

  /** Renders the notice and queues it (or holds it); "off" when the user switched its kind off. */
  async notify(notice: Notice): Promise<NotifyOutcome> {
    const profile = await this.#options.profiles.get(notice.userId);
    const mode: NotifyMode = isUserKind(notice.kind) ? profile.notifications[notice.kind] : "on";
    if (mode === "off" && notice.always !== true) return "off";
    const now = this.#options.clock.now();
    const quiet = inQuietHours(profile, now) ? DURING_QUIET[notice.kind] : "ring";
    // Times in the notice are in the user's zone, named (bot/ui/format.ts reads it).
    const { text, other } = withReaderZone(profile.timeZone, () =>
      notice.render(this.#translator(profile, notice.locale), this.#locale(profile, notice.locale)),
    );
    if (quiet === "hold") {
      await this.#held.hold(notice.userId, {
        locale: this.#locale(profile, notice.locale),
        text,
        ...(other ? { other } : {}),
        kind: notice.kind,
        at: now,
        silent: mode === "silent",
        ...(notice.price ? { price: notice.price } : {}),
      });
      return "held";
    }
    const silent = mode === "silent" || quiet === "silent";
    this.#send(notice.userId, notice.kind, text, other, silent);
    return silent ? "silent" : "sent";
  }

  /**
   * Delivers what was held for users whose quiet hours are over (or who turned them off): one
   * notice as it was, several merged into one message (split at Telegram's length limit), silent
   * only when every part would have been. Run by the jobs' tick; returns how many users got theirs.
   */
  async releaseHeld(priceLine?: HeldPriceLine): Promise<number> {
    const now = this.#options.clock.now();
    let released = 0;
    for (const userId of await this.#held.users()) {
      const profile = await this.#options.profiles.get(userId);
      if (inQuietHours(profile, now)) continue;
      const taken = await this.#held.take(userId);
      if (taken.length === 0) continue;
      const notices = await withPriceNow(
        taken,
        priceLine,
        (locale) => this.#translator(profile, locale),
        (locale) => this.#locale(profile, locale),
      );
      released++;
      const silent = notices.every((n) => n.silent);
      // Formatted notices keep their own message: their markup cannot be mixed with plain text.
      const plain = notices.filter((n) => n.other?.parse_mode === undefined);
      for (const notice of notices) {
        if (plain.length > 1 && plain.includes(notice)) continue;
        this.#send(userId, notice.kind, notice.text, notice.other, silent);
      }
      if (plain.length > 1) {
        // The header in the language the held notices were worded in (an alert's, when the user never chose one).
        const t = this.#translator(profile, plain[plain.length - 1]?.locale);
        for (const text of merged(t, plain, profile.timeZone ?? "UTC"))
          this.#send(userId, "held", text, undefined, silent);
      }
    }
    return released;
  }

  #locale(profile: Awaited<ReturnType<Profiles["get"]>>, fallback: string | undefined): string {
    // The app's language, kept from the user's latest update, is fresher than the one a notice
    // was set up in (an alert, a plan); both only when the user never chose one.
    return profile.locale ?? profile.appLocale ?? fallback ?? this.#options.defaultLocale;
  }

  #translator(profile: Awaited<ReturnType<Profiles["get"]>>, fallback: string | undefined): Translate {
    const locale = this.#locale(profile, fallback);
    return (key, variables) => this.#options.translate(locale, key, variables);
  }

  #send(chatId: number, kind: string, text: string, other: SendOther | undefined, silent: boolean): void {
    const options = silent ? { ...other, disable_notification: true } : other;
    this.queue.enqueue({ chatId, text, kind, ...(options ? { other: options } : {}) });
  }
}

/**
 * Held notices with the price by now added under those that named one: a price alert held
 * through the night told the crossing price, and the user should not trade on it unawares.
 */
async function withPriceNow(
  notices: HeldNotice[],
  priceLine: HeldPriceLine | undefined,
  translator: (locale: string | undefined) => Translate,
  localeOf: (locale: string | undefined) => string,
): Promise<HeldNotice[]> {
  if (priceLine === undefined) return notices;
  const out: HeldNotice[] = [];
  for (const notice of notices) {
    const line =
      notice.price === undefined
        ? undefined
        : await priceLine(notice.price, translator(notice.locale), localeOf(notice.locale)).catch(
            () => undefined,
          );
    out.push(line === undefined ? notice : { ...notice, text: `${notice.text}\n${line}` });
  }
  return out;
}

function isUserKind(kind: NoticeKind): kind is NotifyKind {
  return (NOTIFY_KINDS as readonly string[]).includes(kind);
}

/**
 * Plain held notices as messages: a header, then each notice under the local time it came, in
 * order; their buttons are left out (a merged message has no one notice to act on).
 */
function merged(t: Translate, notices: readonly HeldNotice[], zone: string): string[] {
  const messages: string[] = [];
  let current = t("notify-held-header", { count: notices.length });
  for (const notice of notices) {
    const local = localTime(zone, notice.at);
    const part = `${clockText(local.hour * 60 + local.minute)} ${zoneLabel(zone)} · ${notice.text}`.slice(
      0,
      MAX_TEXT,
    );
    if (current.length + 2 + part.length > MAX_TEXT) {
      messages.push(current);
      current = part;
    } else {
      current = `${current}\n\n${part}`;
    }
  }
  messages.push(current);
  return messages;
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
