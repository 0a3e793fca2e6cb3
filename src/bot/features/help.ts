import { Composer } from "grammy";
import type { PrivateContext } from "../context.ts";

/** /help: the command list. */
export function helpFeature(): Composer<PrivateContext> {
  const composer = new Composer<PrivateContext>();
  composer.command("help", (ctx) => ctx.reply(ctx.t("help-text")));
  return composer;
}
