/**
 * /buy and /sell: currency (buttons from GET v1/prices, or typed), amount (EUR for a
 * buy, the crypto for a sell; parsed by money.ts), then a quote card with Confirm / Change amount /
 * Cancel. `/buy btc 100` and `/sell eth 0.5` skip the steps they answer.
 *
 * The conversation only gathers and checks the input, hands it to the money pipeline for a quote
 * (src/orders/) and shows the card; it ends there. The card's Confirm and Cancel are answered from
 * the store for every kind (features/orders.ts); only Change amount comes back here.
 */

import { kindOf } from "../../orders/kinds/index.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { logInFirst } from "../flows/log-in.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import {
  alertTapStart,
  changeAmount,
  readArguments,
  type TradeStart,
  tradeSteps,
} from "../flows/trade-steps.ts";
import { flowUserId } from "../flows/user.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK, ORDER_CHANGE } from "../ui/callback-data.ts";

export const TRADE_FLOW = kindOf("buy").flow;

type TradeDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "orders" | "store" | "clock">;

/** The `TRADE_FLOW` conversation, installed by bot.ts. */
export function tradeConversation(deps: TradeDeps): FlowSpec {
  return { id: TRADE_FLOW, steps: tradeFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function tradeFeature(deps: TradeDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  for (const kind of ["buy", "sell"] as const) {
    composer.command(kind, requireLogin(deps), async (ctx) => {
      await enterFlow(ctx, TRADE_FLOW, { kind, ...readArguments(ctx.match) });
    });
  }

  // The home card's Buy and Sell: the flow from its first step.
  for (const kind of ["buy", "sell"] as const) {
    composer.callbackQuery(CALLBACK.home.data(kind), requireLogin(deps), async (ctx) => {
      await ctx.answerCallbackQuery();
      await enterFlow(ctx, TRADE_FLOW, { kind });
    });
  }

  // A currency button of a flow that is no longer running: start again from that choice.
  composer.callbackQuery(CALLBACK.tradePick.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { side, code } = CALLBACK.tradePick.read(ctx);
    await enterFlow(ctx, TRADE_FLOW, { kind: side, currency: code });
  });

  // A fired alert's Buy or Sell: the quote card in one tap; logged out, the login steps first.
  composer.callbackQuery(CALLBACK.alertTrade.pattern, async (ctx) => {
    const start = await alertTapStart(ctx, deps);
    if (start === undefined) return;
    const status = await deps.sessions.status(ctx.from.id);
    if (status.state === "active") await deps.sessions.touch(ctx.from.id);
    else start.logIn = true;
    await enterFlow(ctx, TRADE_FLOW, start);
  });

  // The card's Change amount (Confirm and Cancel are answered in features/orders.ts). A dead card
  // (expired, replaced, cancelled) still asks again; only someone else's or a used one is refused.
  composer.callbackQuery(ORDER_CHANGE, async (ctx) => {
    const again = await changeAmount(ctx, deps.orders, CALLBACK.order.read(ctx).id, "account");
    if (again !== undefined) await requireLogin(deps)(ctx, () => enterFlow(ctx, TRADE_FLOW, again));
  });

  return composer;
}

export { readArguments };

function tradeFlow(deps: TradeDeps) {
  return async function trade(conversation: Flow, ctx: FlowContext, start: TradeStart): Promise<void> {
    const userId = flowUserId(ctx);
    const { kind } = start;
    if (start.logIn && !(await logInFirst(conversation, ctx, deps))) return;
    await tradeSteps(conversation, ctx, deps, start, {
      currencies: await exchangeCurrencies(conversation, ctx, deps),
      pick: CALLBACK.tradePick,
      quote: (request) =>
        sessionCall(conversation, ctx, deps, (client) =>
          deps.orders.quote({ account: client }, userId, { kind, ...request }),
        ),
    });
  };
}
