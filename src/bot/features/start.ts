/**
 * /start and /home. Logged out, /start says what the bot is and offers Log in; logged in, it
 * answers with the home card (flows/home.ts): the total balance, the day's change of what the
 * user holds or watches, the open orders, and buttons to the main actions. /home (first in the
 * command menu, "🏠") shows the same card; its Refresh button edits it in place.
 */
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { accountHomeBalance, type HomeDeps, showHome } from "../flows/home.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import { userText } from "../ui/user-text.ts";

type StartDeps = Pick<BotDeps, "sessions"> & HomeDeps;

export function startFeature(deps: StartDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function home(ctx: PrivateContext, email: string, how: "reply" | "edit"): Promise<void> {
    await showHome(ctx, deps, () => accountHomeBalance(deps.sessions, ctx.from.id, email), how, {
      who: email,
      alerts: true,
    });
  }

  composer.command("start", async (ctx) => {
    const status = await deps.sessions.status(ctx.from.id);
    if (status.state === "active") {
      await deps.sessions.touch(ctx.from.id);
      await home(ctx, status.email, "reply");
      return;
    }
    const welcome = ctx.t("start-welcome", {
      name: userText(ctx.from?.first_name ?? ""),
      bot: ctx.me.username,
    });
    await ctx.reply(welcome, { reply_markup: loginKeyboard(ctx.t) });
  });

  composer.command("home", requireLogin(deps), async (ctx) => {
    await home(ctx, await emailOf(deps, ctx.from.id), "reply");
  });
  composer.callbackQuery(CALLBACK.home.data("home"), requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await home(ctx, await emailOf(deps, ctx.from.id), "edit");
  });
  return composer;
}

async function emailOf(deps: Pick<BotDeps, "sessions">, userId: number): Promise<string> {
  const status = await deps.sessions.status(userId);
  return status.state === "logged-out" ? "" : status.email;
}
