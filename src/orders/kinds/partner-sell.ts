/** A partner user's sell (partner mode; the amount is the crypto): partner-trade.ts quotes it. */
import { partnerTradeKind } from "./partner-trade.ts";

export const partnerSell = partnerTradeKind("partner-sell", "sell", "sell_crypto");
