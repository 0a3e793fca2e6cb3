import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../runtime/feature-router.ts";
import { loginKeyboard } from "../ui/keyboards.ts";

/** /start: what the bot is and a Log in button (or who is logged in). */
export function startFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("start", async (ctx) => {
    const status = await deps.sessions.status(ctx.from.id);
    const welcome = ctx.t("start-welcome", { name: ctx.from?.first_name ?? "", bot: ctx.me.username });
    if (status.state === "active") {
      await ctx.reply(`${welcome}\n\n${ctx.t("start-logged-in", { email: status.email })}`);
    } else {
      await ctx.reply(welcome, { reply_markup: loginKeyboard(ctx.t) });
    }
  });
  return composer;
}
