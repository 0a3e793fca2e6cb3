/**
 * A bank account just added through the bot (/banks add, partner /banks add) starts its
 * cooling-off (src/safety/bank-cooling.ts): recorded, the user told when a withdrawal may go to
 * it (and told again then by the jobs' cooling notices), and a security notice raised.
 *
 * @example
 * await startBankCooling(conversation, ctx, deps, { reference, iban });
 */
import { maskIban } from "../../domain/iban.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { formatMoment } from "../ui/format.ts";
import { externalCall } from "./external.ts";
import { flowUserId } from "./user.ts";

export async function startBankCooling(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "safety">,
  bank: { reference: string; iban: string },
): Promise<void> {
  const userId = flowUserId(ctx);
  const usableAt = await externalCall(conversation, () =>
    deps.safety.bankAdded(userId, { reference: bank.reference, iban: maskIban(bank.iban) }),
  );
  await ctx.reply(ctx.t("banks-cooling", { time: formatMoment(usableAt, await ctx.i18n.getLocale()) }));
}
