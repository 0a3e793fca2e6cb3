/**
 * An exchange call inside a flow that survives an expired session (SECURITY.md, Sessions): on a
 * 401 (or a token past its hour) the flow is kept, the user logs in again right there, and the
 * call is made again, so the flow carries on where it was. Only for calls that are safe to
 * repeat (reads and quotes); placing an order has its own exactly-once path (src/orders/).
 *
 * @example
 * const banks = await sessionCall(conversation, ctx, deps, (client) => client.bankAccounts());
 */
import type { AccountSession } from "../../exchange/account.ts";
import { NotLoggedInError } from "../../session/errors.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { type CurrencyChoice, choicesOf } from "../ui/currency-choice.ts";
import { externalCall } from "./external.ts";
import { logInSteps } from "./log-in.ts";
import { flowUserId } from "./user.ts";

export async function sessionCall<T>(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
  task: (client: AccountSession) => Promise<T>,
): Promise<T> {
  const userId = flowUserId(ctx);
  for (let attempt = 0; ; attempt++) {
    try {
      return await externalCall(conversation, () => deps.sessions.use(userId, task));
    } catch (error) {
      // One re-login per call; if that fails, the error boundary offers the Log in button.
      if (!(error instanceof NotLoggedInError) || attempt > 0) throw error;
      await ctx.reply(ctx.t("session-expired-in-flow"));
      if (!(await logInSteps(conversation, ctx, deps, { expired: true }))) throw error;
    }
  }
}

/** The exchange's currencies (GET v1/prices) as choices, asked inside a flow. */
export function exchangeCurrencies(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
): Promise<CurrencyChoice[]> {
  return sessionCall(conversation, ctx, deps, async (client) => choicesOf(await client.prices()));
}
