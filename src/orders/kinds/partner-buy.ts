/** A partner user's buy (partner mode; the amount is EUR): partner-trade.ts quotes it. */
import { partnerTradeKind } from "./partner-trade.ts";

export const partnerBuy = partnerTradeKind("partner-buy", "buy", "buy_crypto");
