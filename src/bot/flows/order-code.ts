/**
 * The fresh-code step of a confirmed order (`order-code`, a conversation entered by the card's
 * Confirm in features/orders.ts): the user types the current 6-digit code; its message is deleted
 * before anything else; the order goes out only with it (SECURITY.md, rule 9), once; a code the
 * exchange refuses is asked again, three times at most; past the deadline the action is
 * cancelled; /cancel there leaves it never sent; a second Confirm tap says the code is awaited.
 * A partner withdrawal takes the same step with the user's PIN instead (checked by the pipeline):
 * a wrong PIN is asked again, five wrong lock withdrawals for 15 minutes, said with the time; the
 * KYC gate's question is asked again before sending.
 */
import { PARTNER_KINDS } from "../../orders/ledger.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { kycStanding } from "../middleware/partner-gate.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { formatTime } from "../ui/format.ts";
import { ORDER_WORDS, typedCardVerb } from "../ui/order-card.ts";
import { withPhishingLine } from "../ui/phishing.ts";
import { externalCall } from "./external.ts";
import { tellOutcome } from "./order-outcome.ts";
import { flowPhrase } from "./phishing.ts";
import { flowUserId } from "./user.ts";
import { waitAnswer } from "./wait.ts";

export const CODE_FLOW = "order-code";
/** Wrong codes (refused by the exchange) before the action is cancelled. */
export const MAX_CODE_TRIES = 3;
/** How long after Confirm a code is still taken. */
export const CODE_DEADLINE_MS = 5 * 60_000;
const CODE = /^\d{6}$/;

export type OrderDeps = Pick<BotDeps, "orders" | "sessions" | "phishing" | "clock" | "partner" | "profiles">;

/** The `order-code` conversation, installed by bot.ts; the card's Confirm enters it. */
export function orderCodeConversation(deps: OrderDeps): FlowSpec {
  // Outlives CODE_DEADLINE_MS on purpose: a code typed between the deadline and the flow's end is answered "too late".
  return { id: CODE_FLOW, steps: codeStep(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

/** The fresh-code step of a confirmed send or withdrawal; its one argument is the action id. */
function codeStep(deps: OrderDeps) {
  const { orders } = deps;
  return async function orderCode(conversation: Flow, ctx: FlowContext, id: string): Promise<void> {
    const userId = flowUserId(ctx);
    const action = await externalCall(conversation, () => orders.get(id));
    const code = action === undefined ? undefined : ORDER_WORDS[action.kind].code;
    if (action?.state !== "confirmed" || code === undefined) return;
    const words = ORDER_WORDS[action.kind];
    const cancelTap = new RegExp(`^ord:x:${id}$`);
    const locale = await ctx.i18n.getLocale();
    // It asks for a secret: it carries the user's anti-phishing phrase, like every such question.
    const phrase = await flowPhrase(conversation, ctx, deps);
    const ask = (text: string) => ctx.reply(withPhishingLine(ctx.t, phrase, text));
    // Locked by earlier wrong PINs: said at once, with the time, instead of asking for a PIN.
    const lockedUntil = await externalCall(conversation, () => orders.pinLockedUntil(userId));
    if (lockedUntil !== undefined) {
      await externalCall(conversation, () => orders.cancel(id, userId));
      await ctx.reply(ctx.t(code.tooMany, { time: formatTime(lockedUntil, locale) }));
      return;
    }
    await ask(ctx.t(code.ask));
    for (let tries = 1; ; ) {
      // The card's Cancel is taken here; its Confirm (a double tap, a redelivered update) goes on to
      // the card handler, which says from the store that the code is awaited.
      const answer = await waitAnswer(conversation, {
        taps: cancelTap,
        passOn: CALLBACK.order.pattern,
        hint: code.format,
      });
      // The code is a secret for its 30 seconds: its message goes before anything else happens.
      if (answer.kind === "text") await answer.ctx.deleteMessage();
      // The card's Cancel, tapped or typed.
      if (answer.kind === "tap" || typedCardVerb(ctx.t, answer.text) === "x") {
        const cancelled = await externalCall(conversation, async () => (await orders.cancel(id, userId)).ok);
        await ctx.reply(ctx.t(cancelled ? words.cancelled : words.sentAlready));
        return;
      }
      const typed = answer.text.replace(/\s/g, "");
      if (typedCardVerb(ctx.t, answer.text) === "c") {
        await ctx.reply(ctx.t(code.awaited));
        continue;
      }
      if (!CODE.test(typed)) {
        await ctx.reply(ctx.t(code.format));
        continue;
      }
      const now = await externalCall(conversation, async () => deps.clock.now());
      if (now - (action.confirmedAt ?? action.createdAt) > CODE_DEADLINE_MS) {
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(ctx.t(code.late));
        return;
      }
      // KYC may have changed since the gated Confirm: the exchange must still serve this user.
      const partner = deps.partner;
      if (partner !== undefined && PARTNER_KINDS.has(action.kind)) {
        const standing = await externalCall(conversation, () => kycStanding(partner, userId, ctx.t));
        if (!standing.serve) {
          await externalCall(conversation, () => orders.cancel(id, userId));
          await ctx.reply(standing.text);
          return;
        }
      }
      await ctx.reply(ctx.t(code.sending));
      const result = await externalCall(conversation, () => orders.place(id, userId, typed));
      if (result.kind === "pin-refused") {
        const check = result.check;
        if (check.reason === "wrong") {
          await ask(ctx.t(code.wrong, { left: check.left }));
          continue;
        }
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(
          check.reason === "locked"
            ? ctx.t(code.tooMany, { time: formatTime(check.until, locale) })
            : ctx.t("partner-pin-not-set"),
        );
        return;
      }
      if (result.kind !== "code-rejected") {
        await tellOutcome(ctx, result, phrase);
        return;
      }
      if (tries >= MAX_CODE_TRIES) {
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(ctx.t(code.tooMany));
        return;
      }
      tries++;
      await ask(ctx.t(code.wrong, { left: MAX_CODE_TRIES - tries + 1 }));
    }
  };
}
