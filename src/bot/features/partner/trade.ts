/**
 * /buy and /sell in partner mode: the same steps as in account mode (flows/trade-steps.ts), with
 * the currencies the partner API offers (GET …/pairs, named by GET …/currencies where it says)
 * and the quote of the partner kinds (orders/kinds/partner-trade.ts). The card's Confirm and
 * Cancel are the pipeline's (features/orders.ts): the order goes out with its idempotency key.
 * Only Change amount comes back here. No exchange login: the partner user linked at sign-up is
 * the one who trades (the KYC gate stands in front of this feature).
 */
import { kindOf } from "../../../orders/kinds/index.ts";
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { BotDeps } from "../../deps.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { partnerCurrencies } from "../../flows/partner-currencies.ts";
import {
  alertTapStart,
  changeAmount,
  readArguments,
  type TradeStart,
  tradeSteps,
} from "../../flows/trade-steps.ts";
import { flowUserId } from "../../flows/user.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { CALLBACK, ORDER_CHANGE } from "../../ui/callback-data.ts";

export const PARTNER_TRADE_FLOW = kindOf("partner-buy").flow;
const KIND = { buy: "partner-buy", sell: "partner-sell" } as const;

type PartnerTradeDeps = Pick<BotDeps, "orders" | "phishing" | "partner" | "store" | "clock">;

/** The `PARTNER_TRADE_FLOW` conversation, installed by bot.ts. */
export function partnerTradeConversation(deps: PartnerTradeDeps): FlowSpec {
  return { id: PARTNER_TRADE_FLOW, steps: partnerTradeFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function partnerTradeFeature(deps: PartnerTradeDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  for (const kind of ["buy", "sell"] as const) {
    composer.command(kind, (ctx) =>
      enterFlow(ctx, PARTNER_TRADE_FLOW, { kind, ...readArguments(ctx.match) }),
    );
  }
  // The home card's Buy and Sell: the flow from its first step.
  for (const kind of ["buy", "sell"] as const) {
    composer.callbackQuery(CALLBACK.home.data(kind), async (ctx) => {
      await ctx.answerCallbackQuery();
      await enterFlow(ctx, PARTNER_TRADE_FLOW, { kind });
    });
  }
  // A currency button of a flow that is no longer running: start again from that choice.
  composer.callbackQuery(CALLBACK.partnerTradePick.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { side, code } = CALLBACK.partnerTradePick.read(ctx);
    await enterFlow(ctx, PARTNER_TRADE_FLOW, { kind: side, currency: code });
  });
  // A fired alert's Buy or Sell (behind the KYC gate, like every tap here): the quote card.
  composer.callbackQuery(CALLBACK.alertTrade.pattern, async (ctx) => {
    const start = await alertTapStart(ctx, deps);
    if (start !== undefined) await enterFlow(ctx, PARTNER_TRADE_FLOW, start);
  });
  composer.callbackQuery(ORDER_CHANGE, async (ctx) => {
    const again = await changeAmount(ctx, deps.orders, CALLBACK.order.read(ctx).id, "partner");
    if (again !== undefined) await enterFlow(ctx, PARTNER_TRADE_FLOW, again);
  });
  return composer;
}

function partnerTradeFlow(deps: PartnerTradeDeps) {
  return async function partnerTrade(conversation: Flow, ctx: FlowContext, start: TradeStart): Promise<void> {
    const userId = flowUserId(ctx);
    const api = deps.partner?.api;
    if (api === undefined) return;
    const kind = KIND[start.kind];
    await tradeSteps(conversation, ctx, deps, start, {
      currencies: await externalCall(conversation, () => partnerCurrencies(api)),
      pick: CALLBACK.partnerTradePick,
      quote: (request) => externalCall(conversation, () => deps.orders.quoteAs(userId, { kind, ...request })),
    });
  };
}
