/**
 * The quote card's buttons, for every kind of money action (buy, sell, send, withdraw), answered
 * OUTSIDE any conversation, from the store (the money pipeline, src/orders/pipeline.ts): a tap
 * after the flow ended, after a restart, twice, or on another instance is answered the same way,
 * and one Confirm is one order (SECURITY.md, rules 4, 5, 8).
 *
 * - Confirm: claimed once in the ledger. A buy or sell goes out at once; a send or withdrawal
 *   hands over to the fresh-code step below. A card past its TTL is quoted again (once) instead;
 *   a card replaced by a newer quote, cancelled or already used is refused, to the tapper only.
 * - Cancel: cancels the quote (or, during the code step, the confirmed action) in the ledger.
 * - Typed instead of tapped (the labels in the user's language), outside a flow: the same decision
 *   on the user's newest card still quoted, of any kind.
 *
 * The fresh-code step (`order-code`, a conversation): the user types the current 6-digit code; its
 * message is deleted before anything else; the order goes out only with it (rule 9), once; a code
 * the exchange refuses is asked again, three times at most; past the deadline the action is
 * cancelled; /cancel there leaves it never sent; a second Confirm tap says the code is awaited.
 * A partner withdrawal takes the same step with the user's PIN instead (checked by the pipeline):
 * a wrong PIN is asked again, five wrong lock withdrawals for 15 minutes, said with the time.
 *
 * Partner mode has no exchange login: its cards are confirmed without one, behind the KYC gate
 * (bot/partner-features.ts), and the PIN step asks the gate's question again before sending.
 *
 * Also here: `orderWatch`, the "user came back" reconciliation check.
 */
import { createConversation } from "@grammyjs/conversations";
import type { Composer, MiddlewareFn } from "grammy";
import { type MoneyAction, PARTNER_KINDS } from "../../orders/ledger.ts";
import type { PlaceResult } from "../../orders/place.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { flowPhrase } from "../flows/phishing.ts";
import { flowUserId } from "../flows/user.ts";
import { waitAnswer } from "../flows/wait.ts";
import { clientLocale } from "../i18n.ts";
import { kycStanding } from "../middleware/partner-gate.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { escapeHtml, formatTime } from "../ui/format.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import {
  cardMessage,
  cardParseMode,
  ORDER_WORDS,
  outcomeVars,
  refusalText,
  typedCardVerb,
} from "../ui/order-card.ts";
import { withPhishingLine } from "../ui/phishing.ts";
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

type OrderDeps = Pick<BotDeps, "orders" | "sessions" | "phishing" | "clock" | "partner" | "profiles">;

