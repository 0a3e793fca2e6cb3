import type {
  Chat,
  ForceReply,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  ReplyKeyboardMarkup,
  ReplyKeyboardRemove,
  User,
} from "grammy/types";

/** Any `reply_markup` a bot may send. */
export type ReplyMarkup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;

/** An uploaded file as the double records it: its bytes are counted, not kept. */
export interface FileSummary {
  filename: string;
  size: number;
  mime: string;
  /** The uploaded bytes (sent messages keep them, logs do not): a test reads the file back. */
  bytes?: Uint8Array;
}

/**
 * A message the bot sent, as the chat shows it now (or showed it when the snapshot was taken).
 * `text` is what the user reads: the text or caption with `parse_mode` markup applied.
 */
export interface SentMessage {
  messageId: number;
  chatId: number;
  kind: "text" | "photo" | "document";
  /** The text or caption as the user sees it (tags removed, entities applied). */
  text: string;
  /** The text or caption exactly as the bot sent it, markup included. */
  source: string;
  parseMode: string | undefined;
  entities: MessageEntity[];
  replyMarkup: ReplyMarkup | undefined;
  /** The inline keyboard's button texts, row by row ([] without one): handy in assertions. */
  buttons: string[][];
  /** The uploaded photo or document, when it was uploaded rather than referenced by file_id or URL. */
  file: FileSummary | undefined;
  /** The photo or document as referenced (file_id, URL or the upload's summary). */
  media: string | FileSummary | undefined;
  edited: boolean;
  /** The Message object the bot got back. */
  message: Message;
}

/** One message in a chat, from either side. */
export interface StoredMessage {
  message: Message;
  fromBot: boolean;
  deleted: boolean;
  sent?: SentMessage;
}

/** A chat the double knows, with its messages (message ids are per chat, shared by both sides). */
export interface ChatState {
  chat: Chat;
  nextMessageId: number;
  messages: Map<number, StoredMessage>;
  deletedIds: number[];
  blocked: boolean;
  /**
   * Groups: whether the bot may delete other members' messages (an admin with "Delete messages").
   * True unless a test takes the right away (`BotApiDouble.denyDeletes`).
   */
  botMayDeleteOthers: boolean;
  /** The reply keyboard the user currently sees, if any. */
  replyKeyboard: ReplyKeyboardMarkup | undefined;
  menuButton: unknown;
}

/** A callback or inline query a user made and the bot may answer once. */
export interface QueryState {
  userId: number;
  chatId: number | undefined;
  answered: boolean;
  answer?: Record<string, unknown>;
}

/**
 * Everything on the Telegram side of the conversation: users, chats, messages and open queries.
 *
 * @example
 * const world = new World();
 * world.addUser({ id: 42, is_bot: false, first_name: "Ada" });
 * world.chat(42)?.chat.type; // "private"
 */
export class World {
  readonly users = new Map<number, User>();
  readonly chats = new Map<number, ChatState>();
  readonly callbackQueries = new Map<string, QueryState>();
  readonly inlineQueries = new Map<string, QueryState>();
  #nextQueryId = 1;
  #nextFileId = 1;

  /** Adds a user (or updates their name) and opens their private chat with the bot. */
  addUser(user: User): ChatState {
    this.users.set(user.id, user);
    const existing = this.chats.get(user.id);
    const chat: Chat.PrivateChat = { id: user.id, type: "private", first_name: user.first_name };
    if (user.last_name !== undefined) chat.last_name = user.last_name;
    if (user.username !== undefined) chat.username = user.username;
    if (existing !== undefined) {
      existing.chat = chat;
      return existing;
    }
    return this.#addChat(chat);
  }

  /** Adds a supergroup the bot is a member of. */
  addGroup(id: number, title: string): ChatState {
    return this.chats.get(id) ?? this.#addChat({ id, type: "supergroup", title });
  }

  #addChat(chat: Chat): ChatState {
    const state: ChatState = {
      chat,
      nextMessageId: 1,
      messages: new Map(),
      deletedIds: [],
      blocked: false,
      botMayDeleteOthers: true,
      replyKeyboard: undefined,
      menuButton: undefined,
    };
    this.chats.set(chat.id, state);
    return state;
  }

  chat(id: number): ChatState | undefined {
    return this.chats.get(id);
  }

  /** Finds a chat by "@username" (Telegram accepts it as chat_id for public chats). */
  chatByUsername(username: string): ChatState | undefined {
    const name = username.replace(/^@/, "").toLowerCase();
    for (const state of this.chats.values()) {
      if ("username" in state.chat && state.chat.username?.toLowerCase() === name) return state;
    }
    return undefined;
  }

  store(state: ChatState, message: Message, fromBot: boolean): StoredMessage {
    const stored: StoredMessage = { message, fromBot, deleted: false };
    state.messages.set(message.message_id, stored);
    return stored;
  }

  /** A fresh query id; Telegram's are long decimal strings. */
  queryId(): string {
    return String(4_000_000_000_000_000 + this.#nextQueryId++);
  }

  /** A fresh file_id and file_unique_id pair. */
  fileIds(): { file_id: string; file_unique_id: string } {
    const n = this.#nextFileId++;
    return { file_id: `AgACAgIAAxkBAAI${n.toString(36).padStart(6, "0")}`, file_unique_id: `AQAD${n}` };
  }
}
