import type { InlineKeyboardButton, InlineQueryResult, Message, MessageEntity, User } from "grammy/types";
import { DEFAULT_WAIT_MS, type RecordedCall } from "./calls.ts";
import { commandEntities } from "./formatting.ts";
import type { Log } from "./log.ts";
import type { ChatState, SentMessage, StoredMessage, World } from "./state.ts";
import type { NewUpdate } from "./updates.ts";

/**
 * The part of the double a user drives (BotApiDouble is one): a port, so fake-user.ts and
 * double.ts do not import each other.
 */
export interface UserDouble {
  readonly world: World;
  readonly callLog: Log<RecordedCall>;
  readonly messageLog: Log<SentMessage>;
  pushUpdate(update: NewUpdate): number;
  messages(chatId: number): SentMessage[];
  describeRecentCalls(count?: number, filter?: (call: RecordedCall) => boolean): string;
  now(): number;
}

export interface FakeUserOptions {
  firstName?: string;
  lastName?: string;
  username?: string;
  /** The Telegram client's language (`from.language_code`), e.g. "de". */
  languageCode?: string;
}

/** What a reply must look like: a test, a substring of its text, or a pattern. */
export type ReplyMatcher = ((message: SentMessage) => boolean) | string | RegExp;

/** The group `sendInGroup` uses when none is named. */
export const DEFAULT_GROUP_ID = -1001000000001;

/**
 * A Telegram user talking to the bot: sends messages, taps buttons, types inline queries, and reads
 * the bot's side of their private chat.
 *
 * Waiting never races the bot: `waitForReply` and `waitForCall` look at what arrived after the user's
 * latest action or after the last reply already waited for, whichever is later, so
 * `await user.send("/start"); await user.waitForReply()` sees the reply even if it came first.
 *
 * @example
 * const ada = double.user(42, { firstName: "Ada", languageCode: "de" });
 * await ada.send("/start");
 * const welcome = await ada.waitForReply(/Willkommen/);
 * await ada.tap("Log in");
 * await ada.waitForCall("answerCallbackQuery");
 */
export class FakeUser {
  readonly id: number;
  /** The `from` of this user's messages and queries. */
  readonly from: User;
  #double: UserDouble;
  #replyCursor = 0;
  #callCursor = 0;

  constructor(double: UserDouble, id: number, options: FakeUserOptions = {}) {
    this.#double = double;
    this.id = id;
    this.from = { id, is_bot: false, first_name: options.firstName ?? `User ${id}` };
    if (options.lastName !== undefined) this.from.last_name = options.lastName;
    if (options.username !== undefined) this.from.username = options.username;
    if (options.languageCode !== undefined) this.from.language_code = options.languageCode;
    double.world.addUser(this.from);
    this.#replyCursor = double.messageLog.length;
    this.#callCursor = double.callLog.length;
  }

  /** The private chat's state in the double. */
  get state(): ChatState {
    return this.#double.world.chat(this.id) as ChatState;
  }

  /** Sends a text message in the private chat; `/commands` get their bot_command entity. */
  async send(text: string, options: { replyTo?: number } = {}): Promise<Message> {
    return this.#post(this.state, { text, ...withEntities(commandEntities(text)) }, options.replyTo);
  }

