/**
 * Nothing goes unanswered (SECURITY.md, Reliability). Installed after every feature, so they only
 * see what nobody else took:
 *
 * - a tap on a button nobody handles (an old keyboard, a forged payload), in any chat or on an
 *   inline message, gets an answerCallbackQuery, so the client stops spinning;
 * - in a private chat and outside a flow, an unknown command or stray text gets one sentence that
 *   points to /help, with the closest command when the user seems to have mistyped one.
 *
 * Groups stay quiet: chatter there is not the bot's business (features/group.ts).
 */
import { Composer } from "grammy";
import { closestCommand } from "../commands.ts";
import type { BotContext } from "../context.ts";

export function staleButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("button-inactive") }));
  return composer;
}

/** For private chats only (bot.ts installs it in the private branch). */
export function unknownInput(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("message:text", async (ctx) => {
    // A flow that let a message through has said what it wanted; do not talk over it.
    if (Object.keys(ctx.conversation.active()).length > 0) return;
    const command = /^\/([A-Za-z0-9_]+)(?:@\S+)?/.exec(ctx.message.text)?.[1];
    if (command === undefined) {
      await ctx.reply(ctx.t("unknown-text"));
      return;
    }
    const suggestion = closestCommand(command);
    await ctx.reply(
      suggestion === undefined
        ? ctx.t("unknown-command")
        : ctx.t("unknown-command-suggest", { command: `/${command}`, suggestion: `/${suggestion}` }),
    );
  });
  return composer;
}
