/**
 * The quote card's buttons, for every kind of money action (buy, sell, send, withdraw), answered
 * OUTSIDE any conversation, from the store (the money pipeline, src/orders/pipeline.ts): a tap
 * after the flow ended, after a restart, twice, or on another instance is answered the same way,
 * and one Confirm is one order (PRODUCT.md, rules 4, 5, 8).
 *
 * - Confirm: claimed once in the ledger. A buy or sell goes out at once; a send or withdrawal
 *   hands over to the fresh-code step below. A card past its TTL is quoted again (once) instead;
 *   a card replaced by a newer quote, cancelled or already used is refused, to the tapper only.
 * - Cancel: cancels the quote (or, during the code step, the confirmed action) in the ledger.
 *
 * The fresh-code step (`order-code`, a conversation): the user types the current 6-digit code; its
 * message is deleted before anything else; the order goes out only with it (rule 9), once; a code
 * the exchange refuses is asked again, three times at most; past the deadline the action is
 * cancelled; /cancel there leaves it never sent; a second Confirm tap says the code is awaited.
 *
 * Also here: `orderWatch`, the "user came back" reconciliation check.
 */
import { createConversation } from "@grammyjs/conversations";
import type { Composer, MiddlewareFn } from "grammy";
import type { MoneyAction } from "../../orders/ledger.ts";
import type { PlaceResult } from "../../orders/place.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../feature-router.ts";
import { externalCall } from "../flows/external.ts";
import { flowUserId } from "../flows/user.ts";
import { waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { escapeHtml } from "../ui/format.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import {
  CARD_CALLBACK,
  cardMessage,
  cardParseMode,
  ORDER_WORDS,
  outcomeVars,
  refusalText,
} from "../ui/order-card.ts";
import { orderNoticeText } from "../ui/quote-card.ts";

export const CODE_FLOW = "order-code";
/** Wrong codes (refused by the exchange) before the action is cancelled. */
export const MAX_CODE_TRIES = 3;
/** How long after Confirm a code is still taken. */
export const CODE_DEADLINE_MS = 5 * 60_000;
/** The code step is forgotten after this; a code typed between the deadline and this is answered "too late". */
const CODE_FLOW_TIMEOUT_MS = 15 * 60_000;
const CODE = /^\d{6}$/;
/** How often (at most) a returning user's open orders are checked. */
const WATCH_INTERVAL_MS = 60_000;

type OrderDeps = Pick<BotDeps, "orders" | "sessions" | "clock">;

export function ordersFeature(deps: OrderDeps, flows: Composer<PrivateContext>): Feature<PrivateContext> {
  const { orders } = deps;
  const composer = new Feature<PrivateContext>();
  flows.use(
    createConversation(codeStep(deps), { id: CODE_FLOW, maxMillisecondsToWait: CODE_FLOW_TIMEOUT_MS }),
  );

  composer.callbackQuery(CARD_CALLBACK, async (ctx, next) => {
    const verb = ctx.match[1];
    const id = ctx.match[2] as string;
    if (verb === "e") return next(); // Change amount: the kind's own feature asks again.
    if (verb === "c") {
      // Checked before the Confirm is claimed: a tap without a session must not use the quote up.
      await requireLogin(deps)(ctx, () => onConfirm(ctx, id));
      return;
    }
    const result = await orders.cancel(id, ctx.from.id);
    const action = result.action;
    if (
      action === undefined ||
      (!result.ok && (result.reason === "not-yours" || result.reason === "unknown"))
    ) {
      const words = ORDER_WORDS[action?.kind ?? "buy"];
      await answerTap(ctx, ctx.t(words.refused(result.ok ? "unknown" : result.reason)), true);
      return;
    }
    const words = ORDER_WORDS[action.kind];
    if (!result.ok && result.reason === "already") {
      await answerTap(ctx, ctx.t(words.sentAlready), true);
      return;
    }
    // Cancelled now, or dead already (expired, replaced, cancelled): either way nothing is ordered.
    await answerTap(ctx);
    await closeCard(ctx, words.closeCancelled && ctx.t(words.closeCancelled));
    await ctx.reply(ctx.t(words.cancelled));
  });

  async function onConfirm(ctx: PrivateContext, id: string): Promise<void> {
    const userId = ctx.from.id;
    const confirmed = await orders.confirm(id, userId);
    if (!confirmed.ok) {
      const action = confirmed.action;
      const words = ORDER_WORDS[action?.kind ?? "buy"];
      if (confirmed.reason === "expired" && action !== undefined) {
        // One re-quote per stale card: a second tap on it must not replace the new card again.
        if (!(await orders.claimNotice(id, "requote"))) {
          await answerTap(ctx, ctx.t(words.expiredAgain), true);
          return;
        }
        await answerTap(ctx, ctx.t(words.refused("expired")));
        await closeCard(ctx, words.closeExpired && ctx.t(words.closeExpired));
        await requote(ctx, action);
        return;
      }
      if (confirmed.reason === "already" && action?.state === "confirmed" && words.code) {
        await answerTap(ctx, ctx.t(words.code.awaited));
        return;
      }
      await answerTap(ctx, ctx.t(words.refused(confirmed.reason)), true);
      if (confirmed.reason === "replaced")
        await closeCard(ctx, words.closeReplaced && ctx.t(words.closeReplaced));
      if (confirmed.reason === "cancelled")
        await closeCard(ctx, words.closeCancelled && ctx.t(words.closeCancelled));
      return;
    }
    const action = confirmed.action;
    const words = ORDER_WORDS[action.kind];
    if (orders.needsCode(action)) {
      await answerTap(ctx);
      await closeCard(ctx);
      await ctx.conversation.exitAll();
      await ctx.conversation.enter(CODE_FLOW, action.id);
      return;
    }
    await answerTap(ctx, words.placingTap && ctx.t(words.placingTap));
    await closeCard(ctx, words.closePlacing && ctx.t(words.closePlacing));
    await tellOutcome(ctx, await orders.place(id, userId));
  }

  /** A Confirm on a card past its TTL: the same order, quoted again at today's numbers. */
  async function requote(ctx: BotContext, old: MoneyAction): Promise<void> {
    const outcome = await orders.requote(old);
    const locale = await ctx.i18n.getLocale();
    if (!outcome.ok) {
      await ctx.reply(refusalText(ctx.t, outcome.refusal, locale));
      return;
    }
    await ctx.reply(ctx.t(ORDER_WORDS[old.kind].requoted));
    const card = cardMessage(ctx.t, outcome.action, locale);
    await ctx.reply(card.text, card.other);
  }

  return composer;
}

