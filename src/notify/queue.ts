/**
 * The delivery queue for messages the bot starts itself (alerts, order updates, expiry warnings,
 * auto-logout notices): one queue per process that paces sends under Telegram's broadcast limits,
 * about 30 messages a second overall and one a second per chat (SECURITY.md, Reliability). Replies
 * to a user's own message never go through it: they go out at once.
 *
 * - Pacing: sends start on a schedule of slots `1000 / globalPerSecond` ms apart (with a small
 *   margin), and a chat is offered again only `perChatIntervalMs` after its last send started and
 *   once that send finished (one in flight per chat keeps a chat's messages in order). Among chats
 *   that may send, the one whose next message was queued first goes first.
 * - 429: the message goes back to the head of its chat, which waits `retry_after` seconds; when
 *   several chats get a 429 within a second, all sending waits (a global flood limit). A 429 never
 *   drops a message.
 * - 403 (the user blocked the bot): the message and everything else queued for that chat are
 *   dropped, and `onBlocked` is told once (the alert book pauses the user's alerts).
 * - 400 (bad request, chat not found): dropped at once and logged. Network errors and 5xx: retried
 *   with backoff, up to `maxAttempts`, then dropped and logged.
 * - Memory: pending messages are kept in memory, in order, per chat (a few hundred bytes each: a
 *   burst of 10,000 is a few MB). They are not persisted: a crash loses what was still queued.
 *
 * @example
 * const queue = new DeliveryQueue({ send: (m) => api.sendMessage(m.chatId, m.text, m.other) });
 * queue.enqueue({ chatId: 42, text: "BTC is above €60,000.00" });
 * await queue.idle();
 */
import { GrammyError, HttpError } from "grammy";
import { systemTimers, type Timers } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";

/** The optional parameters of sendMessage that notices use. */
export interface SendOther {
  reply_markup?: unknown;
  parse_mode?: "HTML" | "MarkdownV2";
  link_preview_options?: { is_disabled?: boolean };
  /** Delivered without a sound (a notice kind set to "silent", or quiet hours). */
  disable_notification?: boolean;
}

export interface Outgoing {
  chatId: number;
  text: string;
  other?: SendOther;
  /** What kind of notice this is, for logs. */
  kind?: string;
}

export interface DeliveryQueueOptions {
  /** Sends one message; rejects with grammY's GrammyError / HttpError (or anything else). */
  send: (message: Outgoing) => Promise<unknown>;
  /** Messages per second to all chats together (default 30, Telegram's broadcast limit). */
  globalPerSecond?: number;
  /** Least time between two sends to one chat (default 1000 ms). */
  perChatIntervalMs?: number;
  /** Sends in flight at once (default 32): enough to reach the rate when Telegram answers slowly. */
  maxInFlight?: number;
  /** Attempts for network errors and 5xx before a message is dropped (default 5). */
  maxAttempts?: number;
  /** Told once per block when a chat answers 403 (the user blocked the bot). */
  onBlocked?: (chatId: number) => Promise<void> | void;
  log?: Pick<Logger, "warn" | "error">;
  /** What pacing and retries wait on (default: real time, which Telegram's limits are measured in). */
  timers?: Timers;
}

export interface DeliveryStats {
  /** Delivered. */
  sent: number;
  /** 429s received (each one retried after `retry_after`). */
  rateLimited: number;
  /** Other errors retried. */
  retried: number;
  /** Dropped because the chat blocked the bot (403), including what was queued behind. */
  blocked: number;
  /** Dropped after a permanent error or too many attempts. */
  failed: number;
}

interface Pending {
  message: Outgoing;
  seq: number;
  attempts: number;
}

interface ChatQueue {
  chatId: number;
  items: Pending[];
  head: number;
  /** Not before this time (ms). */
  readyAt: number;
  /** Where the chat is: waiting for its time, ready to send, sending, or idle (empty). */
  state: "waiting" | "ready" | "sending" | "idle";
}

/** A small binary heap. */
class Heap<T> {
  readonly #items: T[] = [];
  readonly #before: (a: T, b: T) => boolean;
  constructor(before: (a: T, b: T) => boolean) {
    this.#before = before;
  }
  get size(): number {
    return this.#items.length;
  }
  peek(): T | undefined {
    return this.#items[0];
  }
  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(items[i] as T, items[parent] as T)) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && this.#before(items[l] as T, items[best] as T)) best = l;
        if (r < items.length && this.#before(items[r] as T, items[best] as T)) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best] as T, items[i] as T];
        i = best;
      }
    }
    return top;
  }
}

