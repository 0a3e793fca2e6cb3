import { type Api, type Context, GrammyError, type InlineKeyboard } from "grammy";

/**
 * Edits the message a button sits on. Telegram answers 400 "message is not modified" when the new
 * text and keyboard equal the old ones (a double tap, a menu choice that was already set): that is
 * success here, not an error.
 *
 * @example
 * await editInPlace(ctx, ctx.t("settings-title"), keyboard);
 */
export async function editInPlace(ctx: Context, text: string, keyboard?: InlineKeyboard): Promise<void> {
  try {
    await ctx.editMessageText(text, { parse_mode: "HTML", ...(keyboard ? { reply_markup: keyboard } : {}) });
  } catch (error) {
    if (error instanceof GrammyError && /message is not modified/i.test(error.description)) return;
    throw error;
  }
}

/**
 * Takes the buttons off the tapped card, with `line` under its text when given, so an old card
 * cannot be tapped again. The card may be too old to edit, or unchanged (a second tap): the
 * answer matters, not the edit. A card that already ends with `line` (an old button tapped again)
 * keeps its text: the line stands once, however often it is tapped.
 */
export async function closeCard(ctx: Context, line?: string): Promise<void> {
  const message = ctx.callbackQuery?.message;
  if (message === undefined) return;
  const current = "text" in message ? message.text : undefined;
  try {
    if (line === undefined || current === line || current?.endsWith(`\n\n${line}`)) {
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } });
      return;
    }
    const text = current !== undefined ? `${current}\n\n${line}` : line;
    await ctx.editMessageText(text, { reply_markup: { inline_keyboard: [] } });
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
  }
}

/**
 * Answers a tap with `text` (an alert when `alert`). When the query can no longer be answered
 * (redelivered, or queued while the bot was down: Telegram says it is too old), the sentence goes
 * to the user who tapped, in their private chat: never into a chat that may be someone else's.
 */
export async function answerTap(ctx: Context, text?: string, alert = false): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? {} : { text, show_alert: alert });
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
    const userId = ctx.callbackQuery?.from.id;
    if (text !== undefined && userId !== undefined) await ctx.api.sendMessage(userId, text);
  }
}

/**
 * Takes the buttons off a message that is not the tapped one (a quote card a Freeze cancelled, in
 * the user's chat, maybe tapped from the operator's). A message too old or already without them is
 * left as it is: the pipeline refuses a tap on it anyway.
 */
export async function removeButtons(api: Api, place: { chatId: number; messageId: number }): Promise<void> {
  try {
    await api.editMessageReplyMarkup(place.chatId, place.messageId, {
      reply_markup: { inline_keyboard: [] },
    });
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
  }
}
