/**
 * The last steps of a money action that needs a fresh 2FA code (/send, /withdraw), inside a
 * conversation, on top of the order core (src/orders): the quote card's Confirm / Cancel, then the
 * code the user types, then `placeOrder`.
 *
 * - The card's buttons carry the ledger's action id (PRODUCT.md, rule 8): `<prefix>:c:<id>`
 *   Confirm, `<prefix>:x:<id>` Cancel. Confirm is claimed in the store (`Ledger.confirm`): a
 *   double tap, a redelivered update, a second device or another instance confirm once; a card
 *   older than the quote's TTL is quoted again instead of confirmed; a tap on an older card does
 *   nothing.
 * - After Confirm the user types a fresh 6-digit code. The message is deleted before anything else
 *   is done with it. The order goes out only with that code (rule 9: the bot never makes one), once
 *   (`placeOrder` records `sent` before the POST and never retries). The exchange refusing the code
 *   reopens the action (`code-rejected`): a new code is asked for, a few times.
 * - /cancel at the code step leaves the action `confirmed` and never sent; the card's Cancel there
 *   cancels it in the ledger (mutually exclusive with the POST).
 *
 * Every side effect goes through `conversation.external` and returns JSON-safe data.
 *
 * Sentences are `<keys>-…` of the feature (`send-…`, `withdraw-…`); see locales.
 */

import { type ConversationBuilder, createConversation } from "@grammyjs/conversations";
import Big from "big.js";
import { Composer, InlineKeyboard } from "grammy";
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../logger.ts";
import { formatAmount } from "../../money.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { Ledger } from "../../orders/ledger.ts";
import { type PlaceResult, placeOrder } from "../../orders/place.ts";
import type { Sessions } from "../../session/sessions.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { inMoneyFlow, sameLabel, type TextContext } from "./flow-input.ts";
import { externalCall } from "./flow-steps.ts";
import { escapeHtml, formatTime } from "./format.ts";
import { loginKeyboard } from "./keyboards.ts";

export interface OrderStepDeps {
  ledger: Ledger;
  sessions: Sessions;
  clock: Clock;
  log: Logger;
}

export interface OrderStepOptions {
  /** Callback data prefix of the feature's card (`snd`, `wd`). */
  prefix: string;
  /** Sentence key prefix (`send`, `withdraw`). */
  keys: string;
}

/** Wrong codes (refused by the exchange) before the action is cancelled. */
export const MAX_CODE_TRIES = 3;
/** How long after Confirm a code is still taken; later, the quote is made again. */
export const CODE_DEADLINE_MS = 5 * 60_000;
const CODE = /^\d{6}$/;

export const cardCallback = (prefix: string) => new RegExp(`^${prefix}:([cx]):([A-Za-z0-9_-]{12})$`);

export function cardKeyboard(t: FlowContext["t"], options: OrderStepOptions, id: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t(`${options.keys}-button-confirm`), `${options.prefix}:c:${id}`)
    .text(t(`${options.keys}-button-cancel`), `${options.prefix}:x:${id}`);
}

export type Decision =
  | { kind: "confirmed"; action: MoneyAction }
  /** The quote is past its TTL: make a new one (nothing was claimed). */
  | { kind: "requote" }
  /** Cancelled, or decided elsewhere: the flow ends (the user has been told). */
  | { kind: "done" };

type CardAnswer =
  | { kind: "text"; ctx: TextContext; text: string }
  | { kind: "tap"; ctx: FlowContext; verb: "c" | "x"; id: string };

function isPlainText(ctx: FlowContext): ctx is TextContext {
  return ctx.has("message:text") && !ctx.message.text.startsWith("/");
}

/** Waits for typed text or a tap on any card of this feature; the rest gets a hint. */
async function waitCard(conversation: Flow, options: OrderStepOptions): Promise<CardAnswer> {
  const pattern = cardCallback(options.prefix);
  const ctx = await conversation.waitUntil(
    (c) => isPlainText(c) || pattern.test(c.callbackQuery?.data ?? ""),
    {
      otherwise: async (c) => {
        if (c.callbackQuery) {
          const mine = c.callbackQuery.data?.startsWith(`${options.prefix}:`) ?? false;
          await c.answerCallbackQuery({
            text: c.t(mine ? `${options.keys}-button-stale` : "flow-hint-command"),
          });
          return;
        }
        const isCommand = c.message?.text?.startsWith("/") ?? false;
        await c.reply(c.t(isCommand ? "flow-hint-command" : "flow-hint-text"));
      },
    },
  );
  if (isPlainText(ctx)) return { kind: "text", ctx, text: ctx.message.text.trim() };
  const match = pattern.exec(ctx.callbackQuery?.data ?? "");
  return { kind: "tap", ctx, verb: match?.[1] === "x" ? "x" : "c", id: match?.[2] ?? "" };
}

