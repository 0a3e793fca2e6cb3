/**
 * Every feature of partner mode (EXCHANGE_MODE=partner), in one list that bot.ts installs instead
 * of the account features. Features never import each other; this file, outside features/, is
 * where they are gathered.
 */
import { Composer } from "grammy";
import type { PrivateContext } from "./context.ts";
import type { BotDeps } from "./deps.ts";
import { partnerTradeFeature } from "./features/partner-trade.ts";
import { partnerWithdrawFeature } from "./features/partner-withdraw.ts";

export function partnerFeatures(deps: BotDeps, flows: Composer<PrivateContext>): Composer<PrivateContext> {
  const composer = new Composer<PrivateContext>();
  composer.use(partnerTradeFeature(deps, flows), partnerWithdrawFeature(deps, flows));
  return composer;
}
