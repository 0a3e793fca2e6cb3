/**
 * The confirm card of a bank account about to be added (/banks add, both modes): what will be sent
 * is shown first, with "Add this account" and Cancel, and the account goes to the exchange only
 * after the Confirm. A typed button label counts as its tap; anything else is told to tap.
 *
 * @example
 * if (!(await confirmBankAdd(conversation, ctx, { own, step }, summaryHtml))) return;
 */
import { InlineKeyboard } from "grammy";
import type { Flow, FlowContext } from "../context.ts";
import { sameLabel } from "../ui/amount.ts";
import { FLOW_BUTTONS } from "../ui/callback-data.ts";
import { type WaitOptions, waitAnswer } from "./wait.ts";

const BUTTONS = FLOW_BUTTONS.banks;

/** True after Confirm; false after Cancel (already said to the user). */
export async function confirmBankAdd(
  conversation: Flow,
  ctx: FlowContext,
  flow: { own: string; step: WaitOptions },
  summaryHtml: string,
): Promise<boolean> {
  const confirmLabel = ctx.t("banks-button-confirm-add");
  const cancelLabel = ctx.t("banks-button-cancel");
  await ctx.reply(summaryHtml, {
    parse_mode: "HTML",
    reply_markup: new InlineKeyboard()
      .text(confirmLabel, flow.own + BUTTONS.actions.add())
      .text(cancelLabel, flow.own + BUTTONS.actions.no()),
  });
  for (;;) {
    const answer = await waitAnswer(conversation, flow.step);
    const choice =
      answer.kind === "tap"
        ? answer.data.slice(flow.own.length)
        : sameLabel(answer.text, confirmLabel)
          ? "add"
          : sameLabel(answer.text, cancelLabel)
            ? "no"
            : undefined;
    if (choice === "no") {
      await answer.ctx.reply(ctx.t("flow-cancelled"));
      return false;
    }
    if (choice === "add") return true;
    await answer.ctx.reply(ctx.t("banks-add-confirm-hint"));
  }
}
