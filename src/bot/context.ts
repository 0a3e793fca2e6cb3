/**
 * The context types, in one place. Two of them, as conversations v2 wants: `BotContext` for the
 * middleware tree outside conversations, `FlowContext` for code inside a conversation (no session,
 * no `ctx.conversation` there; i18n is installed again as a conversation plugin).
 */
import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { ChatTypeContext, Context, SessionFlavor } from "grammy";

/** Small UI state per user; everything that matters beyond a chat lives in session/ and store/. */
export interface SessionData {
  /** /transactions: the currency filter the user last chose. */
  transactionsFilter?: string;
}

export type BotContext = ConversationFlavor<Context & I18nFlavor & SessionFlavor<SessionData>>;

/**
 * What every account feature sees: an update from a private chat, as `chatType("private")`
 * narrows it (`ctx.chat` and `ctx.from` are there: in a private chat the chat is the user).
 */
export type PrivateContext = ChatTypeContext<BotContext, "private">;

export type FlowContext = Context & I18nFlavor;

export type Flow = Conversation<BotContext, FlowContext>;
