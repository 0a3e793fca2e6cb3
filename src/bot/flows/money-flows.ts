/**
 * The conversations that move money or bank accounts (/send, /withdraw, /banks add and remove,
 * and the fresh-code step of a confirmed order), and whether one of them runs.
 */
import type { BotContext } from "../context.ts";

export const MONEY_FLOWS: readonly string[] = [
  "banks-add",
  "banks-remove",
  "send",
  "withdraw",
  "partner-withdraw",
  "order-code",
];

/**
 * True while one of {@link MONEY_FLOWS} runs. Their commands are registered one after another, so
 * a command of one (say /send) is seen before a later flow (/withdraw) runs: the command steps
 * aside (`next()`) and the running flow answers it with a hint and stays where it was.
 */
export async function inMoneyFlow(ctx: BotContext): Promise<boolean> {
  const active = await ctx.conversation.active();
  return MONEY_FLOWS.some((id) => (active[id] ?? 0) > 0);
}
