/**
 * Telegram's flood limits, as documented for bots: about one message per second in a private chat,
 * 20 a minute in a group, 30 a second overall. Telegram does not publish exact windows; these are
 * sliding windows, which is strict enough to show whether a bot paces its broadcasts.
 */
export interface RateLimits {
  /** Messages per second to one private chat (default 1). */
  perChatPerSecond?: number;
  /** Messages per minute to one group or supergroup (default 20). */
  perGroupPerMinute?: number;
  /** Messages per second to all chats together (default 30). */
  globalPerSecond?: number;
}

const DEFAULTS: Required<RateLimits> = { perChatPerSecond: 1, perGroupPerMinute: 20, globalPerSecond: 30 };

/**
 * Counts message-sending calls and says when one would exceed a limit.
 *
 * @example
 * const limiter = new RateLimiter({});
 * limiter.take(42, true, Date.now()); // undefined: allowed and counted
 * limiter.take(42, true, Date.now()); // 1: retry after one second
 */
export class RateLimiter {
  #limits: Required<RateLimits> | false;
  #perChat = new Map<number, number[]>();
  #global: number[] = [];

  constructor(limits: RateLimits | false) {
    this.#limits = limits === false ? false : { ...DEFAULTS, ...limits };
  }

  get enabled(): boolean {
    return this.#limits !== false;
  }

  /** Switches limits on (with these values) or off; the counts start afresh. */
  set(limits: RateLimits | false): void {
    this.#limits = limits === false ? false : { ...DEFAULTS, ...limits };
    this.#perChat.clear();
    this.#global = [];
  }

  /**
   * Returns `undefined` and counts the message when it may go out now, or the whole seconds to wait
   * (Telegram's `retry_after`, at least 1) when it may not; refused messages are not counted.
   */
  take(chatId: number, isPrivate: boolean, now: number): number | undefined {
    if (this.#limits === false) return undefined;
    const chatWindow = isPrivate ? 1000 : 60_000;
    const chatMax = isPrivate ? this.#limits.perChatPerSecond : this.#limits.perGroupPerMinute;
    const chat = prune(this.#perChat.get(chatId) ?? [], now - chatWindow);
    this.#global = prune(this.#global, now - 1000);
    const waits: number[] = [];
    if (chat.length >= chatMax) waits.push((chat[chat.length - chatMax] as number) + chatWindow - now);
    if (this.#global.length >= this.#limits.globalPerSecond) {
      waits.push((this.#global[this.#global.length - this.#limits.globalPerSecond] as number) + 1000 - now);
    }
    if (waits.length > 0) {
      this.#perChat.set(chatId, chat);
      return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    }
    chat.push(now);
    this.#perChat.set(chatId, chat);
    this.#global.push(now);
    return undefined;
  }
}

function prune(times: number[], after: number): number[] {
  let i = 0;
  while (i < times.length && (times[i] as number) <= after) i++;
  return i === 0 ? times : times.slice(i);
}
