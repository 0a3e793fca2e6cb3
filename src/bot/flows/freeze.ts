/**
 * A Freeze as the bot does it, for the user's own (features/freeze.ts) and the operator desk's
 * (features/operator-desk.ts): safety/freezes.ts `freezeMoney`, then the buttons taken off the
 * cards of the actions it cancelled, wherever they were shown (a tap on one would be refused by
 * the pipeline's guard anyway; without buttons nobody tries). Says whether the user was frozen
 * already (then no second notice went out).
 *
 * @example
 * await freezeAndCloseCards(ctx.api, { ...deps, sessions: undefined }, telegramId, "operator");
 */
import type { Api } from "grammy";
import { type FreezeParts, type FreezeRecord, freezeMoney } from "../../safety/freezes.ts";
import type { BotDeps } from "../deps.ts";
import { removeButtons } from "../ui/edit.ts";

export async function freezeAndCloseCards(
  api: Api,
  parts: FreezeParts & { orders: Pick<BotDeps["orders"], "cardOf"> },
  userId: number,
  by: FreezeRecord["by"],
): Promise<{ already: boolean }> {
  const { cancelled, already } = await freezeMoney(parts, userId, by);
  for (const action of cancelled) {
    const place = await parts.orders.cardOf(action.id);
    if (place !== undefined) await removeButtons(api, place);
  }
  return { already };
}
