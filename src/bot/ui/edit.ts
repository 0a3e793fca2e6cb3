import { type Context, GrammyError, type InlineKeyboard } from "grammy";

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
