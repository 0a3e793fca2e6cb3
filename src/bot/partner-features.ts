/**
 * Every feature of partner mode (EXCHANGE_MODE=partner), in one list: bot.ts installs this instead
 * of the account features. They run behind the KYC gate (middleware/partner-gate.ts), which found
 * the user's partner link (order-card taps included; a typed Confirm and the PIN step check KYC
 * themselves, see features/orders.ts and flows/order-code.ts); the operator desk answers
 * OPERATOR_IDS only and lets everyone else fall through to the unknown-command answer.
 *
 * @example
 * if (deps.partner) inPrivate.use(routeFeatures(partnerFeatures({ ...deps, partner: deps.partner })));
 */
import type { Middleware } from "grammy";
import type { PrivateContext } from "./context.ts";
import type { PartnerBotDeps } from "./deps.ts";
import { unfreezeFeature } from "./features/freeze.ts";
import { notificationsFeature } from "./features/notifications.ts";
import { operatorDesk } from "./features/operator-desk.ts";
import { ordersFeature } from "./features/orders.ts";
import { partnerBalanceFeature } from "./features/partner/balance.ts";
import { partnerBanksFeature } from "./features/partner/banks.ts";
import { partnerDepositFeature } from "./features/partner/deposit.ts";
import { partnerHomeFeature } from "./features/partner/home.ts";
import { partnerLimitsFeature } from "./features/partner/limits.ts";
import { partnerMeFeature } from "./features/partner/me.ts";
import { partnerPinFeature } from "./features/partner/pin.ts";
import { partnerPricesFeature } from "./features/partner/prices.ts";
import { partnerTradeFeature } from "./features/partner/trade.ts";
import { partnerTransactionsFeature } from "./features/partner/transactions.ts";
import { partnerWithdrawFeature } from "./features/partner/withdraw.ts";
import { recurringFeature } from "./features/recurring.ts";
import { safetyFeature } from "./features/safety.ts";

export function partnerFeatures(deps: PartnerBotDeps): Array<Middleware<PrivateContext>> {
  return [
    operatorDesk(deps),
    partnerHomeFeature(deps),
    partnerMeFeature(deps),
    partnerBalanceFeature(deps),
    partnerPricesFeature(deps),
    partnerDepositFeature(deps),
    partnerBanksFeature(deps),
    partnerTransactionsFeature(deps),
    partnerLimitsFeature(deps),
    partnerTradeFeature(deps),
    partnerWithdrawFeature(),
    recurringFeature(deps),
    // The allowlist (bank accounts' cooling-off) and the self-set caps, as in account mode.
    safetyFeature(deps),
    partnerPinFeature(),
    // After the desk: `/unfreeze USER` is the operator's; a user's own says whom to ask.
    unfreezeFeature(deps),
    // The order cards' Confirm and Cancel: the same pipeline as account mode's,
    // here behind the gate so a user whose KYC is no longer passed cannot confirm.
    ordersFeature(deps),
    notificationsFeature(deps),
  ];
}
