import type { PrivateContext } from "../context.ts";
import { Feature } from "../runtime/feature-router.ts";

/** /help: the command list of the bot's mode (EXCHANGE_MODE). */
export function helpFeature(mode: "account" | "partner" = "account"): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("help", (ctx) =>
    ctx.reply(mode === "partner" ? ctx.t("help-text-partner") : ctx.t("help-text")),
  );
  return composer;
}
