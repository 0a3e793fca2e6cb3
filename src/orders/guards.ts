/**
 * The bot's own rules in front of the exchange's checks: a frozen user, an address still cooling
 * off, a cap the user set themselves… Each rule is an {@link OrderGuard}; the pipeline asks every
 * guard at three moments, so a rule that starts to hold after a card was shown (a Freeze tapped
 * in a notice, an operator's freeze on another instance) still stops the order:
 *
 * - `quote`: before the exchange is asked (nothing recorded when refused);
 * - `confirm`: when the card's Confirm is tapped (the action is cancelled when refused);
 * - `place`: just before the send claim, after the code or PIN step (cancelled when refused).
 *
 * A refusal is a {@link QuoteRefusal} like the exchange's (a reason and raw figures), worded by the
 * bot. Guards read the store, never the exchange, and never weaken the exchange's own checks.
 *
 * @example
 * const frozen: OrderGuard = {
 *   async refusal(_stage, userId, request) {
 *     return (await freezes.isFrozen(userId)) ? { kind: request.kind, reason: "frozen", vars: {} } : undefined;
 *   },
 * };
 * new OrderPipeline({ ...deps, guards: [frozen] });
 */
import type { ActionState } from "./action.ts";
import type { MoneyAction } from "./kinds/index.ts";
import type { OrderRequest, QuoteRefusal } from "./quote.ts";

export type GuardStage = "quote" | "confirm" | "place";

/** What a guard may read of any kind's request and recorded action (a kind's facts say the rest). */
export type GuardedRequest = { kind: string };
export type GuardedAction = { id: string; kind: string; state: ActionState; quote: unknown };

/**
 * One rule. The registry's kinds are the defaults; a guard that reads only a kind's facts
 * (safety/guards.ts) is built over any kind's request, so a test can hand it a kind of its own.
 */
export interface OrderGuard<R extends GuardedRequest = OrderRequest, A extends GuardedAction = MoneyAction> {
  /**
   * Why this user may not go on with this request now; undefined lets it through. At `confirm`
   * and `place` the recorded action comes too (its id and quoted figures: a sell's EUR value).
   */
  refusal(
    stage: GuardStage,
    userId: number,
    request: R,
    action?: A,
  ): Promise<QuoteRefusal<R["kind"]> | undefined>;
}

/** The first guard's refusal, in the guards' order; undefined when every guard lets it through. */
export async function firstRefusal(
  guards: readonly OrderGuard[],
  stage: GuardStage,
  userId: number,
  request: OrderRequest,
  action?: MoneyAction,
): Promise<QuoteRefusal | undefined> {
  for (const guard of guards) {
    const refusal = await guard.refusal(stage, userId, request, action);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** A guard refused the action after it was recorded: it was cancelled, nothing was sent. */
export interface GuardedRefusal {
  ok: false;
  reason: "guarded";
  refusal: QuoteRefusal;
  action: MoneyAction;
}
