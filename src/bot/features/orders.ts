/**
 * The quote card's buttons, for every kind of money action (buy, sell, send, withdraw), answered
 * OUTSIDE any conversation, from the store (the money pipeline, src/orders/pipeline.ts): a tap
 * after the flow ended, after a restart, twice, or on another instance is answered the same way,
 * and one Confirm is one order (SECURITY.md, rules 4, 5, 8).
 *
 * - Confirm: claimed once in the ledger. A buy or sell goes out at once; a send or withdrawal
 *   hands over to the fresh-code step. A card past its TTL is quoted again (once) instead;
 *   a card replaced by a newer quote, cancelled or already used is refused, to the tapper only.
 * - Cancel: cancels the quote (or, during the code step, the confirmed action) in the ledger.
 * - Typed instead of tapped (the labels in the user's language), outside a flow: the same decision
 *   on the user's newest card still quoted, of any kind.
 *
 * A confirmed send or withdrawal (and a partner withdrawal, with the PIN) goes on to the
 * fresh-code step (flows/order-code.ts); the order's outcome is told by flows/order-outcome.ts.
 *
 * Partner mode has no exchange login: its cards are confirmed without one, behind the KYC gate
 * (bot/partner-features.ts). The "user came back" reconciliation check is
 * middleware/order-watch.ts.
 */
import type { MoneyAction } from "../../orders/ledger.ts";
import type { BotContext, PrivateContext } from "../context.ts";
import { enterFlow } from "../flows/enter.ts";
import { CODE_FLOW, type OrderDeps } from "../flows/order-code.ts";
import { tellOutcome } from "../flows/order-outcome.ts";
import { clientLocale } from "../i18n.ts";
import { kycStanding } from "../middleware/partner-gate.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { cardMessage, ORDER_WORDS, refusalText, typedCardVerb, wordsOf } from "../ui/order-card.ts";

export function ordersFeature(deps: OrderDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.callbackQuery(CALLBACK.order.pattern, async (ctx, next) => {
    const { verb, id } = CALLBACK.order.read(ctx);
    if (verb === "e") return next(); // Change amount: the kind's own feature asks again.
    await decide(deps, ctx, verb === "c" ? "c" : "x", id, tapAnswers(ctx));
  });

  // Confirm or Cancel typed instead of tapped: the same decision on the user's newest card. Only
  // outside a flow (inside one, text is the flow's answer), and before the unknown-input sentence.
  composer.on("message:text", async (ctx, next) => {
    const verb = typedCardVerb(ctx.t, ctx.message.text);
    if (verb === undefined || Object.keys(ctx.conversation.active()).length > 0) return next();
    // Partner mode gates commands and taps only: a typed decision asks the gate's question here.
    if (deps.partner !== undefined) {
      const standing = await kycStanding(deps.partner, ctx.from.id, ctx.t);
      if (!standing.serve) {
        await ctx.reply(standing.text);
        return;
      }
    }
    const action = await deps.orders.latestQuoted(ctx.from.id);
    if (action === undefined) {
      await ctx.reply(ctx.t("order-typed-none"));
      return;
    }
    await decide(deps, ctx, verb, action.id, typedAnswers(ctx));
  });

  return composer;
}

/** Confirm or Cancel of action `id`, however it came: exactly once, expiry and ownership by the ledger. */
async function decide(
  deps: OrderDeps,
  ctx: PrivateContext,
  verb: "c" | "x",
  id: string,
  answers: Answers,
): Promise<void> {
  if (verb === "c") {
    // Partner mode has no exchange login; the KYC gate stood in front of this decision instead.
    if (deps.partner !== undefined) return onConfirm(deps, ctx, id, answers);
    // Checked before the Confirm is claimed: a tap without a session must not use the quote up.
    await requireLogin(deps)(ctx, () => onConfirm(deps, ctx, id, answers));
    return;
  }
  const result = await deps.orders.cancel(id, ctx.from.id);
  const action = result.action;
  if (
    action === undefined ||
    (!result.ok && (result.reason === "not-yours" || result.reason === "unknown"))
  ) {
    const words = wordsOf(action?.kind);
    await answers.answer(ctx.t(words.refused(result.ok ? "unknown" : result.reason)), true);
    return;
  }
  const words = ORDER_WORDS[action.kind];
  if (!result.ok && result.reason === "already") {
    await answers.answer(ctx.t(words.sentAlready), true);
    return;
  }
  // Cancelled now, or dead already (expired, replaced, cancelled): either way nothing is ordered.
  await answers.answer();
  await answers.close(words.closeCancelled && ctx.t(words.closeCancelled));
  await ctx.reply(ctx.t(words.cancelled));
}