  /** Sends a sticker, which a text-only flow should meet with a hint, not a crash. */
  async sendSticker(): Promise<Message> {
    const ids = this.#double.world.fileIds();
    return this.#post(this.state, {
      sticker: {
        ...ids,
        type: "regular",
        width: 512,
        height: 512,
        is_animated: false,
        is_video: false,
        emoji: "👍",
      },
    });
  }

  /** Sends a photo (with an optional caption). */
  async sendPhoto(caption?: string): Promise<Message> {
    const world = this.#double.world;
    const content: Partial<Message> = {
      photo: [
        { ...world.fileIds(), width: 90, height: 90, file_size: 1200 },
        { ...world.fileIds(), width: 1280, height: 960, file_size: 98_000 },
      ],
    };
    if (caption !== undefined) content.caption = caption;
    return this.#post(this.state, content);
  }

  /**
   * Shares a contact, as the "share my phone" button does (`own`: the user's own, with their
   * user_id) or as a contact picked from the address book (someone else's, `userId` of that person
   * or none).
   */
  async sendContact(contact: { phone: string; firstName?: string; userId?: number }): Promise<Message> {
    const shared: NonNullable<Message["contact"]> = {
      phone_number: contact.phone,
      first_name: contact.firstName ?? this.from.first_name,
    };
    if (contact.userId !== undefined) shared.user_id = contact.userId;
    return this.#post(this.state, { contact: shared });
  }

  /** Sends a text message in a supergroup the bot is in (created on first use). */
  async sendInGroup(text: string, groupId = DEFAULT_GROUP_ID): Promise<Message> {
    const group = this.#double.world.addGroup(groupId, "Test group");
    return this.#post(group, { text, ...withEntities(commandEntities(text)) });
  }

  /**
   * Taps a button on the latest bot message in this chat that has an inline keyboard (or on
   * `fromMessage`), matching its text exactly or by pattern; the bot gets a callback_query. Without an
   * inline match, a button of the reply keyboard the user sees is "tapped" by sending its text.
   * Returns the callback query id (undefined for a reply-keyboard button).
   */
  async tap(button: string | RegExp, fromMessage?: number | SentMessage): Promise<string | undefined> {
    const target = this.#keyboardMessage(fromMessage);
    const matches = (text: string) => (typeof button === "string" ? text === button : button.test(text));
    const found = target?.message.reply_markup?.inline_keyboard.flat().find((b) => matches(b.text));
    if (found !== undefined && target !== undefined) {
      if (!("callback_data" in found)) {
        throw new Error(
          `Button "${found.text}" on message ${target.message.message_id} does not send a callback (${buttonKind(found)}).`,
        );
      }
      return this.tapData(target.message.message_id, found.callback_data);
    }
    if (fromMessage === undefined) {
      const pressed = this.state.replyKeyboard?.keyboard
        .flat()
        .find((b) => matches(typeof b === "string" ? b : b.text));
      if (pressed !== undefined) {
        await this.send(typeof pressed === "string" ? pressed : pressed.text);
        return undefined;
      }
    }
    throw new Error(this.#describeNoButton(button, target));
  }

  /** Sends a callback_query with raw data for a message, as a (possibly stale or repeated) tap would. */
  async tapData(messageId: number, data: string): Promise<string> {
    const stored = this.state.messages.get(messageId);
    if (stored === undefined) throw new Error(`There is no message ${messageId} in chat ${this.id}.`);
    const world = this.#double.world;
    const id = world.queryId();
    world.callbackQueries.set(id, { userId: this.id, chatId: this.id, answered: false });
    this.#acted();
    this.#double.pushUpdate({
      callback_query: {
        id,
        from: this.from,
        message: structuredClone(stored.message),
        chat_instance: String(this.id * 7 + 1),
        data,
      },
    });
    return id;
  }

  /** Types `@bot query` in some chat; returns the inline query's id (a string, as in Telegram). */
  async inlineQuery(query: string, options: { offset?: string } = {}): Promise<string> {
    const world = this.#double.world;
    const id = world.queryId();
    world.inlineQueries.set(id, { userId: this.id, chatId: undefined, answered: false });
    this.#acted();
    this.#double.pushUpdate({
      inline_query: { id, from: this.from, query, offset: options.offset ?? "", chat_type: "sender" },
    });
    return id;
  }

  /** The results the bot answered an inline query with. */
  async inlineResults(queryId: string, timeoutMs = DEFAULT_WAIT_MS): Promise<InlineQueryResult[]> {
    const call = await this.waitForCall(
      "answerInlineQuery",
      (c) => c.payload.inline_query_id === queryId,
      timeoutMs,
    );
    return call.payload.results as InlineQueryResult[];
  }

  /** The bot's messages in this chat as they are now (edits applied, deleted ones gone). */
  messages(): SentMessage[] {
    return this.#double.messages(this.id);
  }

  /** The bot's newest message in this chat. */
  lastMessage(): SentMessage | undefined {
    return this.messages().at(-1);
  }

  /** Ids of messages deleted in this chat, the user's own included (a typed password, say). */
  deletedMessageIds(): number[] {
    return [...this.state.deletedIds];
  }

  /**
   * The bot's next message (sent or edited) in this chat that matches, after the user's latest
   * action or the last reply waited for. Rejects after `timeoutMs` listing the recent calls.
   */
  async waitForReply(match?: ReplyMatcher, timeoutMs = DEFAULT_WAIT_MS): Promise<SentMessage> {
    const test = toPredicate(match);
    const hit = await this.#double.messageLog.waitFor(
      this.#replyCursor,
      (m) => m.chatId === this.id && test(m),
      timeoutMs,
      () =>
        `No ${match === undefined ? "" : `matching (${String(match)}) `}bot message in chat ${this.id} within ${timeoutMs} ms.\n` +
        this.#double.describeRecentCalls(12),
    );
    this.#replyCursor = hit.index + 1;
    return hit.item;
  }

  /** The bot's next call of `method` about this user (their chat or their query), after their latest action. */
  async waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<RecordedCall> {
    const name = method.toLowerCase();
    const hit = await this.#double.callLog.waitFor(
      this.#callCursor,
      (c) =>
        c.method.toLowerCase() === name && (c.chatId === this.id || c.userId === this.id) && predicate(c),
      timeoutMs,
      () =>
        `No ${method} call for user ${this.id} within ${timeoutMs} ms.\n${this.#double.describeRecentCalls(12)}`,
    );
    this.#callCursor = hit.index + 1;
    return hit.item;
  }

  async #post(state: ChatState, content: Partial<Message>, replyTo?: number): Promise<Message> {
    const message = {
      message_id: state.nextMessageId++,
      date: Math.floor(this.#double.now() / 1000),
      chat: state.chat,
      from: this.from,
      ...content,
    } as Message;
    if (replyTo !== undefined) {
      const target = state.messages.get(replyTo);
      if (target === undefined)
        throw new Error(`There is no message ${replyTo} in chat ${state.chat.id} to reply to.`);
      message.reply_to_message = target.message as Message & { reply_to_message: undefined };
    }
    this.#double.world.store(state, message, false);
    this.#acted();
    this.#double.pushUpdate({ message: structuredClone(message) } as NewUpdate);
    return message;
  }

  /** Waiting starts afresh after each action: replies to earlier actions are no longer "next". */
  #acted(): void {
    this.#replyCursor = this.#double.messageLog.length;
    this.#callCursor = this.#double.callLog.length;
  }

  #keyboardMessage(fromMessage: number | SentMessage | undefined): StoredMessage | undefined {
    const messages = this.state.messages;
    if (fromMessage !== undefined) {
      const id = typeof fromMessage === "number" ? fromMessage : fromMessage.messageId;
      const stored = messages.get(id);
      if (stored === undefined || stored.deleted)
        throw new Error(`Message ${id} is not in chat ${this.id} (deleted?).`);
      return stored;
    }
    return [...messages.values()]
      .reverse()
      .find((m) => m.fromBot && !m.deleted && (m.message.reply_markup?.inline_keyboard.length ?? 0) > 0);
  }

  #describeNoButton(button: string | RegExp, target: StoredMessage | undefined): string {
    const wanted = typeof button === "string" ? `"${button}"` : String(button);
    const inline =
      target === undefined
        ? "no bot message in this chat has an inline keyboard"
        : `message ${target.message.message_id} ("${(target.sent?.text ?? "").slice(0, 40)}") has ${
            target.message.reply_markup?.inline_keyboard
              .map((row) => row.map((b) => `[${b.text}]`).join(" "))
              .join(" / ") ?? "none"
          }`;
    const reply = this.state.replyKeyboard?.keyboard
      .map((row) => row.map((b) => `[${typeof b === "string" ? b : b.text}]`).join(" "))
      .join(" / ");
    return `No button ${wanted} to tap in chat ${this.id}: ${inline}; reply keyboard: ${reply ?? "none"}.`;
  }
}

function withEntities(entities: MessageEntity[]): { entities?: MessageEntity[] } {
  return entities.length > 0 ? { entities } : {};
}

function toPredicate(match: ReplyMatcher | undefined): (m: SentMessage) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "string") return (m) => m.text.includes(match);
  if (match instanceof RegExp) return (m) => match.test(m.text);
  return match;
}

function buttonKind(button: InlineKeyboardButton): string {
  return (
    Object.keys(button)
      .filter((k) => k !== "text")
      .join(", ") || "text only"
  );
}
