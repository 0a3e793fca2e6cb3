import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../runtime/feature-router.ts";

/**
 * /cancel leaves any flow. It is installed before the conversations, so it is seen even while
 * one is waiting for input. A quote still on its card, or a confirmed send or withdrawal still
 * waiting for its code, is cancelled in the ledger too: nothing of it can be sent afterwards.
 */
export function cancelFeature(deps: Pick<BotDeps, "orders">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("cancel", async (ctx) => {
    const active = Object.keys(await ctx.conversation.active());
    await ctx.conversation.exitAll();
    const cancelled = await deps.orders.cancelPending(ctx.from.id);
    await ctx.reply(ctx.t(active.length > 0 || cancelled > 0 ? "flow-cancelled" : "nothing-to-cancel"), {
      reply_markup: { remove_keyboard: true },
    });
  });
  return composer;
}
