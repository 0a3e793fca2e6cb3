/**
 * /recurring (both modes): recurring buys. With no words, the user's plans with their next run and
 * buttons to pause or resume, skip the next run once, or stop, and a "New plan" button that asks
 * for a plan step by step (flows/plan-steps.ts); with words (plan-input.ts), a new plan at once.
 * Either way the same reading of the words, the user's time zone asked once (flows/time-zone.ts),
 * then a card with Confirm. The plan exists only after that Confirm (claimed once: the card's id
 * becomes the plan's).
 *
 * Partner mode runs the plans by itself (plans/runner.ts, from the jobs; this feature sits behind
 * the KYC gate); account mode only reminds, with a one-tap quote (nothing is ordered without the
 * card's Confirm). Both are said on the card.
 */

import Big from "big.js";
import { type CallbackQueryContext, InlineKeyboard } from "grammy";
import { EUR } from "../../domain/currency.ts";
import { formatAmount } from "../../domain/money.ts";
import { localTime } from "../../domain/time-zone.ts";
import type { AccountSession } from "../../exchange/account.ts";
import { pairOf, partnerTradeMinimum } from "../../orders/kinds/partner-trade.ts";
import { newActionId } from "../../orders/ledger.ts";
import type { PlanTerms } from "../../plans/book.ts";
import { dateText, nextRun } from "../../plans/schedule.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { partnerCurrencies } from "../flows/partner-currencies.ts";
import { guidePlan } from "../flows/plan-steps.ts";
import { flowTimeZone } from "../flows/time-zone.ts";
import { flowUserId } from "../flows/user.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK, type PlanVerb } from "../ui/callback-data.ts";
import type { CurrencyChoice } from "../ui/currency-choice.ts";
import { endDateExample } from "../ui/date-input.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { formatDate } from "../ui/format.ts";
import { PLAN_INPUT_ERRORS, readPlanInput } from "../ui/plan-input.ts";
import {
  localWhen,
  planButtons,
  planCardKeyboard,
  planCardText,
  planLine,
  planStopQuestion,
  planTitle,
} from "../ui/plan-text.ts";

export const RECURRING_FLOW = "recurring";

type RecurringDeps = Pick<
  BotDeps,
  "plans" | "profiles" | "clock" | "market" | "partner" | "log" | "sessions"
>;

