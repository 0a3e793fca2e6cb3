/** A buy with the user's euro balance (the amount is EUR): trade.ts quotes it. */
import { eurCap } from "./kind.ts";
import { tradeKind } from "./trade.ts";

export const buy = tradeKind("buy", {
  transactionType: "buy_crypto",
  cap: eurCap("buy"),
  post: (account, order) => account.buy(order),
});
