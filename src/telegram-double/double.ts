import type { Server } from "node:http";
import type { BotCommand, UserFromGetMe } from "grammy/types";
import { type Clock, systemClock } from "../support/clock.ts";
import { DEFAULT_WAIT_MS, type RecordedCall } from "./calls.ts";
import { BotApiError, notFound } from "./errors.ts";
import { FakeUser, type FakeUserOptions } from "./fake-user.ts";
import { listen, serverPort } from "./http.ts";
import { Log } from "./log.ts";
import { type CallScope, type MethodHost, methods } from "./methods.ts";
import { type Payload, Upload } from "./payload.ts";
import { RateLimiter, type RateLimits } from "./rate-limit.ts";
import { type SentMessage, World } from "./state.ts";
import { type NewUpdate, UpdateQueue } from "./updates.ts";

export { DEFAULT_WAIT_MS, type RecordedCall };

export interface BotApiDoubleOptions {
  /** The only token accepted; any other gets 401 Unauthorized. */
  token?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /**
   * Telegram's flood limits. Off by default, so tests of replies never trip them; benchmarks and
   * tests of broadcast pacing pass `{}` (Telegram's figures) or their own, or call `setLimits` later.
   */
  limits?: RateLimits | false;
  /** Overrides of what getMe returns. */
  botInfo?: Partial<UserFromGetMe>;
  /** The time written into message dates. */
  clock?: Clock;
  /**
   * The time flood limits and `RecordedCall.at` are measured on. Real time by default, as a bot's
   * retry waits are real; a test that paces its sends on a ManualTimers passes that here.
   */
  limitsClock?: Clock;
}

/** The fields of `RecordedCall.payload` that a multipart body carries as JSON text. */
const JSON_FIELDS = new Set([
  "reply_markup",
  "entities",
  "caption_entities",
  "reply_parameters",
  "link_preview_options",
  "allowed_updates",
  "commands",
  "scope",
  "results",
  "menu_button",
  "message_ids",
  "button",
  "media",
]);

/**
 * A fake Telegram Bot API server on loopback. Point a real grammY bot at it with
 * `client: { apiRoot: double.apiRoot }`, drive users with `double.user(id)`, and read what the bot did
 * from `calls` or the user's chat.
 *
 * @example
 * const double = await startBotApiDouble();
 * const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot } });
 * bot.command("start", (ctx) => ctx.reply("Hi!"));
 * void bot.start();
 * const ada = double.user(42, { firstName: "Ada" });
 * await ada.send("/start");
 * (await ada.waitForReply()).text; // "Hi!"
 * await bot.stop();
 * await double.close();
 */
export async function startBotApiDouble(options: BotApiDoubleOptions = {}): Promise<BotApiDouble> {
  const double = new BotApiDouble(options);
  await double.listen(options.port ?? 0);
  return double;
}

/** See {@link startBotApiDouble}. */
export class BotApiDouble {
  readonly token: string;
  readonly botInfo: UserFromGetMe;
  /** Counts for benchmarks: messages that went out, and 429s handed out. */
  readonly stats = { sent: 0, rateLimited: 0 };
  /** Users, chats and messages on the Telegram side. */
  readonly world = new World();
  /** Every call, in the order they were answered. */
  readonly callLog = new Log<RecordedCall>();
  /** Every message the bot sent or edited, as snapshots, in order. */
  readonly messageLog = new Log<SentMessage>();
  #queue: UpdateQueue;
  #limiter: RateLimiter;
  #clock: Clock;
  #limitsClock: Clock;
  #server: Server | undefined;
  #host: MethodHost;
  #users = new Map<number, FakeUser>();
  #inFlight = 0;
  #lastCallAt = 0;