/** The `RECURRING_FLOW` conversation (a new plan's time zone and card), installed by bot.ts. */
export function recurringConversation(deps: RecurringDeps): FlowSpec {
  return { id: RECURRING_FLOW, steps: recurringFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function recurringFeature(deps: RecurringDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  const { plans } = deps;

  composer.command("recurring", async (ctx) => {
    if (plans.settings.maxPlans === 0) {
      await ctx.reply(ctx.t("recurring-off"));
      return;
    }
    const typed = ctx.match.trim();
    if (typed === "") {
      await listPlans(deps, ctx);
      return;
    }
    await enterFlow(ctx, RECURRING_FLOW, { text: typed });
  });

  // The list's "New plan": the plan asked step by step.
  composer.callbackQuery(CALLBACK.planNew.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    if (plans.settings.maxPlans === 0) {
      await ctx.reply(ctx.t("recurring-off"));
      return;
    }
    await enterFlow(ctx, RECURRING_FLOW, { text: "" });
  });

  composer.callbackQuery(CALLBACK.plan.pattern, async (ctx) => {
    await onPlanTap(deps, ctx);
  });

  return composer;
}

function recurringFlow(deps: RecurringDeps) {
  return async function recurring(
    conversation: Flow,
    ctx: FlowContext,
    start: { text: string },
  ): Promise<void> {
    const userId = flowUserId(ctx);
    // Without words: the plan asked step by step, read as the same words typed.
    const text =
      start.text === ""
        ? await guidePlan(conversation, ctx, {
            currencies: await externalCall(conversation, () => planCurrencies(deps)),
            minimum: (code) => externalCall(conversation, () => buyMinimum(deps, userId, code)),
            // Asked before the hour, so the hour is asked (and named) in the zone it runs in.
            zone: async () => (await flowTimeZone(conversation, ctx, deps)) ?? "UTC",
          })
        : start.text;
    const read = readPlanInput(text, await ctx.i18n.getLocale());
    if (!read.ok) {
      // The example end date in the user's own date format (recurring-bad-end, -usage).
      const date = endDateExample(await conversation.now(), await ctx.i18n.getLocale());
      await ctx.reply(ctx.t(PLAN_INPUT_ERRORS[read.error], { date }));
      if (read.error !== "usage") await ctx.reply(ctx.t("recurring-bad-usage", { date }));
      return;
    }
    const { input } = read;
    const known = await externalCall(conversation, () => currencyOffered(deps, input.currency));
    if (!known) {
      await ctx.reply(ctx.t("recurring-bad-currency", { code: input.currency.toUpperCase() }));
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const minimum = await externalCall(conversation, () => buyMinimum(deps, userId, input.currency));
    if (minimum !== undefined && new Big(input.amount).lt(minimum)) {
      const shown = formatAmount(new Big(minimum), EUR, locale);
      await ctx.reply(
        ctx.t("recurring-below-minimum", { code: input.currency.toUpperCase(), minimum: shown }),
      );
      return;
    }
    const zone = await flowTimeZone(conversation, ctx, deps);
    if (zone === undefined) return;
    const until = input.end !== undefined && "until" in input.end ? input.end.until : undefined;
    if (until !== undefined) {
      // A plan that would end before its first run is never one: said, not set up to do nothing.
      const { today, first } = await externalCall(conversation, async () => {
        const now = deps.clock.now();
        return { today: dateText(localTime(zone, now)), first: nextRun(input.schedule, zone, now) };
      });
      if (first.date > until) {
        const date = formatDate(until, locale);
        await ctx.reply(
          until < today
            ? ctx.t("recurring-end-past", { date })
            : ctx.t("recurring-end-before-first", { date, first: localWhen(first.at, zone, locale) }),
        );
        return;
      }
    }
    const terms: PlanTerms = { mode: deps.partner ? "partner" : "account", ...input, zone, locale };
    const { id, first } = await externalCall(conversation, async () => {
      const id = newActionId();
      await deps.plans.saveDraft(id, userId, terms);
      const next = nextRun(terms.schedule, zone, deps.clock.now());
      return { id, first: next.at + deps.plans.offsetOf(id) };
    });
    await ctx.reply(planCardText(ctx.t, terms, first, deps.plans.spreadMs / 60_000, locale), {
      reply_markup: planCardKeyboard(ctx.t, id),
    });
  };
}

/** The currencies a plan may buy, as buttons; none when no price source answers (then typed). */
async function planCurrencies(deps: RecurringDeps): Promise<CurrencyChoice[]> {
  try {
    if (deps.partner) return await partnerCurrencies(deps.partner.api);
    const snapshot = await deps.market.snapshot();
    return snapshot.prices.map((price) => ({ code: price.currency, name: price.name }));
  } catch (error) {
    deps.log.warn({ err: error }, "a plan's currencies could not be listed");
    return [];
  }
}

/**
 * The exchange's smallest buy of `code` in EUR, as its quote would read it: for the guided
 * amount's question and the refusal of a plan below it (partner: the partner's minimums; account:
 * v1/limits/minimum/buy with the user's session or, logged out, any live one, as the market feed
 * asks its prices). Undefined when it cannot be read now: the plan is not refused for that, and
 * each run's quote still refuses a buy below the minimum.
 */
async function buyMinimum(deps: RecurringDeps, userId: number, code: string): Promise<string | undefined> {
  try {
    if (deps.partner) return (await partnerTradeMinimum(deps.partner.api, "partner-buy", code))?.toFixed();
    const ask = (client: AccountSession) => client.minimum("buy", code).then((minimum) => minimum.toFixed());
    if ((await deps.sessions.status(userId)).state === "active") return await deps.sessions.use(userId, ask);
    // The minimum is the same for everyone: asked as the market feed asks its prices.
    return (await deps.sessions.useAnyLive(ask))?.value;
  } catch (error) {
    deps.log.warn({ err: error }, "a plan's minimum could not be read");
    return undefined;
  }
}

/** Whether the exchange offers this currency for EUR (partner: its rate; account: the price list). */
async function currencyOffered(deps: RecurringDeps, code: string): Promise<boolean> {
  try {
    if (deps.partner) {
      const pair = pairOf(code);
      const { asked } = await deps.partner.api.exchangeRates({ pair });
      return asked?.gt(0) === true;
    }
    const snapshot = await deps.market.snapshot();
    return snapshot.prices.some((price) => price.currency === code);
  } catch (error) {
    // No price source right now (account mode without MARKET_DATA_* and nobody logged in, or the
    // exchange down): the plan is not refused for that; its first quote says whether the currency trades.
    deps.log.warn({ err: error }, "a plan's currency could not be checked");
    return true;
  }
}

/** `/recurring` alone: the live plans, each with its buttons, and New plan while there is room. */
async function listPlans(deps: RecurringDeps, ctx: PrivateContext): Promise<void> {
  const { plans } = deps;
  const locale = await ctx.i18n.getLocale();
  const live = (await plans.list(ctx.from.id)).filter((p) => p.state === "active" || p.state === "paused");
  const newPlan = new InlineKeyboard().text(ctx.t("recurring-new-button"), CALLBACK.planNew.data());
  if (live.length === 0) {
    await ctx.reply(
      ctx.t("recurring-empty", {
        max: plans.settings.maxPlans,
        date: endDateExample(deps.clock.now(), locale),
      }),
      { reply_markup: newPlan },
    );
    return;
  }
  const max = plans.settings.maxPlans;
  await ctx.reply(
    ctx.t("recurring-list-title", { count: live.length, max }),
    live.length < max ? { reply_markup: newPlan } : {},
  );
  for (const plan of live) {
    await ctx.reply(planLine(ctx.t, plan, plans.dueAt(plan), locale), {
      reply_markup: planButtons(ctx.t, plan),
    });
  }
}

/** A plan's button: a new plan's card decided, or a live plan changed. */
async function onPlanTap(deps: RecurringDeps, ctx: CallbackQueryContext<PrivateContext>): Promise<void> {
  const { verb, id } = CALLBACK.plan.read(ctx);
  const locale = await ctx.i18n.getLocale();
  if (verb === "c" || verb === "x") await decideDraft(deps, ctx, { verb, id, locale });
  else await changePlan(deps, ctx, { verb, id, locale });
}

/** A new plan's card: Confirm creates the plan (once), Cancel drops the draft. */
async function decideDraft(
  deps: RecurringDeps,
  ctx: CallbackQueryContext<PrivateContext>,
  { verb, id, locale }: { verb: "c" | "x"; id: string; locale: string },
): Promise<void> {
  const { plans } = deps;
  const userId = ctx.from.id;
  const draft = await plans.draft(id);
  if (draft !== undefined && draft.userId !== userId) {
    await answerTap(ctx, ctx.t("recurring-not-yours"), true);
    return;
  }
  if (verb === "x") {
    await plans.dropDraft(id);
    await answerTap(ctx);
    await closeCard(ctx, ctx.t("recurring-card-cancelled"));
    return;
  }
  if (draft === undefined) {
    const made = await plans.get(id);
    await answerTap(ctx, ctx.t(made?.userId === userId ? "recurring-already" : "recurring-card-gone"), true);
    return;
  }
  const created = await plans.create({ ...draft.terms, id, userId });
  if (!created.ok) {
    await answerTap(
      ctx,
      ctx.t(created.reason === "limit" ? "recurring-limit" : "recurring-already", {
        max: plans.settings.maxPlans,
      }),
      true,
    );
    return;
  }
  await plans.dropDraft(id);
  await answerTap(ctx);
  await closeCard(ctx, ctx.t("recurring-created", { title: planTitle(ctx.t, created.plan, locale) }));
}

/** A live plan's buttons: pause, resume, skip, stop (asked first) or keep. */
async function changePlan(
  deps: RecurringDeps,
  ctx: CallbackQueryContext<PrivateContext>,
  { verb, id, locale }: { verb: Exclude<PlanVerb | "p", "c" | "x">; id: string; locale: string },
): Promise<void> {
  const { plans } = deps;
  const userId = ctx.from.id;
  const plan = await plans.get(id);
  if (plan === undefined || plan.userId !== userId) {
    await answerTap(ctx, ctx.t("recurring-card-gone"), true);
    return;
  }
  const shown = async (text: string, keyboard: InlineKeyboard) => {
    try {
      await ctx.editMessageText(text, { reply_markup: keyboard });
    } catch {
      await ctx.reply(text, { reply_markup: keyboard });
    }
  };
  if (plan.state !== "active" && plan.state !== "paused") {
    // An old button of a plan that is over: said so, and its buttons go; nothing is "resumed".
    await answerTap(ctx, ctx.t("recurring-not-live", { state: plan.state }), true);
    await closeCard(ctx);
    return;
  }
  if (verb === "k" || verb === "b") {
    await answerTap(ctx);
    if (verb === "k") {
      const question = planStopQuestion(ctx.t, plan, plans.dueAt(plan), locale);
      await shown(question.text, question.keyboard);
    } else {
      await shown(planLine(ctx.t, plan, plans.dueAt(plan), locale), planButtons(ctx.t, plan));
    }
    return;
  }
  // Pause and Resume say which they mean: an old Pause on a paused plan does not resume it.
  const wanted = verb === "a" ? "paused" : verb === "r" ? "active" : undefined;
  if (wanted !== undefined && plan.state === wanted) {
    await answerTap(
      ctx,
      ctx.t(wanted === "paused" ? "recurring-already-paused" : "recurring-already-running"),
    );
    await shown(planLine(ctx.t, plan, plans.dueAt(plan), locale), planButtons(ctx.t, plan));
    return;
  }
  const changed =
    wanted !== undefined
      ? await plans.setState(id, userId, wanted)
      : verb === "p"
        ? await plans.setState(id, userId, plan.state === "paused" ? "active" : "paused")
        : verb === "s"
          ? await plans.toggleSkip(id, userId)
          : await plans.setState(id, userId, "cancelled");
  if (changed === undefined) {
    await answerTap(ctx, ctx.t("recurring-card-gone"), true);
    return;
  }
  const said =
    verb === "y"
      ? "recurring-stopped"
      : verb === "p" || wanted !== undefined
        ? changed.state === "paused"
          ? "recurring-paused"
          : "recurring-resumed"
        : changed.skipDate === undefined
          ? "recurring-unskipped"
          : "recurring-skipped-next";
  await answerTap(ctx, ctx.t(said));
  await shown(planLine(ctx.t, changed, plans.dueAt(changed), locale), planButtons(ctx.t, changed));
}
