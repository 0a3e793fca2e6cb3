import type {
  BotCommand,
  ChatFullInfo,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  User,
  UserFromGetMe,
} from "grammy/types";
import { badRequest, forbidden, tooManyRequests } from "./errors.ts";
import { parseFormatted } from "./formatting.ts";
import { bool, int, json, type Payload, str, Upload } from "./payload.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ChatState, FileSummary, ReplyMarkup, SentMessage, StoredMessage, World } from "./state.ts";
import type { GetUpdatesParams, UpdateQueue, WebhookParams } from "./updates.ts";

/** What a method handler may use; the double provides it. */
export interface MethodHost {
  world: World;
  queue: UpdateQueue;
  limiter: RateLimiter;
  botInfo: UserFromGetMe;
  stats: { sent: number; rateLimited: number };
  commands: Map<string, BotCommand[]>;
  menuButtons: Map<number | "default", unknown>;
  /** Milliseconds since the epoch, for message dates. */
  now(): number;
  /** Milliseconds since the epoch, for flood limits. */
  limitsNow(): number;
  /** Tells chat drivers that the bot sent or edited a message. */
  emitMessage(sent: SentMessage): void;
}

/** Per-call facts a handler reports back, so the call log can say which chat and user it was about. */
export interface CallScope {
  chatId?: number;
  userId?: number;
  /** Lets a long poll notice that its client went away. */
  onAbort(cb: () => void): void;
}

export type MethodHandler = (p: Payload, host: MethodHost, scope: CallScope) => unknown;

const ANSWERED = "query is too old and response timeout expired or query ID is invalid";
const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

/**
 * The Bot API methods the double implements, by lower-case name (Telegram's method names are
 * case-insensitive). Anything else answers 404 "Not Found", as Telegram does.
 */
