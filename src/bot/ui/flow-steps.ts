/**
 * Two helpers for small read-only flows (/price, /fees) inside conversations v2.
 *
 * `externalCall` (src/bot/flows/external.ts) is re-exported here for the flows that use both.
 *
 * `waitForAnswer` waits for typed text or a tap on one of the flow's own buttons. A command ends
 * the flow and is handled as if no flow were running (these flows only ask, they hold nothing);
 * a tap on someone else's button passes on to its handler; anything else gets a hint.
 *
 * @example
 * const rate = await externalCall(conversation, () =>
 *   deps.sessions.use(userId, async (client) => (await client.exchangeRate("btceur")).price.toFixed()),
 * );
 */
import type { Flow, FlowContext } from "../context.ts";
import { externalCall } from "../flows/external.ts";

export { externalCall };

export type Answer =
  | { kind: "text"; text: string; ctx: FlowContext }
  | { kind: "tap"; data: string; ctx: FlowContext };

export async function waitForAnswer(conversation: Flow, callbacks: RegExp): Promise<Answer> {
  const ctx = await conversation.wait();
  const text = ctx.message?.text;
  if (text !== undefined && !text.startsWith("/")) return { kind: "text", text: text.trim(), ctx };
  const data = ctx.callbackQuery?.data;
  if (data !== undefined && callbacks.test(data)) {
    await ctx.answerCallbackQuery();
    return { kind: "tap", data, ctx };
  }
  // Another command: this flow only asked a question, so it steps aside and the command runs.
  if (text !== undefined) return conversation.halt({ next: true });
  // Someone else's button, an edit, a reaction: not ours, let its handler have it.
  if (!ctx.message) return conversation.skip({ next: true });
  await ctx.reply(ctx.t("flow-hint-text"));
  return conversation.skip();
}
