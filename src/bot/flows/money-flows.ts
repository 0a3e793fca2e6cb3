/**
 * The conversations that move money or bank accounts (/send, /withdraw, /banks add and remove,
 * and the fresh-code step of a confirmed order), and whether one of them runs.
 */
import { ACTION_KINDS, kindOf } from "../../orders/kinds/index.ts";
import type { BotContext } from "../context.ts";

/** The flows of every kind whose money leaves the account (its descriptor's `flow` and `destination`). */
const OUTFLOW_FLOWS = ACTION_KINDS.map(kindOf)
  .filter((descriptor) => descriptor.destination.to !== "nowhere")
  .map((descriptor) => descriptor.flow);

export const MONEY_FLOWS: readonly string[] = ["banks-add", "banks-remove", ...OUTFLOW_FLOWS, "order-code"];

/**
 * True while one of {@link MONEY_FLOWS} runs. Their commands are registered one after another, so
 * a command of one (say /send) is seen before a later flow (/withdraw) runs: the command steps
 * aside (`next()`) and the running flow answers it with a hint and stays where it was.
 */
export async function inMoneyFlow(ctx: BotContext): Promise<boolean> {
  const active = await ctx.conversation.active();
  return MONEY_FLOWS.some((id) => (active[id] ?? 0) > 0);
}
