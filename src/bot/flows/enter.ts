/**
 * The one way a feature starts a conversation, and the one handler of a money flow's command.
 *
 * A flow starts on its own: whatever flow ran in the chat is left first (`exitAll`), so a new
 * /price or /login never waits behind an old question. A money flow's command (or button) differs
 * in one step: while another money flow runs it steps aside (`next()`), and the running flow
 * answers it with a hint and keeps its place ({@link inMoneyFlow}); a half-typed /send is not lost
 * to a stray /withdraw.
 *
 * @example
 * composer.command("send", requireLogin(deps), moneyFlowEntry(SEND_FLOW, (ctx) => [ctx.match.trim()]));
 * composer.callbackQuery(CALLBACK.banksAdd.data(), requireLogin(deps), moneyFlowEntry(BANKS_ADD_FLOW));
 * await enterFlow(ctx, PRICE_FLOW);
 */
import type { BotContext } from "../context.ts";
import { inMoneyFlow } from "./money-flows.ts";

/** Leaves any flow running in the chat and enters `flow` with `args` (its conversation's arguments). */
export async function enterFlow(ctx: BotContext, flow: string, ...args: unknown[]): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(flow, ...args);
}

/**
 * The handler that enters the money flow `flow`, unless a money flow runs (then `next()`). A button
 * is answered first, so its spinner stops. `args` reads the flow's arguments from the update.
 */
export function moneyFlowEntry<C extends BotContext>(
  flow: string,
  args: (ctx: C) => unknown[] = () => [],
): (ctx: C, next: () => Promise<void>) => Promise<void> {
  return async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    if (ctx.callbackQuery !== undefined) await ctx.answerCallbackQuery();
    await enterFlow(ctx, flow, ...args(ctx));
  };
}
