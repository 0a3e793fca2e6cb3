/**
 * Waiting for the user's next answer inside a conversation. Anything that is not the expected
 * kind of input (a sticker, a photo, another command, a stale button) gets a hint and the flow
 * stays where it was (PRODUCT.md, Reliability). `/cancel` never arrives here: it is handled
 * before the conversations run.
 */
import type { Filter } from "grammy";
import type { Flow, FlowContext } from "../context.ts";

export type TextContext = Filter<FlowContext, "message:text">;

function isPlainText(ctx: FlowContext): ctx is TextContext {
  return ctx.has("message:text") && !ctx.message.text.startsWith("/");
}

async function hint(ctx: FlowContext): Promise<void> {
  if (ctx.callbackQuery) {
    await ctx.answerCallbackQuery({ text: ctx.t("flow-hint-command") });
    return;
  }
  const isCommand = ctx.message?.text?.startsWith("/") ?? false;
  await ctx.reply(ctx.t(isCommand ? "flow-hint-command" : "flow-hint-text"));
}

/** The next plain text message; everything else is answered with a hint. */
export async function waitForText(conversation: Flow): Promise<TextContext> {
  return conversation.waitUntil(isPlainText, { otherwise: hint });
}

/**
 * The next text message, whatever it starts with: for secrets (a password may begin with "/"),
 * which must be taken, and deleted, rather than answered with a hint and left in the chat.
 * (/cancel and /logout are handled before the flows and never arrive here.)
 */
export async function waitForSecret(conversation: Flow): Promise<TextContext> {
  return conversation.waitFor("message:text", { otherwise: hint });
}

/**
 * The next plain text message or a tap on one of `callbacks`, for steps that offer buttons and
 * also accept the same choice typed (PRODUCT.md: every choice is also accepted as text).
 */
export async function waitForTextOrTap(
  conversation: Flow,
  callbacks: RegExp,
): Promise<
  { kind: "text"; ctx: TextContext; text: string } | { kind: "tap"; ctx: FlowContext; data: string }
> {
  const ctx = await conversation.waitUntil(
    (c) => isPlainText(c) || (c.callbackQuery?.data !== undefined && callbacks.test(c.callbackQuery.data)),
    { otherwise: hint },
  );
  if (isPlainText(ctx)) return { kind: "text", ctx, text: ctx.message.text.trim() };
  await ctx.answerCallbackQuery();
  return { kind: "tap", ctx, data: ctx.callbackQuery?.data ?? "" };
}
