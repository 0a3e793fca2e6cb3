/**
 * /withdraw: euros to one of the user's verified bank accounts.
 *
 *   bank account (a button per account, IBAN masked; accounts still waiting for their
 *   verification deposit are shown as not usable yet; also typed: its number or IBAN's end)
 *   → EUR amount (money.ts's parseAmount)
 *   → the money pipeline's quote (orders/kinds/withdraw.ts) and its card; the flow ends there.
 *
 * The card's Confirm, the fresh 2FA code and the POST (v1/fiat-withdrawal with the account's
 * reference_number) are the pipeline's, the same for every kind (features/orders.ts).
 */

import { EUR } from "../../domain/currency.ts";
import { kindOf } from "../../orders/kinds/index.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { bankRefusalIsFinal, pickBank } from "../flows/bank-pick.ts";
import { moneyFlowEntry } from "../flows/enter.ts";
import { askAmountAndQuote } from "../flows/order-amount.ts";
import { sessionCall } from "../flows/session-call.ts";
import { flowButtons } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { bankLabel, bankView } from "../ui/bank-view.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";

export const WITHDRAW_FLOW = kindOf("withdraw").flow;
const BUTTONS = FLOW_BUTTONS.withdraw;

type WithdrawDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "orders">;

/** The `WITHDRAW_FLOW` conversation, installed by bot.ts. */
export function withdrawConversation(deps: WithdrawDeps): FlowSpec {
  return { id: WITHDRAW_FLOW, steps: withdrawFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function withdrawFeature(deps: WithdrawDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("withdraw", requireLogin(deps), moneyFlowEntry(WITHDRAW_FLOW));
  // A button of a /withdraw that is over: it orders nothing.
  composer.callbackQuery(BUTTONS.pattern, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("withdraw-button-stale") });
  });
  return composer;
}

function withdrawFlow(deps: WithdrawDeps) {
  return async function withdraw(conversation: Flow, ctx: FlowContext): Promise<void> {
    const { own, wait: step } = await flowButtons(
      conversation,
      BUTTONS,
      "withdraw-button-stale",
      CALLBACK.order.pattern,
    );
    const banks = await sessionCall(conversation, ctx, deps, async (client) =>
      (await client.bankAccounts()).map(bankView),
    );
    const target = await pickBank(conversation, ctx, banks, { own, wait: step });
    if (target === undefined) return;

    // ── Amount, quote, card ──
    await askAmountAndQuote(conversation, ctx, deps, {
      question: ctx.t("withdraw-ask-amount", { bank: bankLabel(target) }),
      again: ctx.t("withdraw-ask-amount-again"),
      unit: EUR,
      wait: step,
      request: (amount) => ({ kind: "withdraw", amount, referenceNumber: target.reference }),
      final: bankRefusalIsFinal,
    });
  };
}
