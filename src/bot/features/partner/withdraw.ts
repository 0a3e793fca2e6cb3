/**
 * /withdraw in partner mode: euros from the partner user's balance to one of their verified bank
 * accounts — the same steps as in account mode (flows/bank-pick.ts, flows/order-amount.ts) over the
 * partner API, then the money pipeline's card (orders/kinds/partner-withdraw.ts: balance, limit
 * left from the user limits). The card's Confirm is the pipeline's (features/orders.ts); after it
 * the user types their PIN (its message deleted at once), checked before anything is sent: five
 * wrong lock withdrawals for 15 minutes, said with the time.
 */
import { kindOf } from "../../../orders/kinds/index.ts";
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { BotDeps } from "../../deps.ts";
import { bankRefusalIsFinal, pickBank } from "../../flows/bank-pick.ts";
import { moneyFlowEntry } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { askAmountAndQuote } from "../../flows/order-amount.ts";
import { flowUserId } from "../../flows/user.ts";
import { flowButtons } from "../../flows/wait.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { bankLabel, bankView } from "../../ui/bank-view.ts";
import { CALLBACK, FLOW_BUTTONS } from "../../ui/callback-data.ts";

export const PARTNER_WITHDRAW_FLOW = kindOf("partner-withdraw").flow;
const BUTTONS = FLOW_BUTTONS.partnerWithdraw;

type PartnerWithdrawDeps = Pick<BotDeps, "sessions" | "profiles" | "orders" | "partner" | "phishing">;

/** The `PARTNER_WITHDRAW_FLOW` conversation, installed by bot.ts. */
export function partnerWithdrawConversation(deps: PartnerWithdrawDeps): FlowSpec {
  return { id: PARTNER_WITHDRAW_FLOW, steps: partnerWithdrawFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function partnerWithdrawFeature(): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("withdraw", moneyFlowEntry(PARTNER_WITHDRAW_FLOW));
  // A button of a /withdraw that is over: it orders nothing.
  composer.callbackQuery(BUTTONS.pattern, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("withdraw-button-stale") });
  });
  return composer;
}

function partnerWithdrawFlow(deps: PartnerWithdrawDeps) {
  return async function partnerWithdraw(conversation: Flow, ctx: FlowContext): Promise<void> {
    const userId = flowUserId(ctx);
    const partner = deps.partner;
    if (partner === undefined) return;
    const buttons = await flowButtons(conversation, BUTTONS, "withdraw-button-stale", CALLBACK.order.pattern);
    const banks = await externalCall(conversation, async () => {
      const partnerUserId = await partner.users.partnerIdOf(userId);
      return partnerUserId === undefined ? [] : (await partner.api.bankAccounts(partnerUserId)).map(bankView);
    });
    const target = await pickBank(conversation, ctx, banks, buttons);
    if (target === undefined) return;
    await askAmountAndQuote(conversation, ctx, deps, {
      question: ctx.t("withdraw-ask-amount", { bank: bankLabel(target) }),
      again: ctx.t("withdraw-ask-amount-again"),
      unit: "eur",
      wait: buttons.wait,
      request: (amount) => ({ kind: "partner-withdraw", amount, referenceNumber: target.reference }),
      final: bankRefusalIsFinal,
      quote: (request) => externalCall(conversation, () => deps.orders.quoteAs(userId, request)),
    });
  };
}
