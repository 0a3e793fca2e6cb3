import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { privateChatKeyboard } from "../ui/keyboards.ts";

/**
 * Groups: the bot answers only price questions there (inline mode and the market feed); any
 * other command gets a polite redirect to the private chat and makes no account call (rule 1).
 * Plain group chatter is not the bot's business and gets no answer.
 */
export function groupFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("message::bot_command", async (ctx) => {
    await ctx.reply(ctx.t("group-private-only"), {
      reply_markup: privateChatKeyboard(ctx.t, ctx.me.username),
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
  });
  composer.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("group-private-only") }));
  return composer;
}
