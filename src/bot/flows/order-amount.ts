/**
 * The last steps of a money flow that asks one amount (/send, /withdraw): the amount, typed and
 * parsed by money.ts; the money pipeline's quote (src/orders/pipeline.ts); its card. A refusal
 * another amount can fix asks again; one it cannot (`final`) ends the flow. The flow ends with the
 * card shown: its buttons are answered from the store (features/orders.ts).
 *
 * @example
 * await askAmountAndQuote(conversation, ctx, deps, {
 *   question: ctx.t("withdraw-ask-amount", { bank }), again: ctx.t("withdraw-ask-amount-again"),
 *   unit: "eur", wait, request: (amount) => ({ kind: "withdraw", amount, referenceNumber }),
 * });
 */
import { parseAmount } from "../../domain/money.ts";
import type { Quoted } from "../../orders/pipeline.ts";
import { type OrderRequest, type QuoteRefusal, STANDING_REASONS } from "../../orders/quote.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { refusalText } from "../ui/order-card.ts";
import { replyCard } from "./phishing.ts";
import { sessionCall } from "./session-call.ts";
import { flowUserId } from "./user.ts";
import { type WaitOptions, waitAnswer } from "./wait.ts";

export async function askAmountAndQuote(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "orders">,
  options: {
    /** The question, asked once (bad answers get their own sentence). */
    question: string;
    /** Said after a refused quote: send another amount. */
    again: string;
    /** The amount's currency (its decimals). */
    unit: string;
    wait: WaitOptions;
    request: (amount: string) => OrderRequest;
    /** Refusals no other amount fixes: said, and the flow ends. */
    final?: (refusal: QuoteRefusal) => boolean;
    /** How the quote is asked; default: with the user's session (sessionCall). Partner mode: the pipeline's `quoteAs`. */
    quote?: (request: OrderRequest) => Promise<Quoted>;
  },
): Promise<void> {
  const userId = flowUserId(ctx);
  const locale = await ctx.i18n.getLocale();
  await ctx.reply(options.question);
  for (;;) {
    const answer = await waitAnswer(conversation, options.wait);
    if (answer.kind === "tap") continue;
    const parsed = parseAmount(answer.text, options.unit, locale);
    if (!parsed.ok) {
      await answer.ctx.reply(amountRefusalText(ctx.t, parsed));
      continue;
    }
    const request = options.request(parsed.value.toFixed());
    const quoted = options.quote
      ? await options.quote(request)
      : await sessionCall(conversation, ctx, deps, (client) =>
          deps.orders.quote({ account: client }, userId, request),
        );
    if (quoted.ok) {
      await replyCard(conversation, ctx, deps, quoted.action);
      return;
    }
    const sentence = refusalText(ctx.t, quoted.refusal, locale);
    if (STANDING_REASONS.has(quoted.refusal.reason) || options.final?.(quoted.refusal)) {
      await ctx.reply(sentence);
      return;
    }
    await ctx.reply(`${sentence}\n${options.again}`);
  }
}
