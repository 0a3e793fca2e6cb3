/**
 * /recurring (both modes): recurring buys. With no words, the user's plans with their next run and
 * buttons to pause or resume, skip the next run once, or stop; with words (plan-input.ts), a new
 * plan: the user's time zone asked once (flows/time-zone.ts), then a card with Confirm. The plan
 * exists only after that Confirm (claimed once: the card's id becomes the plan's).
 *
 * Partner mode runs the plans by itself (plans/runner.ts, from the jobs; this feature sits behind
 * the KYC gate); account mode only reminds, with a one-tap quote (nothing is ordered without the
 * card's Confirm). Both are said on the card.
 */

import { pairOf } from "../../orders/kinds/partner-trade.ts";
import { newActionId } from "../../orders/ledger.ts";
import { decimalField, recordsOf, rowForPair } from "../../orders/partner-read.ts";
import type { PlanTerms } from "../../plans/book.ts";
import { nextRun } from "../../plans/schedule.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { flowTimeZone } from "../flows/time-zone.ts";
import { flowUserId } from "../flows/user.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { answerTap, closeCard } from "../ui/edit.ts";
import { PLAN_INPUT_ERRORS, readPlanInput } from "../ui/plan-input.ts";
import { planButtons, planCardKeyboard, planCardText, planLine, planTitle } from "../ui/plan-text.ts";

export const RECURRING_FLOW = "recurring";
const FLOW_TIMEOUT_MS = 15 * 60_000;

type RecurringDeps = Pick<BotDeps, "plans" | "profiles" | "clock" | "market" | "partner" | "log">;

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
      await listPlans(ctx);
      return;
    }
    await enterFlow(ctx, RECURRING_FLOW, { text: typed });
  });

  async function listPlans(ctx: PrivateContext): Promise<void> {
    const locale = await ctx.i18n.getLocale();
    const live = (await plans.list(ctx.from.id)).filter((p) => p.state === "active" || p.state === "paused");
    if (live.length === 0) {
      await ctx.reply(ctx.t("recurring-empty", { max: plans.settings.maxPlans }));
      return;
    }
    await ctx.reply(ctx.t("recurring-list-title", { count: live.length, max: plans.settings.maxPlans }));
    for (const plan of live) {
      await ctx.reply(planLine(ctx.t, plan, plans.dueAt(plan), locale), {
        reply_markup: planButtons(ctx.t, plan),
      });
    }
  }

  composer.callbackQuery(CALLBACK.plan.pattern, async (ctx) => {
    const verb = ctx.match[1];
    const id = ctx.match[2] ?? "";
    const userId = ctx.from.id;
    const locale = await ctx.i18n.getLocale();
    if (verb === "c" || verb === "x") {
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
        await answerTap(
          ctx,
          ctx.t(made?.userId === userId ? "recurring-already" : "recurring-card-gone"),
          true,
        );
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
      return;
    }
    const plan = await plans.get(id);
    if (plan === undefined || plan.userId !== userId) {
      await answerTap(ctx, ctx.t("recurring-card-gone"), true);
      return;
    }
    const changed =
      verb === "p"
        ? await plans.setState(id, userId, plan.state === "paused" ? "active" : "paused")
        : verb === "s"
          ? await plans.toggleSkip(id, userId)
          : await plans.setState(id, userId, "cancelled");
    if (changed === undefined) {
      await answerTap(ctx, ctx.t("recurring-card-gone"), true);
      return;
    }
    const said =
      verb === "k"
        ? "recurring-stopped"
        : verb === "p"
          ? changed.state === "paused"
            ? "recurring-paused"
            : "recurring-resumed"
          : changed.skipDate === undefined
            ? "recurring-unskipped"
            : "recurring-skipped-next";
    await answerTap(ctx, ctx.t(said));
    const text = planLine(ctx.t, changed, plans.dueAt(changed), locale);
    try {
      await ctx.editMessageText(text, { reply_markup: planButtons(ctx.t, changed) });
    } catch {
      await ctx.reply(text, { reply_markup: planButtons(ctx.t, changed) });
    }
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
    const read = readPlanInput(start.text, await ctx.i18n.getLocale());
    if (!read.ok) {
      await ctx.reply(ctx.t(PLAN_INPUT_ERRORS[read.error]));
      if (read.error !== "usage") await ctx.reply(ctx.t("recurring-bad-usage"));
      return;
    }
    const { input } = read;
    const known = await externalCall(conversation, () => currencyOffered(deps, input.currency));
    if (!known) {
      await ctx.reply(ctx.t("recurring-bad-currency", { code: input.currency.toUpperCase() }));
      return;
    }
    const zone = await flowTimeZone(conversation, ctx, deps);
    if (zone === undefined) return;
    const locale = await ctx.i18n.getLocale();
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

/** Whether the exchange offers this currency for EUR (partner: its rate; account: the price list). */
async function currencyOffered(deps: RecurringDeps, code: string): Promise<boolean> {
  try {
    if (deps.partner) {
      const pair = pairOf(code);
      const rows = recordsOf(await deps.partner.api.exchangeRates({ pair }));
      const rate = decimalField(rowForPair(rows, pair, code), ["price", "rate", "value"]);
      return rate?.gt(0) === true;
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
