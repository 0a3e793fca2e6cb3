/** A partner user's buy (partner mode; the amount is EUR): partner-trade.ts quotes it. */
import { eurCap } from "./kind.ts";
import { partnerTradeKind } from "./partner-trade.ts";

export const partnerBuy = partnerTradeKind("partner-buy", {
  family: "buy",
  transactionType: "buy_crypto",
  cap: eurCap("buy"),
  post: (api, partnerUserId, order) => api.buy(partnerUserId, order),
});
