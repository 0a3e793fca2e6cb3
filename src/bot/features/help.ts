import { Composer } from "grammy";
import type { PrivateContext } from "../context.ts";

/** /help: the command list of the bot's mode (EXCHANGE_MODE). */
export function helpFeature(mode: "account" | "partner" = "account"): Composer<PrivateContext> {
  const composer = new Composer<PrivateContext>();
  composer.command("help", (ctx) =>
    ctx.reply(mode === "partner" ? ctx.t("help-text-partner") : ctx.t("help-text")),
  );
  return composer;
}
