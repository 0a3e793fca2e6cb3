/** A partner user's sell (partner mode; the amount is the crypto): partner-trade.ts quotes it. */
import { sellCap } from "./kind.ts";
import { partnerTradeKind } from "./partner-trade.ts";

export const partnerSell = partnerTradeKind("partner-sell", {
  family: "sell",
  transactionType: "sell_crypto",
  cap: sellCap,
  post: (api, partnerUserId, order) => api.sell(partnerUserId, order),
});
