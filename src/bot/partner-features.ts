/**
 * Every feature of partner mode (EXCHANGE_MODE=partner), in one list: bot.ts installs this instead
 * of the account features. They run behind the KYC gate (middleware/partner-gate.ts), which found
 * the user's partner link; the operator desk answers OPERATOR_IDS only and lets everyone else fall
 * through to the unknown-command answer.
 *
 * @example
 * if (deps.partner) inPrivate.use(routeFeatures(partnerFeatures({ ...deps, partner: deps.partner }, flows)));
 */
import type { Composer, Middleware } from "grammy";
import type { PartnerServices } from "../partner/services.ts";
import type { PrivateContext } from "./context.ts";
import type { BotDeps } from "./deps.ts";
import { operatorDesk } from "./features/operator-desk.ts";
import { partnerBalanceFeature } from "./features/partner-balance.ts";
import { partnerBanksFeature } from "./features/partner-banks.ts";
import { partnerDepositFeature } from "./features/partner-deposit.ts";
import { partnerLimitsFeature } from "./features/partner-limits.ts";
import { partnerMeFeature } from "./features/partner-me.ts";
import { partnerPricesFeature } from "./features/partner-prices.ts";
import { partnerTransactionsFeature } from "./features/partner-transactions.ts";

export type PartnerBotDeps = BotDeps & { partner: PartnerServices };

export function partnerFeatures(
  deps: PartnerBotDeps,
  flows: Composer<PrivateContext>,
): Array<Middleware<PrivateContext>> {
  return [
    operatorDesk(deps),
    partnerMeFeature(deps, flows),
    partnerBalanceFeature(deps),
    partnerPricesFeature(deps),
    partnerDepositFeature(deps),
    partnerBanksFeature(deps, flows),
    partnerTransactionsFeature(deps),
    partnerLimitsFeature(deps),
  ];
}