export function ordersFeature(deps: OrderDeps, flows: Composer<PrivateContext>): Feature<PrivateContext> {
  const { orders } = deps;
  const composer = new Feature<PrivateContext>();
  flows.use(
    createConversation(codeStep(deps), { id: CODE_FLOW, maxMillisecondsToWait: CODE_FLOW_TIMEOUT_MS }),
  );

  composer.callbackQuery(CALLBACK.order.pattern, async (ctx, next) => {
    const verb = ctx.match[1];
    const id = ctx.match[2] as string;
    if (verb === "e") return next(); // Change amount: the kind's own feature asks again.
    await decide(ctx, verb === "c" ? "c" : "x", id, tapAnswers(ctx));
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
    const action = await orders.latestQuoted(ctx.from.id);
    if (action === undefined) {
      await ctx.reply(ctx.t("order-typed-none"));
      return;
    }
    await decide(ctx, verb, action.id, typedAnswers(ctx));
  });

  /** Confirm or Cancel of action `id`, however it came: exactly once, expiry and ownership by the ledger. */
  async function decide(ctx: PrivateContext, verb: "c" | "x", id: string, answers: Answers): Promise<void> {
    if (verb === "c") {
      // Partner mode has no exchange login; the KYC gate stood in front of this decision instead.
      if (deps.partner !== undefined) return onConfirm(ctx, id, answers);
      // Checked before the Confirm is claimed: a tap without a session must not use the quote up.
      await requireLogin(deps)(ctx, () => onConfirm(ctx, id, answers));
      return;
    }
    const result = await orders.cancel(id, ctx.from.id);
    const action = result.action;
    if (
      action === undefined ||
      (!result.ok && (result.reason === "not-yours" || result.reason === "unknown"))
    ) {
      const words = ORDER_WORDS[action?.kind ?? "buy"];
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

  async function onConfirm(ctx: PrivateContext, id: string, answers: Answers): Promise<void> {
    const userId = ctx.from.id;
    const confirmed = await orders.confirm(id, userId);
    // Confirmed: the order's outcome is told later, by a notice that has no update to read it from.
    if (confirmed.ok) await deps.profiles.rememberAppLocale(userId, clientLocale(ctx.from.language_code));
    if (!confirmed.ok) {
      const action = confirmed.action;
      const words = ORDER_WORDS[action?.kind ?? "buy"];
      if (confirmed.reason === "expired" && action !== undefined) {
        // One re-quote per stale card: a second tap on it must not replace the new card again.
        if (!(await orders.claimNotice(id, "requote"))) {
          await answers.answer(ctx.t(words.expiredAgain), true);
          return;
        }
        await answers.answer(ctx.t(words.refused("expired")));
        await answers.close(words.closeExpired && ctx.t(words.closeExpired));
        await requote(ctx, action);
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
    if (orders.needsCode(action)) {
      await answers.answer();
      await answers.close();
      await enterFlow(ctx, CODE_FLOW, action.id);
      return;
    }
    await answers.answer(words.placingTap && ctx.t(words.placingTap));
    await answers.close(words.closePlacing && ctx.t(words.closePlacing));
    const result = await orders.place(id, userId);
    await tellOutcome(ctx, result, await deps.phishing.get(userId));
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
    const card = cardMessage(ctx.t, outcome.action, locale, await deps.phishing.get(old.userId));
    await ctx.reply(card.text, card.other);
  }

  return composer;
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

/**
 * Tells the user how a placed (or refused) order ended, in its kind's sentences. An outcome of a
 * money action carries the user's anti-phishing phrase (`phrase`), like its card.
 */
async function tellOutcome(
  ctx: BotContext | FlowContext,
  result: PlaceResult,
  phrase: string | undefined,
): Promise<void> {
  const kind = result.action?.kind ?? "buy";
  const words = ORDER_WORDS[kind];
  const parseMode = cardParseMode(kind);
  const options = parseMode ? { parse_mode: parseMode } : {};
  const locale = await ctx.i18n.getLocale();
  const signed = (text: string) => withPhishingLine(ctx.t, phrase, text, { html: parseMode === "HTML" });
  switch (result.kind) {
    case "placed":
      await ctx.reply(signed(ctx.t(words.placed, outcomeVars(ctx.t, result.action, locale))), options);
      return;
    case "unknown":
      await ctx.reply(signed(ctx.t(words.unknown, outcomeVars(ctx.t, result.action, locale))), options);
      return;
    case "failed":
      if (result.loginNeeded) {
        await ctx.reply(
          ctx.t(words.loginNeeded),
          words.loginButton ? { reply_markup: loginKeyboard(ctx.t) } : {},
        );
        return;
      }
      await ctx.reply(
        signed(ctx.t(words.failed, { reason: parseMode ? escapeHtml(result.reason) : result.reason })),
        options,
      );
      return;
    case "code-rejected":
    case "pin-refused":
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
    const locale = await ctx.i18n.getLocale();
    // It asks for a secret: it carries the user's anti-phishing phrase, like every such question.
    const phrase = await flowPhrase(conversation, ctx, deps);
    const ask = (text: string) => ctx.reply(withPhishingLine(ctx.t, phrase, text));
    // Locked by earlier wrong PINs: said at once, with the time, instead of asking for a PIN.
    const lockedUntil = await externalCall(conversation, () => orders.pinLockedUntil(userId));
    if (lockedUntil !== undefined) {
      await externalCall(conversation, () => orders.cancel(id, userId));
      await ctx.reply(ctx.t(code.tooMany, { time: formatTime(lockedUntil, locale) }));
      return;
    }
    await ask(ctx.t(code.ask));
    for (let tries = 1; ; ) {
      // The card's Cancel is taken here; its Confirm (a double tap, a redelivered update) goes on to
      // the card handler, which says from the store that the code is awaited.
      const answer = await waitAnswer(conversation, {
        taps: cancelTap,
        passOn: CALLBACK.order.pattern,
        hint: code.format,
      });
      // The code is a secret for its 30 seconds: its message goes before anything else happens.
      if (answer.kind === "text") await answer.ctx.deleteMessage();
      // The card's Cancel, tapped or typed.
      if (answer.kind === "tap" || typedCardVerb(ctx.t, answer.text) === "x") {
        const cancelled = await externalCall(conversation, async () => (await orders.cancel(id, userId)).ok);
        await ctx.reply(ctx.t(cancelled ? words.cancelled : words.sentAlready));
        return;
      }
      const typed = answer.text.replace(/\s/g, "");
      if (typedCardVerb(ctx.t, answer.text) === "c") {
        await ctx.reply(ctx.t(code.awaited));
        continue;
      }
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
      // KYC may have changed since the gated Confirm: the exchange must still serve this user.
      const partner = deps.partner;
      if (partner !== undefined && PARTNER_KINDS.has(action.kind)) {
        const standing = await externalCall(conversation, () => kycStanding(partner, userId, ctx.t));
        if (!standing.serve) {
          await externalCall(conversation, () => orders.cancel(id, userId));
          await ctx.reply(standing.text);
          return;
        }
      }
      await ctx.reply(ctx.t(code.sending));
      const result = await externalCall(conversation, () => orders.place(id, userId, typed));
      if (result.kind === "pin-refused") {
        const check = result.check;
        if (check.reason === "wrong") {
          await ask(ctx.t(code.wrong, { left: check.left }));
          continue;
        }
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(
          check.reason === "locked"
            ? ctx.t(code.tooMany, { time: formatTime(check.until, locale) })
            : ctx.t("partner-pin-not-set"),
        );
        return;
      }
      if (result.kind !== "code-rejected") {
        await tellOutcome(ctx, result, phrase);
        return;
      }
      if (tries >= MAX_CODE_TRIES) {
        await externalCall(conversation, () => orders.cancel(id, userId));
        await ctx.reply(ctx.t(code.tooMany));
        return;
      }
      tries++;
      await ask(ctx.t(code.wrong, { left: MAX_CODE_TRIES - tries + 1 }));
    }
  };
}

// ── Reconciliation from the bot's side ────────────────────────────────────────────────────────

/**
 * "When the user comes back": after each private update, at most once a minute per user (a store
 * claim, so across instances too), reconcile the user's open orders and tell them the news.
 * Cheap when there is nothing open (nearly always): one read of the user's open-orders flag (kept
 * in memory with SQLite), no write.
 */
export function orderWatch(
  deps: Pick<BotDeps, "orders" | "store" | "phishing">,
): MiddlewareFn<PrivateContext> {
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
    // Asked before the claim: the claim is a write (and a key kept for a minute) per user.
    if (!(await deps.orders.hasOpen(userId))) return;
    if (!(await deps.store.setIfAbsent(`order-watch:${userId}`, 1, WATCH_INTERVAL_MS))) return;
    const notices = await deps.orders.reconcileUser(userId);
    if (notices.length === 0) return;
    const locale = await ctx.i18n.getLocale();
    const phrase = await deps.phishing.get(userId);
    for (const notice of notices) {
      await ctx.api.sendMessage(userId, orderNoticeText(ctx.t, notice, locale, phrase));
    }
  };
}