  constructor(options: BotApiDoubleOptions = {}) {
    this.token = options.token ?? "123456789:TEST-double-token";
    const id = Number(this.token.split(":")[0]) || 123456789;
    this.botInfo = {
      id,
      is_bot: true,
      first_name: "Sandbox Exchange",
      username: "sandbox_exchange_bot",
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: true,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
      ...options.botInfo,
    };
    this.#clock = options.clock ?? systemClock;
    this.#limitsClock = options.limitsClock ?? systemClock;
    this.#limiter = new RateLimiter(options.limits ?? false);
    this.#queue = new UpdateQueue(async (method, payload) => {
      // grammY's webhook reply: the method call came back in the webhook's response body.
      await this.#dispatch(method, payload, () => {}).catch(() => {});
    });
    this.#host = {
      world: this.world,
      queue: this.#queue,
      limiter: this.#limiter,
      botInfo: this.botInfo,
      stats: this.stats,
      commands: new Map<string, BotCommand[]>(),
      menuButtons: new Map(),
      now: () => this.#clock.now(),
      limitsNow: () => this.#limitsClock.now(),
      emitMessage: (sent) => this.messageLog.append(sent),
    };
  }

  /** Starts listening; {@link startBotApiDouble} does this for you. */
  async listen(port: number): Promise<void> {
    this.#server = await listen(port, this.token, (method, payload, onAbort) =>
      this.#dispatch(method, payload, onAbort),
    );
  }

  /** `http://127.0.0.1:PORT`, for grammY's `client.apiRoot` or TELEGRAM_API_ROOT. */
  get apiRoot(): string {
    if (this.#server === undefined) throw new Error("The Bot API double is not listening yet.");
    return `http://127.0.0.1:${serverPort(this.#server)}`;
  }

  /** Every call so far (same array as `callLog.items`). */
  get calls(): RecordedCall[] {
    return this.callLog.items;
  }

  /** Calls `listener` with each call as it is answered (the demo prints the bot's replies this way). */
  on(event: "call", listener: (call: RecordedCall) => void): () => void {
    if (event !== "call") throw new Error(`Unknown event ${String(event)}`);
    return this.callLog.subscribe(listener);
  }

  /** Feeds an update to the bot (by long polling or webhook, whichever it uses); returns its update_id. */
  pushUpdate(update: NewUpdate): number {
    return this.#queue.push(update);
  }

  /** Delivers an already pushed update again, with the same update_id, as Telegram sometimes does. */
  redeliver(updateId: number): void {
    this.#queue.redeliver(updateId);
  }

  /** Updates not yet confirmed by the bot. */
  get pendingUpdates(): number {
    return this.#queue.pendingCount;
  }

  /** Whether a bot's getUpdates long poll is being held open right now (it is "listening"). */
  get isPolling(): boolean {
    return this.#queue.isPolling;
  }

  /** A user with a private chat with the bot; the same id gives the same user. */
  user(id: number, options: FakeUserOptions = {}): FakeUser {
    let user = this.#users.get(id);
    if (user === undefined) {
      user = new FakeUser(this, id, options);
      this.#users.set(id, user);
    }
    return user;
  }

  /**
   * The user blocks the bot: further sends to their private chat get 403 "Forbidden: bot was blocked
   * by the user". With `notify`, the bot also gets the my_chat_member update Telegram sends.
   */
  blockBot(userId: number, options: { notify?: boolean } = {}): void {
    this.#setBlocked(userId, true, options.notify ?? false);
  }

  /**
   * The bot is a plain member of group `groupId` (created if new): deleting another member's
   * message there gets 400 "message can't be deleted", as in Telegram without the admin right.
   */
  denyDeletes(groupId: number, title = "Test group"): void {
    this.world.addGroup(groupId, title).botMayDeleteOthers = false;
  }

  /** The user restarts the bot after blocking it. */
  unblockBot(userId: number, options: { notify?: boolean } = {}): void {
    this.#setBlocked(userId, false, options.notify ?? false);
  }

  #setBlocked(userId: number, blocked: boolean, notify: boolean): void {
    const state = this.user(userId).state;
    if (state.blocked === blocked) return;
    state.blocked = blocked;
    if (!notify) return;
    const from = this.user(userId).from;
    const me = {
      id: this.botInfo.id,
      is_bot: true as const,
      first_name: this.botInfo.first_name,
      username: this.botInfo.username,
    };
    const member = { user: me, status: "member" as const };
    const kicked = { user: me, status: "kicked" as const, until_date: 0 };
    this.pushUpdate({
      my_chat_member: {
        chat: state.chat,
        from,
        date: Math.floor(this.#clock.now() / 1000),
        old_chat_member: blocked ? member : kicked,
        new_chat_member: blocked ? kicked : member,
      },
    } as NewUpdate);
  }

  /** Switches flood limits on (`{}` for Telegram's figures) or off (`false`) while running. */
  setLimits(limits: RateLimits | false): void {
    this.#limiter.set(limits);
  }

  /** The bot's current messages in a chat (after edits and deletes). */
  messages(chatId: number): SentMessage[] {
    const state = this.world.chat(chatId);
    if (state === undefined) return [];
    return [...state.messages.values()]
      .filter((m) => m.fromBot && !m.deleted && m.sent)
      .map((m) => m.sent as SentMessage);
  }

  /** The next call of `method` (case-insensitive) answered from now on that matches. */
  async waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<RecordedCall> {
    const name = method.toLowerCase();
    const hit = await this.callLog.waitFor(
      this.callLog.length,
      (c) => c.method.toLowerCase() === name && predicate(c),
      timeoutMs,
      () => `No ${method} call within ${timeoutMs} ms.\n${this.describeRecentCalls()}`,
    );
    return hit.item;
  }

  /**
   * Resolves once every pushed update was confirmed by the bot (or answered by its webhook), no call
   * is being answered, and none came in for `quietMs`. A convenience for demos and benchmarks: tests
   * should wait for the reply they expect instead.
   */
  async waitUntilIdle(options: { quietMs?: number; timeoutMs?: number } = {}): Promise<void> {
    const quietMs = options.quietMs ?? 50;
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      const quietFor = Date.now() - this.#lastCallAt;
      if (this.#queue.pendingCount === 0 && this.#inFlight === 0 && quietFor >= quietMs) return;
      if (Date.now() > deadline) {
        throw new Error(
          `The bot did not go idle: ${this.#queue.pendingCount} update(s) unconfirmed, ${this.#inFlight} call(s) in flight.\n${this.describeRecentCalls()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(5, Math.min(quietMs - quietFor, 20))));
    }
  }

  /** The last calls, one line each, for error messages. */
  describeRecentCalls(count = 12, filter: (call: RecordedCall) => boolean = () => true): string {
    const recent = this.calls
      .filter((c) => c.method.toLowerCase() !== "getupdates" && filter(c))
      .slice(-count);
    if (recent.length === 0)
      return "The bot made no calls (besides getUpdates). Is it running and pointed at this double?";
    return `Recent calls:\n${recent.map(describeCall).join("\n")}`;
  }

  /** Stops the server: waiting long polls are answered, open connections closed. */
  async close(): Promise<void> {
    this.#queue.close();
    const server = this.#server;
    if (server === undefined) return;
    this.#server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // Let the answered long polls flush before cutting what is still open.
      setTimeout(() => server.closeAllConnections(), 50).unref();
    });
  }

  /** Milliseconds since the epoch by the double's clock (for message dates). */
  now(): number {
    return this.#clock.now();
  }

  async #dispatch(method: string, payload: Payload, onAbort: (cb: () => void) => void): Promise<unknown> {
    const handler = methods[method.toLowerCase()];
    const isPoll = method.toLowerCase() === "getupdates";
    const call: RecordedCall = {
      seq: 0,
      method,
      payload: recordable(payload),
      at: this.#limitsClock.now(),
      ok: false,
    };
    const scope: CallScope = { onAbort };
    const chatId = Number(payload.chat_id);
    if (Number.isInteger(chatId)) scope.chatId = chatId;
    if (!isPoll) {
      this.#inFlight++;
      this.#lastCallAt = Date.now();
    }
    try {
      if (handler === undefined) throw notFound();
      const result = await handler(payload, this.#host, scope);
      call.ok = true;
      call.result = result;
      return result;
    } catch (error) {
      if (error instanceof BotApiError) {
        const envelope = error.toEnvelope();
        call.error = { error_code: envelope.error_code, description: envelope.description };
        if (envelope.parameters !== undefined) call.error.parameters = envelope.parameters;
      }
      throw error;
    } finally {
      if (scope.chatId !== undefined) call.chatId = scope.chatId;
      if (scope.userId !== undefined) call.userId = scope.userId;
      if (!isPoll) {
        this.#inFlight--;
        this.#lastCallAt = Date.now();
      }
      call.seq = this.callLog.length;
      this.callLog.append(call);
    }
  }
}

function recordable(payload: Payload): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value instanceof Upload) out[key] = value.toJSON();
    else if (typeof value === "string" && JSON_FIELDS.has(key)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else out[key] = value;
  }
  return out;
}

/** One line per call: `#3 sendMessage chat=42 "Welcome…" → ok`. */
export function describeCall(call: RecordedCall): string {
  const text = call.payload.text ?? call.payload.caption ?? call.payload.action ?? call.payload.data;
  const what = typeof text === "string" ? ` "${text.length > 60 ? `${text.slice(0, 60)}…` : text}"` : "";
  const where = call.chatId !== undefined ? ` chat=${call.chatId}` : "";
  const outcome = call.ok ? "ok" : `${call.error?.error_code ?? "?"} ${call.error?.description ?? ""}`;
  return `  #${call.seq} ${call.method}${where}${what} → ${outcome}`;
}