export const methods: Record<string, MethodHandler> = {
  getme: (_p, host) => host.botInfo,

  getupdates: async (p, host, scope) => {
    const params: GetUpdatesParams = {};
    const offset = int(p, "offset");
    const limit = int(p, "limit");
    const timeout = int(p, "timeout");
    const allowed = json<string[]>(p, "allowed_updates");
    if (offset !== undefined) params.offset = offset;
    if (limit !== undefined) params.limit = limit;
    if (timeout !== undefined) params.timeout = timeout;
    if (allowed !== undefined) params.allowed_updates = allowed;
    return await host.queue.getUpdates(params, scope.onAbort);
  },

  setwebhook: (p, host) => {
    const params: WebhookParams = {
      url: str(p, "url") ?? "",
      drop_pending_updates: bool(p, "drop_pending_updates"),
    };
    const secret = str(p, "secret_token");
    const max = int(p, "max_connections");
    const allowed = json<string[]>(p, "allowed_updates");
    if (secret !== undefined) params.secret_token = secret;
    if (max !== undefined) params.max_connections = max;
    if (allowed !== undefined) params.allowed_updates = allowed;
    host.queue.setWebhook(params);
    return true;
  },

  deletewebhook: (p, host) => {
    host.queue.deleteWebhook(bool(p, "drop_pending_updates"));
    return true;
  },

  getwebhookinfo: (_p, host) => host.queue.webhookInfo(),

  setmycommands: (p, host) => {
    const commands = json<BotCommand[]>(p, "commands");
    if (!Array.isArray(commands)) throw badRequest('parameter "commands" is required');
    if (commands.length > 100) throw badRequest("too many commands specified");
    for (const c of commands) {
      if (typeof c.command !== "string" || !/^[a-z0-9_]{1,32}$/.test(c.command))
        throw badRequest("BOT_COMMAND_INVALID");
      if (typeof c.description !== "string" || c.description.length < 1 || c.description.length > 256) {
        throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
      }
    }
    host.commands.set(
      commandsKey(p),
      commands.map((c) => ({ command: c.command, description: c.description })),
    );
    return true;
  },

  getmycommands: (p, host) => host.commands.get(commandsKey(p)) ?? [],

  deletemycommands: (p, host) => {
    host.commands.delete(commandsKey(p));
    return true;
  },

  sendmessage: (p, host, scope) => {
    const state = requireChat(p, host, scope);
    const source = str(p, "text") ?? "";
    const formatted = format(p, source, "text");
    if (formatted.text.trim() === "") throw badRequest("message text is empty");
    if (formatted.text.length > 4096) throw badRequest("message is too long");
    const markup = validateMarkup(p);
    const base = prepareSend(p, state, host);
    const message: Message = { ...base, text: formatted.text };
    if (formatted.entities.length > 0) message.entities = formatted.entities;
    return finishSend(host, state, message, markup, {
      kind: "text",
      source,
      parseMode: str(p, "parse_mode"),
    });
  },

  sendphoto: (p, host, scope) => sendMedia(p, host, scope, "photo"),

  senddocument: (p, host, scope) => sendMedia(p, host, scope, "document"),

  sendchataction: (p, host, scope) => {
    const state = requireChat(p, host, scope);
    if (state.blocked) throw forbidden("bot was blocked by the user");
    if (!CHAT_ACTIONS.has(str(p, "action") ?? "")) throw badRequest("wrong parameter action in request");
    return true;
  },

  editmessagetext: (p, host, scope) => {
    if (p.inline_message_id !== undefined) return true;
    const stored = findEditable(p, host, scope);
    const message = stored.message;
    if (message.text === undefined) throw badRequest("there is no text in the message to edit");
    const source = str(p, "text") ?? "";
    const formatted = format(p, source, "text");
    if (formatted.text.trim() === "") throw badRequest("message text is empty");
    if (formatted.text.length > 4096) throw badRequest("message is too long");
    const markup = validateMarkup(p);
    const inline = inlineOnly(markup);
    if (
      message.text === formatted.text &&
      same(message.entities ?? [], formatted.entities) &&
      same(message.reply_markup, inline)
    ) {
      throw badRequest(NOT_MODIFIED);
    }
    const edited: Message = { ...message, text: formatted.text, edit_date: seconds(host) };
    delete edited.entities;
    if (formatted.entities.length > 0) edited.entities = formatted.entities;
    return finishEdit(host, stored, edited, inline, { source, parseMode: str(p, "parse_mode") });
  },

  editmessagecaption: (p, host, scope) => {
    if (p.inline_message_id !== undefined) return true;
    const stored = findEditable(p, host, scope);
    const message = stored.message;
    if (message.text !== undefined) throw badRequest("there is no caption in the message to edit");
    const source = str(p, "caption") ?? "";
    const formatted = format(p, source, "caption");
    if (formatted.text.length > 1024) throw badRequest("message caption is too long");
    const inline = inlineOnly(validateMarkup(p));
    if (
      (message.caption ?? "") === formatted.text &&
      same(message.caption_entities ?? [], formatted.entities) &&
      same(message.reply_markup, inline)
    ) {
      throw badRequest(NOT_MODIFIED);
    }
    const edited: Message = { ...message, edit_date: seconds(host) };
    delete edited.caption;
    delete edited.caption_entities;
    if (formatted.text !== "") edited.caption = formatted.text;
    if (formatted.entities.length > 0) edited.caption_entities = formatted.entities;
    return finishEdit(host, stored, edited, inline, { source, parseMode: str(p, "parse_mode") });
  },

  editmessagemedia: (p, host, scope) => {
    if (p.inline_message_id !== undefined) return true;
    const stored = findEditable(p, host, scope);
    if (stored.message.text !== undefined) throw badRequest("there is no media in the message to edit");
    const input = json<Payload>(p, "media");
    if (input === undefined || (input.type !== "photo" && input.type !== "document")) {
      throw badRequest("can't parse InputMedia JSON object");
    }
    // grammY uploads the file as its own part and names it "attach://<part>" inside the JSON.
    let media = input.media;
    if (typeof media === "string" && media.startsWith("attach://"))
      media = p[media.slice("attach://".length)];
    if (!(media instanceof Upload) && (typeof media !== "string" || media === "")) {
      throw badRequest("wrong file identifier/HTTP URL specified");
    }
    const source = str(input, "caption") ?? "";
    const formatted = format(input, source, "caption");
    if (formatted.text.length > 1024) throw badRequest("message caption is too long");
    const inline = inlineOnly(validateMarkup(p));
    const edited: Message = { ...stored.message, edit_date: seconds(host) };
    delete edited.caption;
    delete edited.caption_entities;
    delete edited.photo;
    delete edited.document;
    Object.assign(edited, mediaFields(host, input.type, media));
    if (formatted.text !== "") edited.caption = formatted.text;
    if (formatted.entities.length > 0) edited.caption_entities = formatted.entities;
    return finishEdit(host, stored, edited, inline, {
      source,
      parseMode: str(input, "parse_mode"),
      kind: input.type,
      media: media instanceof Upload ? media.kept() : media,
    });
  },

  editmessagereplymarkup: (p, host, scope) => {
    if (p.inline_message_id !== undefined) return true;
    const stored = findEditable(p, host, scope);
    const inline = inlineOnly(validateMarkup(p));
    if (same(stored.message.reply_markup, inline)) throw badRequest(NOT_MODIFIED);
    const edited: Message = { ...stored.message, edit_date: seconds(host) };
    return finishEdit(host, stored, edited, inline, {
      source: stored.sent?.source ?? "",
      parseMode: stored.sent?.parseMode,
    });
  },

  deletemessage: (p, host, scope) => {
    const state = requireChat(p, host, scope);
    const id = int(p, "message_id");
    const stored = id === undefined ? undefined : state.messages.get(id);
    if (stored === undefined || stored.deleted) throw badRequest("message to delete not found");
    // In a group, a bot that is not an admin with "Delete messages" may delete only its own.
    if (state.chat.type !== "private" && !stored.fromBot && !state.botMayDeleteOthers) {
      throw badRequest("message can't be deleted");
    }
    deleteStored(state, stored);
    return true;
  },

  deletemessages: (p, host, scope) => {
    const state = requireChat(p, host, scope);
    const ids = json<number[]>(p, "message_ids");
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 100)
      throw badRequest("message_ids must be 1-100 ids");
    for (const id of ids) {
      const stored = state.messages.get(Number(id));
      if (stored !== undefined && !stored.deleted) deleteStored(state, stored);
    }
    return true;
  },

  answercallbackquery: (p, host, scope) => {
    const query = host.world.callbackQueries.get(str(p, "callback_query_id") ?? "");
    if (query === undefined || query.answered) throw badRequest(ANSWERED);
    scope.userId = query.userId;
    if (query.chatId !== undefined) scope.chatId = query.chatId;
    if ((str(p, "text") ?? "").length > 200) throw badRequest("MESSAGE_TOO_LONG");
    query.answered = true;
    query.answer = p;
    return true;
  },

  answerinlinequery: (p, host, scope) => {
    const query = host.world.inlineQueries.get(str(p, "inline_query_id") ?? "");
    if (query === undefined || query.answered) throw badRequest(ANSWERED);
    scope.userId = query.userId;
    const results = json<{ id?: unknown; type?: unknown; reply_markup?: unknown }[]>(p, "results");
    if (!Array.isArray(results)) throw badRequest('parameter "results" is required');
    if (results.length > 50) throw badRequest("RESULTS_TOO_MUCH");
    const ids = new Set<string>();
    for (const r of results) {
      if (typeof r.type !== "string")
        throw badRequest('can\'t parse InlineQueryResult: Field "type" must be of type String');
      if (typeof r.id !== "string" || r.id === "" || Buffer.byteLength(r.id) > 64)
        throw badRequest("RESULT_ID_INVALID");
      if (ids.has(r.id)) throw badRequest("RESULT_ID_DUPLICATE");
      ids.add(r.id);
      if (r.reply_markup !== undefined) validateMarkup({ reply_markup: r.reply_markup });
    }
    query.answered = true;
    query.answer = { ...p, results };
    return true;
  },

  getchat: (p, host, scope) => {
    const state = requireChat(p, host, scope);
    const info = { ...state.chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {} };
    return info as unknown as ChatFullInfo;
  },

  setchatmenubutton: (p, host, scope) => {
    const chatId = int(p, "chat_id");
    if (chatId !== undefined) requireChat(p, host, scope);
    host.menuButtons.set(chatId ?? "default", json(p, "menu_button") ?? { type: "default" });
    return true;
  },

  getchatmenubutton: (p, host) => {
    const chatId = int(p, "chat_id");
    return (
      host.menuButtons.get(chatId ?? "default") ?? host.menuButtons.get("default") ?? { type: "commands" }
    );
  },
};

