/** A sell of the user's crypto for euros (the amount is the crypto): trade.ts quotes it. */
import { tradeKind } from "./trade.ts";

export const sell = tradeKind("sell", "sell_crypto");
