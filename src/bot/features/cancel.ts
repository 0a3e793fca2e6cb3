import { Composer } from "grammy";
import type { BotContext } from "../context.ts";

/**
 * /cancel leaves any flow. It is installed before the conversations, so it is seen even while
 * one is waiting for input.
 */
export function cancelFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("cancel", async (ctx) => {
    const active = Object.keys(await ctx.conversation.active());
    await ctx.conversation.exitAll();
    await ctx.reply(ctx.t(active.length > 0 ? "flow-cancelled" : "nothing-to-cancel"), {
      reply_markup: { remove_keyboard: true },
    });
  });
  return composer;
}