function commandsKey(p: Payload): string {
  const scope = json<{ type?: string; chat_id?: unknown; user_id?: unknown }>(p, "scope") ?? {
    type: "default",
  };
  return `${scope.type ?? "default"}:${String(scope.chat_id ?? "")}:${String(scope.user_id ?? "")}|${str(p, "language_code") ?? ""}`;
}

function seconds(host: MethodHost): number {
  return Math.floor(host.now() / 1000);
}

function requireChat(p: Payload, host: MethodHost, scope: CallScope): ChatState {
  const raw = p.chat_id;
  if (raw === undefined || raw === null || raw === "") throw badRequest("chat_id is empty");
  const state =
    typeof raw === "string" && raw.startsWith("@")
      ? host.world.chatByUsername(raw)
      : host.world.chat(Number(raw));
  if (state === undefined) throw badRequest("chat not found");
  scope.chatId = state.chat.id;
  return state;
}

/** The bot as the `from` of its own messages. */
function botUser(host: MethodHost): User {
  return {
    id: host.botInfo.id,
    is_bot: true,
    first_name: host.botInfo.first_name,
    username: host.botInfo.username,
  };
}

function format(p: Payload, source: string, field: "text" | "caption") {
  const entitiesKey = field === "text" ? "entities" : "caption_entities";
  const given = json<MessageEntity[]>(p, entitiesKey);
  // Explicit entities win over parse_mode, as in the Bot API.
  if (given !== undefined) return { text: source, entities: given };
  return parseFormatted(source, str(p, "parse_mode"));
}

