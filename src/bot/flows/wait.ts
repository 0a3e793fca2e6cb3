/**
 * The one way a conversation waits for the user's next answer: typed text, or a tap on one of the
 * flow's own buttons (answered here). Anything else gets a hint and the flow stays where it was
 * (SECURITY.md, Reliability), with two policies to choose from:
 *
 * - a command mid-flow: `"hint"` (money flows: finish or /cancel first) or `"step-aside"`
 *   (read-only questions such as /price, /fees: the flow ends and the command runs);
 * - a button that is not this step's: one of this flow's earlier buttons (`stale`) is answered
 *   "no longer active"; buttons answered from the store outside any flow (`passOn`, e.g. quote
 *   cards) go on to their handler; any other button gets the hint (or passes on when stepping aside).
 *
 * `/cancel` and `/logout` never arrive here: they are handled before the conversations run.
 *
 * @example
 * const answer = await waitAnswer(conversation, { taps: CALLBACK.price.pattern, commands: "step-aside" });
 * if (answer.kind === "tap") … answer.data … else … answer.text …
 */
import type { Filter } from "grammy";
import type { Flow, FlowContext } from "../context.ts";
import type { FlowButtons } from "../ui/callback-data.ts";

export type TextContext = Filter<FlowContext, "message:text">;

export type Answer =
  | { kind: "text"; ctx: TextContext; text: string }
  | { kind: "tap"; ctx: FlowContext; data: string };

export interface WaitOptions {
  /** Callback data this step takes. */
  taps?: RegExp;
  /** Data starting with `prefix` is this flow's, from an earlier step or run: answered with `key`. */
  stale?: { prefix: string; key: string };
  /** Callback data handled outside the flow, from the store (quote cards): passed on. */
  passOn?: RegExp;
  /** A command mid-flow (default `"hint"`). */
  commands?: "hint" | "step-aside";
  /** The hint for anything else that is not text (default `flow-hint-text`). */
  hint?: string;
}

/** A text message that is not a command. */
export function isPlainText(ctx: FlowContext): ctx is TextContext {
  return ctx.has("message:text") && !ctx.message.text.startsWith("/");
}

export async function waitAnswer(conversation: Flow, options: WaitOptions = {}): Promise<Answer> {
  const ctx = await conversation.wait();
  if (isPlainText(ctx)) return { kind: "text", ctx, text: ctx.message.text.trim() };
  const stepAside = options.commands === "step-aside";
  const data = ctx.callbackQuery?.data;
  if (data !== undefined) {
    if (options.taps?.test(data)) {
      await ctx.answerCallbackQuery();
      return { kind: "tap", ctx, data };
    }
    if (options.passOn?.test(data)) return conversation.skip({ next: true });
    if (options.stale !== undefined && data.startsWith(options.stale.prefix)) {
      await ctx.answerCallbackQuery({ text: ctx.t(options.stale.key) });
      return conversation.skip();
    }
    // Someone else's button: a read-only question lets its handler have it.
    if (stepAside) return conversation.skip({ next: true });
    await ctx.answerCallbackQuery({ text: ctx.t("flow-hint-command") });
    return conversation.skip();
  }
  if (ctx.message?.text !== undefined) {
    // Another command: a read-only question steps aside and the command runs.
    if (stepAside) return conversation.halt({ next: true });
    await ctx.reply(ctx.t("flow-hint-command"));
    return conversation.skip();
  }
  // An edit, a reaction, a member update: not an answer, and not ours to answer.
  if (!ctx.message) return conversation.skip({ next: true });
  await ctx.reply(ctx.t(options.hint ?? "flow-hint-text"));
  return conversation.skip();
}

/** The next plain text message; everything else gets a hint. */
export async function waitForText(
  conversation: Flow,
  options: Omit<WaitOptions, "taps"> = {},
): Promise<TextContext> {
  for (;;) {
    const answer = await waitAnswer(conversation, options);
    if (answer.kind === "text") return answer.ctx;
  }
}

/**
 * The next text message, whatever it starts with: for secrets (a password may begin with "/"),
 * which must be taken, and deleted, rather than answered with a hint and left in the chat.
 */
export async function waitForSecret(conversation: Flow): Promise<TextContext> {
  return conversation.waitFor("message:text", {
    otherwise: async (ctx) => {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: ctx.t("flow-hint-command") });
      else if (ctx.message) await ctx.reply(ctx.t("flow-hint-text"));
    },
  });
}

/** Eight base-36 characters, made through the conversation (replays give the same nonce). */
export async function flowNonce(conversation: Flow): Promise<string> {
  let nonce = "";
  for (let i = 0; i < 8; i++) nonce += Math.floor((await conversation.random()) * 36).toString(36);
  return nonce;
}

/**
 * The buttons of one run of a flow: callback data `<prefix>:<nonce>:<action>` (SECURITY.md, rule 8).
 * The nonce lives in the conversation's state, which is per private chat, so a tap is acted on only
 * by the run that showed the button; an earlier run's button is answered with `staleKey`. `own`
 * starts this run's data; `wait` is for {@link waitAnswer} (quote cards pass on to their handler).
 */
export async function flowButtons(
  conversation: Flow,
  buttons: Pick<FlowButtons<never>, "prefix" | "own">,
  staleKey: string,
  passOn?: RegExp,
): Promise<{ own: string; wait: WaitOptions }> {
  const own = buttons.own(await flowNonce(conversation));
  const wait: WaitOptions = { taps: new RegExp(`^${own}`), stale: { prefix: buttons.prefix, key: staleKey } };
  if (passOn !== undefined) wait.passOn = passOn;
  return { own, wait };
}