/** The quote card is shown; waits for the user's Confirm or Cancel of `action`. */
export async function waitForDecision(
  conversation: Flow,
  ctx: FlowContext,
  deps: OrderStepDeps,
  options: OrderStepOptions,
  action: MoneyAction,
): Promise<Decision> {
  const userId = ctx.from?.id ?? 0;
  const k = options.keys;
  for (;;) {
    const answer = await waitCard(conversation, options);
    let verb: "c" | "x" | undefined;
    if (answer.kind === "tap") {
      if (answer.id !== action.id) {
        await answer.ctx.answerCallbackQuery({ text: ctx.t(`${k}-button-stale`) });
        continue;
      }
      await answer.ctx.answerCallbackQuery();
      verb = answer.verb;
    } else if (sameLabel(answer.text, ctx.t(`${k}-button-confirm`))) {
      verb = "c";
    } else if (sameLabel(answer.text, ctx.t(`${k}-button-cancel`))) {
      verb = "x";
    } else {
      await answer.ctx.reply(ctx.t(`${k}-card-hint`));
      continue;
    }
    if (verb === "x") {
      await externalCall(conversation, async () => {
        await deps.ledger.cancel(action.id, userId);
      });
      await ctx.reply(ctx.t(`${k}-cancelled`));
      return { kind: "done" };
    }
    const result = await externalCall(conversation, () => deps.ledger.confirm(action.id, userId));
    if (result.ok) return { kind: "confirmed", action: result.action };
    switch (result.reason) {
      case "expired":
        await ctx.reply(ctx.t(`${k}-quote-expired`));
        return { kind: "requote" };
      case "already":
        await ctx.reply(ctx.t(`${k}-already`));
        return { kind: "done" };
      case "cancelled":
        await ctx.reply(ctx.t(`${k}-cancelled`));
        return { kind: "done" };
      default:
        await ctx.reply(ctx.t(`${k}-replaced`));
        return { kind: "done" };
    }
  }
}

export type CodeOutcome =
  | PlaceResult
  /** Cancelled at the code step, too many wrong codes, or too late: nothing was sent. */
  | { kind: "not-sent"; why: "cancelled" | "too-many-codes" | "too-late" };

/**
 * Asks for a fresh code and places the confirmed action with it. Returns what happened; the user
 * has been told only about wrong codes and what was not sent, the caller words the rest.
 */
export async function askCodeAndPlace(
  conversation: Flow,
  ctx: FlowContext,
  deps: OrderStepDeps,
  options: OrderStepOptions,
  action: MoneyAction,
): Promise<CodeOutcome> {
  const userId = ctx.from?.id ?? 0;
  const k = options.keys;
  const pattern = cardCallback(options.prefix);
  await ctx.reply(ctx.t(`${k}-code-ask`));
  for (let tries = 1; ; ) {
    const answer = await conversation.waitUntil(
      (c) => isPlainText(c) || pattern.test(c.callbackQuery?.data ?? ""),
      {
        otherwise: async (c) => {
          if (c.callbackQuery) {
            await c.answerCallbackQuery({ text: c.t("flow-hint-command") });
            return;
          }
          const isCommand = c.message?.text?.startsWith("/") ?? false;
          await c.reply(c.t(isCommand ? "flow-hint-command" : `${k}-code-format`));
        },
      },
    );
    if (!isPlainText(answer)) {
      const match = pattern.exec(answer.callbackQuery?.data ?? "");
      if (match?.[2] === action.id && match[1] === "x") {
        await answer.answerCallbackQuery();
        const cancelled = await externalCall(
          conversation,
          async () => (await deps.ledger.cancel(action.id, userId)).ok,
        );
        await ctx.reply(ctx.t(cancelled ? `${k}-cancelled` : `${k}-sent-already`));
        return { kind: "not-sent", why: "cancelled" };
      }
      // A second tap on Confirm (double tap, redelivered update): confirmed once, the code is awaited.
      await answer.answerCallbackQuery({
        text: ctx.t(match?.[2] === action.id ? `${k}-code-awaited` : `${k}-button-stale`),
      });
      continue;
    }
    // The code is a secret for its 30 seconds: its message goes before anything else happens.
    await answer.deleteMessage();
    const code = answer.message.text.replace(/\s/g, "");
    if (!CODE.test(code)) {
      await ctx.reply(ctx.t(`${k}-code-format`));
      continue;
    }
    const now = await externalCall(conversation, async () => deps.clock.now());
    if (now - (action.confirmedAt ?? action.createdAt) > CODE_DEADLINE_MS) {
      await externalCall(conversation, async () => {
        await deps.ledger.cancel(action.id, userId);
      });
      await ctx.reply(ctx.t(`${k}-code-late`));
      return { kind: "not-sent", why: "too-late" };
    }
    await ctx.reply(ctx.t(`${k}-sending`));
    const result = await externalCall(conversation, () =>
      placeOrder({ ledger: deps.ledger, sessions: deps.sessions, log: deps.log }, action.id, userId, code),
    );
    if (result.kind !== "code-rejected") return result;
    if (tries >= MAX_CODE_TRIES) {
      await externalCall(conversation, async () => {
        await deps.ledger.cancel(action.id, userId);
      });
      await ctx.reply(ctx.t(`${k}-code-too-many`));
      return { kind: "not-sent", why: "too-many-codes" };
    }
    tries++;
    await ctx.reply(ctx.t(`${k}-code-wrong`, { left: MAX_CODE_TRIES - tries + 1 }));
  }
}