/** The checks and counting every message-sending method shares; returns the message's common fields. */
function prepareSend(p: Payload, state: ChatState, host: MethodHost): Message {
  if (state.blocked) throw forbidden("bot was blocked by the user");
  const message: Message = {
    message_id: 0,
    date: seconds(host),
    chat: state.chat,
    from: botUser(host),
  };
  const reply = json<{ message_id?: number; allow_sending_without_reply?: boolean }>(p, "reply_parameters");
  const replyTo = reply?.message_id ?? int(p, "reply_to_message_id");
  if (replyTo !== undefined) {
    const target = state.messages.get(Number(replyTo));
    if (target !== undefined && !target.deleted) {
      message.reply_to_message = target.message as Message & { reply_to_message: undefined };
    } else if (!(reply?.allow_sending_without_reply ?? bool(p, "allow_sending_without_reply"))) {
      throw badRequest("message to be replied not found");
    }
  }
  // Flood control comes last: a malformed request is refused without being counted.
  const retryAfter = host.limiter.take(state.chat.id, state.chat.type === "private", host.limitsNow());
  if (retryAfter !== undefined) {
    host.stats.rateLimited++;
    throw tooManyRequests(retryAfter);
  }
  message.message_id = state.nextMessageId++;
  return message;
}

function finishSend(
  host: MethodHost,
  state: ChatState,
  message: Message,
  markup: ReplyMarkup | undefined,
  extra: {
    kind: SentMessage["kind"];
    source: string;
    parseMode: string | undefined;
    media?: string | FileSummary;
  },
): Message {
  const inline = inlineOnly(markup);
  if (inline !== undefined) message.reply_markup = inline;
  if (markup !== undefined && "keyboard" in markup) state.replyKeyboard = markup;
  if (markup !== undefined && "remove_keyboard" in markup) state.replyKeyboard = undefined;
  const stored = host.world.store(state, message, true);
  stored.sent = snapshot(stored, markup, extra);
  host.stats.sent++;
  host.emitMessage(stored.sent);
  return message;
}

function finishEdit(
  host: MethodHost,
  stored: StoredMessage,
  edited: Message,
  inline: InlineKeyboardMarkup | undefined,
  extra: {
    source: string;
    parseMode: string | undefined;
    /** editMessageMedia: the new file and its kind. */
    kind?: SentMessage["kind"];
    media?: string | FileSummary;
  },
): Message {
  delete edited.reply_markup;
  // An edit without reply_markup removes the inline keyboard, as in Telegram.
  if (inline !== undefined) edited.reply_markup = inline;
  stored.message = edited;
  const before = stored.sent;
  stored.sent = snapshot(stored, inline, {
    kind: extra.kind ?? before?.kind ?? "text",
    source: extra.source,
    parseMode: extra.parseMode,
    media: extra.media ?? before?.media,
    edited: true,
  });
  host.emitMessage(stored.sent);
  return edited;
}

function snapshot(
  stored: StoredMessage,
  markup: ReplyMarkup | undefined,
  extra: {
    kind: SentMessage["kind"];
    source: string;
    parseMode: string | undefined;
    media?: string | FileSummary | undefined;
    edited?: boolean;
  },
): SentMessage {
  const m = stored.message;
  const inline = inlineOnly(markup);
  return structuredClone({
    messageId: m.message_id,
    chatId: m.chat.id,
    kind: extra.kind,
    text: m.text ?? m.caption ?? "",
    source: extra.source,
    parseMode: extra.parseMode,
    entities: m.entities ?? m.caption_entities ?? [],
    replyMarkup: markup,
    buttons: inline?.inline_keyboard.map((row) => row.map((b) => b.text)) ?? [],
    file: typeof extra.media === "object" ? extra.media : undefined,
    media: extra.media,
    edited: extra.edited ?? false,
    message: m,
  });
}

function findEditable(p: Payload, host: MethodHost, scope: CallScope): StoredMessage {
  const state = requireChat(p, host, scope);
  const id = int(p, "message_id");
  if (id === undefined) throw badRequest("message identifier is not specified");
  const stored = state.messages.get(id);
  if (stored === undefined || stored.deleted) throw badRequest("message to edit not found");
  if (!stored.fromBot) throw badRequest("message can't be edited");
  return stored;
}

