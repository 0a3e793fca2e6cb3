import { Composer } from "grammy";
import type { BotContext } from "../context.ts";

/** /help: the command list. */
export function helpFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("help", (ctx) => ctx.reply(ctx.t("help-text")));
  return composer;
}