/**
 * Tells the user how a code-confirmed order ended, in the feature's own sentences
 * (`<keys>-placed`, `-failed`, `-login-needed`, `-unknown`, `-sent-already`); `placedVars` fills
 * the "placed" sentence.
 */
export async function tellCodeOutcome(
  ctx: FlowContext,
  options: OrderStepOptions,
  outcome: CodeOutcome,
  placedVars: (action: MoneyAction) => Record<string, string>,
): Promise<void> {
  const key = (name: string) => `${options.keys}-${name}`;
  switch (outcome.kind) {
    case "not-sent":
      return;
    case "placed":
      await ctx.reply(ctx.t(key("placed"), placedVars(outcome.action)), { parse_mode: "HTML" });
      return;
    case "failed":
      if (outcome.loginNeeded) {
        await ctx.reply(ctx.t(key("login-needed")), { reply_markup: loginKeyboard(ctx.t) });
        return;
      }
      await ctx.reply(ctx.t(key("failed"), { reason: escapeHtml(outcome.reason) }), { parse_mode: "HTML" });
      return;
    case "unknown":
      await ctx.reply(ctx.t(key("unknown")));
      return;
    case "code-rejected":
    case "refused":
      await ctx.reply(ctx.t(key("sent-already")));
      return;
  }
}

/**
 * The end of a send or withdrawal card: the limit left (today's or this month's, whichever binds),
 * the feature's warning, and until when the quote holds.
 */
export function cardFooter(
  t: (key: string, variables?: Record<string, string | number>) => string,
  options: OrderStepOptions,
  quote: { limitLeft?: string; limitPeriod?: string },
  expiresAt: number,
  locale: string,
): string[] {
  const lines: string[] = [];
  if (quote.limitLeft !== undefined) {
    const period = quote.limitPeriod === "month" ? "month" : "day";
    lines.push(
      t(`${options.keys}-card-limit-${period}`, {
        left: formatAmount(new Big(quote.limitLeft), "eur", locale),
      }),
    );
  }
  lines.push(
    "",
    t(`${options.keys}-card-check`),
    t(`${options.keys}-card-expires`, { time: formatTime(expiresAt, locale) }),
  );
  return lines;
}

/**
 * The feature around a code-confirmed money flow (/send, /withdraw): the conversation (installed
 * with the other flows), its command, and the answer to a button of a flow that is over, which
 * never orders anything.
 */
export function codeConfirmedFeature(
  deps: Pick<BotDeps, "sessions" | "store" | "clock" | "log">,
  flows: Composer<BotContext>,
  spec: {
    command: string;
    flowId: string;
    options: OrderStepOptions;
    /** Said when a button of a finished flow is tapped. */
    staleKey: string;
    timeoutMs: number;
    flow: (stepDeps: OrderStepDeps) => ConversationBuilder<BotContext, FlowContext>;
    /** What the command passes into the flow (e.g. `/send btc` → "btc"). */
    enterArgs?: (match: string) => unknown[];
  },
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const ledger = new Ledger(deps.store, deps.clock);
  const stepDeps: OrderStepDeps = { ledger, sessions: deps.sessions, clock: deps.clock, log: deps.log };
  flows.use(
    createConversation(spec.flow(stepDeps), { id: spec.flowId, maxMillisecondsToWait: spec.timeoutMs }),
  );
  composer.command(spec.command, requireLogin(deps), async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    await ctx.conversation.exitAll();
    await ctx.conversation.enter(spec.flowId, ...(spec.enterArgs?.(ctx.match) ?? []));
  });
  composer.callbackQuery(new RegExp(`^${spec.options.prefix}:`), async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t(spec.staleKey) });
  });
  return composer;
}
