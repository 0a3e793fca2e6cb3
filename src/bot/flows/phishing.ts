/**
 * The anti-phishing phrase inside a flow, and the quote card that carries it: every message that
 * asks for a secret or confirms a money action shows the user's phrase once they have set one.
 *
 * @example
 * const phrase = await flowPhrase(conversation, ctx, deps);
 * await ctx.reply(withPhishingLine(ctx.t, phrase, ctx.t("send-code-ask")));
 * await replyCard(conversation, ctx, deps, quoted.action);
 */
import type { MoneyAction } from "../../orders/ledger.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { cardMessage } from "../ui/order-card.ts";
import { externalCall } from "./external.ts";
import { flowUserId } from "./user.ts";

/** The user's phrase, "" when none is set (read through the conversation, so replays agree). */
export function flowPhrase(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "phishing">,
): Promise<string> {
  const userId = flowUserId(ctx);
  return externalCall(conversation, async () => (await deps.phishing.get(userId)) ?? "");
}

/**
 * Shows an action's quote card (its buttons are answered from the store, features/orders.ts) and
 * records where, so a Freeze can take its buttons off (features/freeze.ts).
 */
export async function replyCard(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "phishing" | "orders">,
  action: MoneyAction,
): Promise<void> {
  const phrase = await flowPhrase(conversation, ctx, deps);
  const card = cardMessage(ctx.t, action, await ctx.i18n.getLocale(), phrase);
  const shown = await ctx.reply(card.text, card.other);
  const place = { chatId: shown.chat.id, messageId: shown.message_id };
  await externalCall(conversation, () => deps.orders.rememberCard(action.id, place));
}
