/** A buy with the user's euro balance (the amount is EUR): trade.ts quotes it. */
import { tradeKind } from "./trade.ts";

export const buy = tradeKind("buy", "buy_crypto");