/** A Confirm: claimed once by the ledger, then the code step or the order placed and its outcome told. */
async function onConfirm(deps: OrderDeps, ctx: PrivateContext, id: string, answers: Answers): Promise<void> {
  const userId = ctx.from.id;
  const confirmed = await deps.orders.confirm(id, userId);
  // Confirmed: the order's outcome is told later, by a notice that has no update to read it from.
  if (confirmed.ok) await deps.profiles.rememberAppLocale(userId, clientLocale(ctx.from.language_code));
  if (!confirmed.ok) {
    const action = confirmed.action;
    const words = wordsOf(action?.kind);
    if (confirmed.reason === "expired" && action !== undefined) {
      // One re-quote per stale card: a second tap on it must not replace the new card again.
      if (!(await deps.orders.claimNotice(id, "requote"))) {
        await answers.answer(ctx.t(words.expiredAgain), true);
        return;
      }
      await answers.answer(ctx.t(words.refused("expired")));
      await answers.close(words.closeExpired && ctx.t(words.closeExpired));
      await requote(deps, ctx, action);
      return;
    }
    if (confirmed.reason === "guarded") {
      // One of the bot's own rules holds now (a freeze, a cooling-off…): the card is dead, say why.
      await answers.answer();
      await answers.close(words.closeCancelled && ctx.t(words.closeCancelled));
      await ctx.reply(refusalText(ctx.t, confirmed.refusal, await ctx.i18n.getLocale()));
      return;
    }
    if (confirmed.reason === "already" && action?.state === "confirmed" && words.code) {
      await answers.answer(ctx.t(words.code.awaited));
      return;
    }
    await answers.answer(ctx.t(words.refused(confirmed.reason)), true);
    if (confirmed.reason === "replaced")
      await answers.close(words.closeReplaced && ctx.t(words.closeReplaced));
    if (confirmed.reason === "cancelled")
      await answers.close(words.closeCancelled && ctx.t(words.closeCancelled));
    return;
  }
  const action = confirmed.action;
  const words = ORDER_WORDS[action.kind];
  if (deps.orders.needsCode(action)) {
    await answers.answer();
    await answers.close();
    await enterFlow(ctx, CODE_FLOW, action.id);
    return;
  }
  await answers.answer(words.placingTap && ctx.t(words.placingTap));
  await answers.close(words.closePlacing && ctx.t(words.closePlacing));
  const result = await deps.orders.place(id, userId);
  await tellOutcome(ctx, result, await deps.phishing.get(userId));
}

/** A Confirm on a card past its TTL: the same order, quoted again at today's numbers. */
async function requote(deps: OrderDeps, ctx: BotContext, old: MoneyAction): Promise<void> {
  const outcome = await deps.orders.requote(old);
  const locale = await ctx.i18n.getLocale();
  if (!outcome.ok) {
    await ctx.reply(refusalText(ctx.t, outcome.refusal, locale));
    return;
  }
  await ctx.reply(ctx.t(ORDER_WORDS[old.kind].requoted));
  const card = cardMessage(ctx.t, outcome.action, locale, await deps.phishing.get(old.userId));
  const shown = await ctx.reply(card.text, card.other);
  // A Freeze takes the buttons off it (features/freeze.ts).
  await deps.orders.rememberCard(outcome.action.id, { chatId: shown.chat.id, messageId: shown.message_id });
}

/** How a decision is answered: a tap gets its popup and its card closed; typed text gets replies. */
interface Answers {
  answer(text?: string, alert?: boolean): Promise<void>;
  close(line?: string): Promise<void>;
}

function tapAnswers(ctx: PrivateContext): Answers {
  return { answer: (text, alert) => answerTap(ctx, text, alert), close: (line) => closeCard(ctx, line) };
}

/** The card of a typed decision is not at hand; a tap on it later is refused by the ledger. */
function typedAnswers(ctx: PrivateContext): Answers {
  return {
    answer: async (text) => {
      if (text !== undefined) await ctx.reply(text);
    },
    close: async () => {},
  };
}
