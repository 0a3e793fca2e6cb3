/** A sell of the user's crypto for euros (the amount is the crypto): trade.ts quotes it. */
import { sellCap } from "./kind.ts";
import { tradeKind } from "./trade.ts";

export const sell = tradeKind("sell", {
  transactionType: "sell_crypto",
  cap: sellCap,
  post: (account, order) => account.sell(order),
});