function deleteStored(state: ChatState, stored: StoredMessage): void {
  stored.deleted = true;
  state.deletedIds.push(stored.message.message_id);
}

async function sendMedia(p: Payload, host: MethodHost, scope: CallScope, kind: "photo" | "document") {
  const state = requireChat(p, host, scope);
  const media = p[kind];
  if (media === undefined || media === null || media === "")
    throw badRequest(`there is no ${kind} in the request`);
  if (!(media instanceof Upload) && typeof media !== "string") throw badRequest(`wrong ${kind} specified`);
  const source = str(p, "caption") ?? "";
  const formatted = format(p, source, "caption");
  if (formatted.text.length > 1024) throw badRequest("message caption is too long");
  const markup = validateMarkup(p);
  const base = prepareSend(p, state, host);
  const message: Message = { ...base, ...mediaFields(host, kind, media) };
  if (formatted.text !== "") message.caption = formatted.text;
  if (formatted.entities.length > 0) message.caption_entities = formatted.entities;
  return finishSend(host, state, message, markup, {
    kind,
    source,
    parseMode: str(p, "parse_mode"),
    media: media instanceof Upload ? media.kept() : media,
  });
}

/** A sent or edited message's `photo` (two sizes) or `document`, from the upload or reference. */
function mediaFields(
  host: MethodHost,
  kind: "photo" | "document",
  media: Upload | string,
): Pick<Message, "photo" | "document"> {
  const size = media instanceof Upload ? media.size : 50_000;
  if (kind === "photo") {
    return {
      photo: [
        { ...host.world.fileIds(), width: 90, height: 90, file_size: Math.min(size, 1500) },
        { ...host.world.fileIds(), width: 800, height: 800, file_size: size },
      ],
    };
  }
  const name = media instanceof Upload ? media.filename : (media.split("/").pop() ?? "file");
  return {
    document: { ...host.world.fileIds(), file_name: name, mime_type: guessMime(name), file_size: size },
  };
}

function guessMime(name: string): string {
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  const known: Record<string, string> = {
    pdf: "application/pdf",
    png: "image/png",
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    csv: "text/csv",
    txt: "text/plain",
    json: "application/json",
  };
  return known[ext] ?? "application/octet-stream";
}

function inlineOnly(markup: ReplyMarkup | undefined): InlineKeyboardMarkup | undefined {
  return markup !== undefined && "inline_keyboard" in markup && markup.inline_keyboard.length > 0
    ? markup
    : undefined;
}

const INLINE_ACTIONS = [
  "url",
  "callback_data",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
] as const;

/** Checks `reply_markup` the way Telegram refuses it; returns it parsed. */
function validateMarkup(p: Payload): ReplyMarkup | undefined {
  const markup = json<Record<string, unknown>>(p, "reply_markup");
  if (markup === undefined) return undefined;
  if (typeof markup !== "object" || markup === null)
    throw badRequest("can't parse reply keyboard markup JSON object");
  if ("inline_keyboard" in markup) {
    const rows = markup.inline_keyboard;
    if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
      throw badRequest("can't parse inline keyboard button: InlineKeyboardButton must be an Object");
    }
    for (const button of (rows as InlineKeyboardButton[][]).flat()) {
      if (typeof button.text !== "string")
        throw badRequest("can't parse inline keyboard button: Text must be a String");
      const actions = INLINE_ACTIONS.filter((a) => a in button);
      if (actions.length === 0) {
        throw badRequest(
          "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        );
      }
      if ("callback_data" in button) {
        const bytes = typeof button.callback_data === "string" ? Buffer.byteLength(button.callback_data) : 0;
        if (bytes < 1 || bytes > 64) throw badRequest("BUTTON_DATA_INVALID");
      }
      if ("url" in button && !/^(https?|tg):\/\/\S+$/.test(String(button.url)))
        throw badRequest("BUTTON_URL_INVALID");
    }
    return markup as unknown as ReplyMarkup;
  }
  if ("keyboard" in markup) {
    if (!Array.isArray(markup.keyboard) || !markup.keyboard.every(Array.isArray)) {
      throw badRequest("can't parse reply keyboard markup JSON object");
    }
    return markup as unknown as ReplyMarkup;
  }
  if ("remove_keyboard" in markup || "force_reply" in markup) return markup as unknown as ReplyMarkup;
  throw badRequest("can't parse reply keyboard markup JSON object");
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