/** Margin on Telegram's figures: arrivals jitter, and a 429 costs a whole second. */
const PACING_MARGIN = 1.03;
/** Timers fire a millisecond or two late; that much is made up on the next slot. */
const TIMER_SLACK_MS = 2;

export class DeliveryQueue {
  readonly stats: DeliveryStats = { sent: 0, rateLimited: 0, retried: 0, blocked: 0, failed: 0 };
  readonly #send: DeliveryQueueOptions["send"];
  readonly #gapMs: number;
  readonly #perChatMs: number;
  readonly #maxInFlight: number;
  readonly #maxAttempts: number;
  readonly #onBlocked: DeliveryQueueOptions["onBlocked"];
  readonly #log: DeliveryQueueOptions["log"];
  readonly #timers: Timers;

  readonly #chats = new Map<number, ChatQueue>();
  readonly #waiting = new Heap<ChatQueue>((a, b) => a.readyAt < b.readyAt);
  readonly #ready = new Heap<ChatQueue>((a, b) => headSeq(a) < headSeq(b));
  #seq = 0;
  #pending = 0;
  #inFlight = 0;
  #nextSlot = 0;
  #pausedUntil = 0;
  #recent429: number[] = [];
  #cancelTimer: (() => void) | undefined;
  #timerAt = 0;
  #stopped = false;
  #idleWaiters: Array<() => void> = [];
  #sweepAt = 1024;

  constructor(options: DeliveryQueueOptions) {
    this.#send = options.send;
    this.#gapMs = (1000 / (options.globalPerSecond ?? 30)) * PACING_MARGIN;
    this.#perChatMs = (options.perChatIntervalMs ?? 1000) * PACING_MARGIN;
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#maxAttempts = options.maxAttempts ?? 5;
    this.#onBlocked = options.onBlocked;
    this.#log = options.log;
    this.#timers = options.timers ?? systemTimers;
  }

  /** Messages queued or in flight. */
  get pending(): number {
    return this.#pending;
  }

