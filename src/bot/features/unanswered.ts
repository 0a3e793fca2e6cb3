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
import type { Composer } from "grammy";
import { closestCommand } from "../commands.ts";
import type { BotContext } from "../context.ts";
import { Chain } from "../runtime/middleware-chain.ts";

const SECRET_LIKE = /^\s*\d{3}\s?\d{3}\s*$/;

export function staleButtons(): Composer<BotContext> {
  const composer = new Chain<BotContext>();
  composer.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("button-inactive") }));
  return composer;
}

/**
 * For private chats only (bot.ts installs it in the private branch); `known` is what this mode
 * understands, so a mistyped command is never matched to one the mode does not have.
 */
export function unknownInput(known: readonly string[]): Composer<BotContext> {
  const composer = new Chain<BotContext>();
  composer.on("message:text", async (ctx) => {
    // A flow that let a message through has said what it wanted; do not talk over it.
    if (Object.keys(ctx.conversation.active()).length > 0) return;
    // Six digits outside any flow: a 2FA code or PIN typed after its step ended (a flow that timed
    // out lets the message through). It is a secret: deleted, not left in the chat.
    if (SECRET_LIKE.test(ctx.message.text)) {
      await ctx.deleteMessage().catch(() => undefined);
      await ctx.reply(ctx.t("unknown-secret-deleted"));
      return;
    }
    const command = /^\/([A-Za-z0-9_]+)(?:@\S+)?/.exec(ctx.message.text)?.[1];
    if (command === undefined) {
      await ctx.reply(ctx.t("unknown-text"));
      return;
    }
    const suggestion = closestCommand(command, known);
    await ctx.reply(
      suggestion === undefined
        ? ctx.t("unknown-command")
        : ctx.t("unknown-command-suggest", { command: `/${command}`, suggestion: `/${suggestion}` }),
    );
  });
  return composer;
}
