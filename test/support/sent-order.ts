/** Money actions left behind as a crash leaves them, for the reconciliation tests. */
import Big from "big.js";
import { Ledger, type MoneyAction } from "../../src/orders/ledger.ts";
import type { Harness } from "./harness.ts";
import { draftOf } from "./quotes.ts";

/**
 * What a kill right after an order's POST leaves: `sent` recorded in the store, the buy carried out
 * at the exchange, no answer seen by the bot.
 */
export async function buySentBeforeCrash(h: Harness, userId: number, amount: string): Promise<MoneyAction> {
  const ledger = new Ledger(h.deps.store, h.deps.clock);
  const action = await ledger.quote({ userId, ...draftOf("buy", "btc", amount) });
  await ledger.confirm(action.id, userId);
  await ledger.markSent(action.id);
  await h.deps.sessions.use(userId, (client) => client.buy({ amount: new Big(amount), currencyCode: "btc" }));
  return action;
}
