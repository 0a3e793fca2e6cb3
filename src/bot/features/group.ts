import type { Composer } from "grammy";
import { MarketUnavailableError } from "../../market/errors.ts";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Chain } from "../runtime/middleware-chain.ts";
import { knownCodes } from "../ui/currency-choice.ts";
import { privateChatKeyboard } from "../ui/keyboards.ts";
import { marketUnavailableText } from "../ui/price-card.ts";

/**
 * Groups: the bot answers only price questions there (/prices, /price btc, and inline mode), from
 * the shared market feed; any other command gets a polite redirect to the private chat and makes
 * no account call (rule 1). /prices and /price btc are `priceCommands` (features/prices.ts), installed
 * before this in bot.ts. Plain group chatter is not the bot's business and gets no answer.
 */
export function groupFeature(deps: Pick<BotDeps, "market" | "clock">): Composer<BotContext> {
  const composer = new Chain<BotContext>();
  // `/price` alone: the question with buttons is for private chats; here, how to ask.
  composer.command("price", async (ctx) => {
    let text: string;
    try {
      const { prices } = await deps.market.snapshot();
      text = ctx.t("market-price-usage", {
        codes: knownCodes(prices.map((p) => ({ code: p.currency, name: p.name }))),
      });
    } catch (error) {
      if (!(error instanceof MarketUnavailableError)) throw error;
      text = marketUnavailableText(ctx.t, error.reason);
    }
    await ctx.reply(text, {
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
  });
  // /help: what a group gets, and the way to everything else, with the private chat's button.
  composer.command("help", async (ctx) => {
    await ctx.reply(ctx.t("group-help"), {
      reply_markup: privateChatKeyboard(ctx.t, ctx.me.username),
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
  });
  composer.on("message::bot_command", async (ctx) => {
    await ctx.reply(ctx.t("group-private-only"), {
      reply_markup: privateChatKeyboard(ctx.t, ctx.me.username),
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
  });
  composer.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("group-private-only") }));
  return composer;
}