  /** Queues a message; it goes out as soon as the limits allow. */
  enqueue(message: Outgoing): void {
    if (this.#stopped) {
      this.#log?.warn({ chatId: message.chatId, kind: message.kind }, "notice queued after stop: dropped");
      this.stats.failed++;
      return;
    }
    let chat = this.#chats.get(message.chatId);
    if (!chat) {
      chat = { chatId: message.chatId, items: [], head: 0, readyAt: 0, state: "idle" };
      this.#chats.set(message.chatId, chat);
      if (this.#chats.size >= this.#sweepAt) this.#sweep();
    }
    chat.items.push({ message, seq: this.#seq++, attempts: 0 });
    this.#pending++;
    if (chat.state === "idle") this.#offer(chat);
    this.#schedule(0);
  }

  /** Sends started and not answered yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stops sending. With `drainMs`, first waits up to that long for the queue to empty (clean
   * shutdown); what is left is dropped and counted as failed.
   */
  async stop(options: { drainMs?: number } = {}): Promise<void> {
    if (options.drainMs && this.#pending > 0) {
      const drainMs = options.drainMs;
      let cancel: (() => void) | undefined;
      await Promise.race([
        this.idle(),
        new Promise<void>((resolve) => {
          cancel = this.#timers.after(drainMs, resolve);
        }),
      ]);
      cancel?.();
    }
    this.#stopped = true;
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    if (this.#pending > this.#inFlight) {
      this.#log?.warn(
        { dropped: this.#pending - this.#inFlight },
        "delivery queue stopped with notices pending",
      );
    }
  }

  /**
   * Idle chats are kept while their per-chat interval runs (a new message must still wait for it);
   * after that they are forgotten, swept whenever the map has doubled.
   */
  #sweep(): void {
    const now = this.#timers.now();
    for (const [chatId, chat] of this.#chats) {
      if (chat.state === "idle" && chat.readyAt <= now) this.#chats.delete(chatId);
    }
    this.#sweepAt = Math.max(1024, this.#chats.size * 2);
  }

  /** Puts a chat with messages where it belongs: ready now, or waiting for its time. */
  #offer(chat: ChatQueue): void {
    if (chat.head >= chat.items.length) {
      chat.items = [];
      chat.head = 0;
      chat.state = "idle";
      return;
    }
    if (chat.readyAt <= this.#timers.now()) {
      chat.state = "ready";
      this.#ready.push(chat);
    } else {
      chat.state = "waiting";
      this.#waiting.push(chat);
    }
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    const at = this.#timers.now() + Math.max(0, delayMs);
    if (this.#cancelTimer !== undefined && this.#timerAt <= at) return;
    this.#cancelTimer?.();
    this.#timerAt = at;
    this.#cancelTimer = this.#timers.after(Math.max(0, delayMs), () => {
      this.#cancelTimer = undefined;
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#stopped) return;
    for (;;) {
      const now = this.#timers.now();
      while ((this.#waiting.peek()?.readyAt ?? Number.POSITIVE_INFINITY) <= now) {
        const chat = this.#waiting.pop() as ChatQueue;
        chat.state = "ready";
        this.#ready.push(chat);
      }
      if (this.#inFlight >= this.#maxInFlight) return; // a completion pumps again
      if (now < this.#pausedUntil) {
        this.#schedule(this.#pausedUntil - now);
        return;
      }
      if (this.#ready.size === 0) {
        const next = this.#waiting.peek();
        if (next) this.#schedule(next.readyAt - now);
        return;
      }
      if (now < this.#nextSlot) {
        this.#schedule(this.#nextSlot - now);
        return;
      }
      const chat = this.#ready.pop() as ChatQueue;
      const item = chat.items[chat.head++] as Pending;
      // Slots follow the schedule, so a timer a little late does not push every later send back,
      // but never allow a burst: at most TIMER_SLACK_MS of lateness is made up.
      this.#nextSlot = Math.max(this.#nextSlot, now - TIMER_SLACK_MS) + this.#gapMs;
      chat.state = "sending";
      chat.readyAt = now + this.#perChatMs;
      this.#inFlight++;
      this.#deliver(chat, item);
    }
  }

  #deliver(chat: ChatQueue, item: Pending): void {
    item.attempts++;
    this.#send(item.message).then(
      () => {
        this.stats.sent++;
        this.#done(chat, 1);
      },
      (error: unknown) => this.#failed(chat, item, error),
    );
  }

  #failed(chat: ChatQueue, item: Pending, error: unknown): void {
    const now = this.#timers.now();
    const code = error instanceof GrammyError ? error.error_code : undefined;
    if (code === 429) {
      this.stats.rateLimited++;
      const waitMs = (error instanceof GrammyError ? (error.parameters.retry_after ?? 1) : 1) * 1000;
      this.#recent429 = [...this.#recent429.filter((t) => t > now - 1000), now];
      if (this.#recent429.length >= 2) this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
      item.attempts--; // a 429 is Telegram pacing us, not a failure
      this.#retry(chat, item, now + waitMs);
      return;
    }
    if (code === 403) {
      const dropped = chat.items.length - chat.head + 1;
      this.stats.blocked += dropped;
      chat.items = [];
      chat.head = 0;
      this.#log?.warn({ chatId: chat.chatId, dropped }, "chat blocked the bot: its notices are dropped");
      Promise.resolve()
        .then(() => this.#onBlocked?.(chat.chatId))
        .catch((err: unknown) => this.#log?.error({ err, chatId: chat.chatId }, "onBlocked failed"));
      this.#done(chat, dropped);
      return;
    }
    const permanent = code !== undefined && code >= 400 && code < 500;
    if (
      permanent ||
      item.attempts >= this.#maxAttempts ||
      !(error instanceof HttpError || code !== undefined)
    ) {
      this.stats.failed++;
      this.#log?.error(
        { err: error, chatId: chat.chatId, kind: item.message.kind, attempts: item.attempts },
        "notice could not be delivered: dropped",
      );
      this.#done(chat, 1);
      return;
    }
    this.stats.retried++;
    const backoff = Math.min(30_000, 500 * 2 ** (item.attempts - 1)) * (0.75 + Math.random() * 0.5);
    this.#retry(chat, item, now + backoff);
  }

  /** Back to the head of its chat, not before `at`. */
  #retry(chat: ChatQueue, item: Pending, at: number): void {
    chat.items[--chat.head] = item;
    chat.readyAt = Math.max(chat.readyAt, at);
    this.#inFlight--;
    this.#offer(chat);
    this.#schedule(0);
  }

  #done(chat: ChatQueue, count: number): void {
    this.#inFlight--;
    this.#pending -= count;
    this.#offer(chat);
    if (this.#pending === 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
    this.#schedule(0);
  }
}

function headSeq(chat: ChatQueue): number {
  return chat.items[chat.head]?.seq ?? Number.POSITIVE_INFINITY;
}
