/**
 * Small pieces shared by the flows that ask for money input (/send, /withdraw, /banks add and
 * remove): a per-flow nonce for callback data, waiting for typed text or a tap on this flow's own
 * buttons, and the sentence for a refused amount.
 *
 * Callback data is `<flow>:<nonce>:<action>` (PRODUCT.md, rule 8). The nonce is made inside the
 * conversation (so a replay makes the same one) and lives in the conversation's state, which is
 * per private chat: a tap is acted on only by the flow that showed the button, for the user it
 * was shown to. A tap on a button of an earlier run of the same flow is answered "this button is
 * no longer active" and changes nothing.
 *
 * @example
 * const nonce = await flowNonce(conversation);
 * await ctx.reply(text, { reply_markup: new InlineKeyboard().text("OK", `bk:${nonce}:ok`) });
 * const answer = await waitStep(conversation, { flow: "bk", nonce, staleKey: "banks-button-stale" });
 */
import type { Filter } from "grammy";
import type { AmountParse } from "../../money.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";

export type TextContext = Filter<FlowContext, "message:text">;

export type StepAnswer =
  | { kind: "text"; ctx: TextContext; text: string }
  | { kind: "tap"; ctx: FlowContext; action: string };

/** A sentence key and its variables. */
export interface Refusal {
  key: string;
  vars?: Record<string, string | number>;
}

/** Eight base-36 characters, made through the conversation (replays give the same nonce). */
export async function flowNonce(conversation: Flow): Promise<string> {
  let nonce = "";
  for (let i = 0; i < 8; i++) nonce += Math.floor((await conversation.random()) * 36).toString(36);
  return nonce;
}

function isPlainText(ctx: FlowContext): ctx is TextContext {
  return ctx.has("message:text") && !ctx.message.text.startsWith("/");
}

/**
 * The next plain text message, or a tap on one of this flow's buttons (answered here). Anything
 * else gets a hint and the flow stays where it was: a sticker, a photo, another command, a button
 * of an earlier run (`staleKey`) or of another feature.
 */
export async function waitStep(
  conversation: Flow,
  options: { flow: string; nonce: string; staleKey: string },
): Promise<StepAnswer> {
  const own = `${options.flow}:${options.nonce}:`;
  const ctx = await conversation.waitUntil(
    (c) => isPlainText(c) || (c.callbackQuery?.data?.startsWith(own) ?? false),
    {
      otherwise: async (c) => {
        if (c.callbackQuery) {
          const mine = c.callbackQuery.data?.startsWith(`${options.flow}:`) ?? false;
          await c.answerCallbackQuery({ text: c.t(mine ? options.staleKey : "flow-hint-command") });
          return;
        }
        const isCommand = c.message?.text?.startsWith("/") ?? false;
        await c.reply(c.t(isCommand ? "flow-hint-command" : "flow-hint-text"));
      },
    },
  );
  if (isPlainText(ctx)) return { kind: "text", ctx, text: ctx.message.text.trim() };
  await ctx.answerCallbackQuery();
  return { kind: "tap", ctx, action: (ctx.callbackQuery?.data ?? "").slice(own.length) };
}

/** The sentence for an amount money.ts refused (`amount-error-<reason>`). */
export function amountRefusal(parsed: Extract<AmountParse, { ok: false }>): Refusal {
  return { key: `amount-error-${parsed.reason}`, vars: { decimals: parsed.maxDecimals } };
}

/** Button labels match typed text loosely: case, spaces and emoji do not matter. */
export function sameLabel(typed: string, label: string): boolean {
  const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  return letters(typed) !== "" && letters(typed) === letters(label);
}

/** The conversations of /send, /withdraw and /banks add and remove. */
export const MONEY_FLOWS: readonly string[] = ["banks-add", "banks-remove", "send", "withdraw"];

/**
 * True while one of {@link MONEY_FLOWS} runs. Their commands are registered one after another, so
 * a command of one (say /send) is seen before a later flow (/withdraw) runs: the command steps
 * aside (`next()`) and the running flow answers it with a hint and stays where it was.
 */
export async function inMoneyFlow(ctx: BotContext): Promise<boolean> {
  const active = await ctx.conversation.active();
  return MONEY_FLOWS.some((id) => (active[id] ?? 0) > 0);
}
