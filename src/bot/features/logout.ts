import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../runtime/feature-router.ts";

/**
 * /logout: ends the session at the exchange and wipes every secret held for the user, the state
 * of a flow in progress included (a half-typed login holds a password). Installed before the
 * flows, so it works in the middle of one.
 */
export function logoutFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("logout", async (ctx) => {
    await ctx.conversation.exitAll();
    const { wasLoggedIn } = await deps.sessions.logout(ctx.from.id);
    // The little the chat's session remembers (a chosen filter) goes too.
    ctx.session = {};
    await ctx.reply(ctx.t(wasLoggedIn ? "logout-done" : "logout-not-logged-in"));
  });
  return composer;
}
