/**
 * One question of a guided flow (the form of a command taken without its arguments): the
 * question with this run's buttons, answered by a tap or by typing, asked again with the reason
 * until the answer reads. A tap on a button of an earlier question of the same run is ignored
 * (the question stands); another command steps aside (the flow ends and the command runs), and
 * /cancel is handled before any flow.
 *
 * @example
 * const buttons = await flowButtons(conversation, FLOW_BUTTONS.alert, "button-inactive");
 * const kind = await askStep(conversation, ctx, buttons, { text: ctx.t("alert-guide-kind"), keyboard }, (answer) =>
 *   answer.kind === "tap" ? tapValue(answer.action) : { again: ctx.t("alert-guide-kind-again") },
 * );
 */
import type { InlineKeyboard } from "grammy";
import type { Flow, FlowContext } from "../context.ts";
import { type WaitOptions, waitAnswer } from "./wait.ts";

/** The answer as the step reads it: a tap's action (what follows this run's `own`), or text. */
export type StepAnswer = { kind: "tap"; action: string } | { kind: "text"; text: string };

/** The value, or the sentence that asks again; undefined: not this step's (ignored). */
export type StepRead<T> = { value: T } | { again: string } | undefined;

export interface StepQuestion {
  text: string;
  keyboard?: InlineKeyboard;
  html?: boolean;
}

export async function askStep<T>(
  conversation: Flow,
  ctx: FlowContext,
  buttons: { own: string; wait: WaitOptions },
  question: StepQuestion,
  read: (answer: StepAnswer) => StepRead<T>,
): Promise<{ value: T; ctx: FlowContext }> {
  const options = (keyboard: InlineKeyboard | undefined) => ({
    ...(keyboard === undefined ? {} : { reply_markup: keyboard }),
    ...(question.html === true ? { parse_mode: "HTML" as const } : {}),
  });
  await ctx.reply(question.text, options(question.keyboard));
  const wait: WaitOptions = { ...buttons.wait, commands: "step-aside" };
  for (;;) {
    const answer = await waitAnswer(conversation, wait);
    const read_ =
      answer.kind === "tap"
        ? read({ kind: "tap", action: answer.data.slice(buttons.own.length) })
        : read({ kind: "text", text: answer.text });
    if (read_ === undefined) continue;
    if ("value" in read_) return { value: read_.value, ctx: answer.ctx };
    // The buttons again under the reason, so the next answer is one tap away.
    await answer.ctx.reply(read_.again, options(question.keyboard));
  }
}

/** A tap's action `prefix:value` → value (`cur:btc` → `btc`), undefined for another step's. */
export function tapped(answer: StepAnswer, prefix: string): string | undefined {
  return answer.kind === "tap" && answer.action.startsWith(`${prefix}:`)
    ? answer.action.slice(prefix.length + 1)
    : undefined;
}