/** Tells the user how a placed (or refused) order ended, in its kind's sentences. */
async function tellOutcome(ctx: BotContext | FlowContext, result: PlaceResult): Promise<void> {
  const kind = result.action?.kind ?? "buy";
  const words = ORDER_WORDS[kind];
  const parseMode = cardParseMode(kind);
  const options = parseMode ? { parse_mode: parseMode } : {};
  const locale = await ctx.i18n.getLocale();
  switch (result.kind) {
    case "placed":
      await ctx.reply(ctx.t(words.placed, outcomeVars(ctx.t, result.action, locale)), options);
      return;
    case "unknown":
      await ctx.reply(ctx.t(words.unknown, outcomeVars(ctx.t, result.action, locale)), options);
      return;
    case "failed":
      if (result.loginNeeded) {
        await ctx.reply(ctx.t(words.loginNeeded), { reply_markup: loginKeyboard(ctx.t) });
        return;
      }
      await ctx.reply(
        ctx.t(words.failed, { reason: parseMode ? escapeHtml(result.reason) : result.reason }),
        options,
      );
      return;
    case "code-rejected":
    case "refused":
      await ctx.reply(ctx.t(words.sentAlready));
      return;
  }
}

/** The fresh-code step of a confirmed send or withdrawal; its one argument is the action id. */
function codeStep(deps: OrderDeps) {
  const { orders } = deps;
  return async function orderCode(conversation: Flow, ctx: FlowContext, id: string): Promise<void> {
    const userId = flowUserId(ctx);
    const action = await externalCall(conversation, () => orders.get(id));
    const code = action === undefined ? undefined : ORDER_WORDS[action.kind].code;
    if (action?.state !== "confirmed" || code === undefined) return;
    const words = ORDER_WORDS[action.kind];
    const cancelTap = new RegExp(`^ord:x:${id}$`);
    await ctx.reply(ctx.t(code.ask));
    for (let tries = 1; ; ) {
      // The card's Cancel is taken here; its Confirm (a double tap, a redelivered update) goes on to
      // the card handler, which says from the store that the code is awaited.
      const answer = await waitAnswer(conversation, {
        taps: cancelTap,
        passOn: CARD_CALLBACK,
        hint: code.format,
      });
      if (answer.kind === "tap") {
        const cancelled = await externalCall(conversation, async () => (await orders.cancel(id, userId)).ok);
        await ctx.reply(ctx.t(cancelled ? words.cancelled : words.sentAlready));
        return;
      }
      // The code is a secret for its 30 seconds: its message goes before anything else happens.
      await answer.ctx.deleteMessage();
      const typed = answer.text.replace(/\s/g, "");
      if (!CODE.test(typed)) {
        await ctx.reply(ctx.t(code.format));
        continue;
      }
      const now = await externalCall(conversation, async () => deps.clock.now());
      if (now - (action.confirmedAt ?? action.createdAt) > CODE_DEADLINE_MS) {
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(ctx.t(code.late));
        return;
      }
      await ctx.reply(ctx.t(code.sending));
      const result = await externalCall(conversation, () => orders.place(id, userId, typed));
      if (result.kind !== "code-rejected") {
        await tellOutcome(ctx, result);
        return;
      }
      if (tries >= MAX_CODE_TRIES) {
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(ctx.t(code.tooMany));
        return;
      }
      tries++;
      await ctx.reply(ctx.t(code.wrong, { left: MAX_CODE_TRIES - tries + 1 }));
    }
  };
}

// ── Reconciliation from the bot's side ────────────────────────────────────────────────────────

/**
 * "When the user comes back": after each private update, at most once a minute per user (a store
 * claim, so across instances too), reconcile the user's open orders and tell them the news.
 * Cheap when there is nothing open: one claim and one key listing.
 */
export function orderWatch(deps: Pick<BotDeps, "orders" | "store">): MiddlewareFn<PrivateContext> {
  // A memo in front of the store claim: the claim is a write, and most updates come from users
  // this instance has just checked (measured: the claim cost more than the rest of a /help).
  const checkedAt = new Map<number, number>();
  return async (ctx, next) => {
    await next();
    const userId = ctx.from.id;
    const now = performance.now();
    if (now - (checkedAt.get(userId) ?? Number.NEGATIVE_INFINITY) < WATCH_INTERVAL_MS) return;
    checkedAt.set(userId, now);
    if (checkedAt.size > 100_000) checkedAt.clear();
    if (!(await deps.store.setIfAbsent(`order-watch:${userId}`, 1, WATCH_INTERVAL_MS))) return;
    const notices = await deps.orders.reconcileUser(userId);
    const locale = await ctx.i18n.getLocale();
    for (const notice of notices) {
      await ctx.api.sendMessage(userId, orderNoticeText(ctx.t, notice, locale));
    }
  };
}
