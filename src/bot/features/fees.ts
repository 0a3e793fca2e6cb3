/**
 * /fees: what a buy, sell or send of a given amount would cost (GET v1/fees/{type}, plus
 * v1/fees/miner-fee and v1/limits/minimum/send for a send).
 *
 *   /fees buy 100          buying for 100 €
 *   /fees buy 0.01 btc     buying 0.01 BTC (converted to euros at the current rate: an estimate)
 *   /fees sell 0.01 btc    selling 0.01 BTC (the same estimate); `/fees sell 100 eur` needs none
 *   /fees send btc         exchange fee, miner fee and minimum for sending BTC (an amount is optional)
 *
 * The exchange computes buy and sell fees from an amount in euros, so an
 * amount given in a crypto is converted with GET v1/exchange-rates first, and the reply says the
 * result is an estimate. Without arguments, or with some missing, a short flow asks for the rest:
 * buttons for the type and the currency, and the same choices accepted as typed text.
 * What the user typed is read by ui/fee-input.ts (amounts only by money.ts's parseAmount), the
 * answer worded by ui/fee-text.ts.
 */

import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { decimalsFor } from "../../domain/money.ts";
import type { Refusal } from "../../domain/translate.ts";
import type { AccountSession } from "../../exchange/account.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import { waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { type FlowSpec, QUESTION_TIMEOUT_MS } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { choicesOf } from "../ui/currency-choice.ts";
import {
  type FeeRequest,
  isKnown,
  mergeTap,
  mergeText,
  nextStep,
  type Ready,
  typeWords,
} from "../ui/fee-input.ts";
import { askKeyboard, askText, type FeeQuote, quoteText } from "../ui/fee-text.ts";

export const FEES_FLOW = "fees";
/** Wrong answers before the flow gives up (a command or /cancel ends it at any time). */
const MAX_WRONG_ANSWERS = 5;

/** The `FEES_FLOW` conversation, installed by bot.ts. */
export function feesConversation(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">): FlowSpec {
  return { id: FEES_FLOW, steps: feesFlow(deps), timeoutMs: QUESTION_TIMEOUT_MS };
}

export function feesFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("fees", requireLogin(deps), async (ctx) => {
    const typed = ctx.match.trim();
    if (typed === "") return enterFlow(ctx, FEES_FLOW, {});
    const words = typeWords(ctx.t);
    const locale = await ctx.i18n.getLocale();
    type Outcome =
      | { kind: "missing"; request: FeeRequest }
      | { kind: "refused"; refusal: Refusal }
      | { kind: "quote"; quote: FeeQuote };
    const outcome = await deps.sessions.use(ctx.from.id, async (client): Promise<Outcome> => {
      const currencies = choicesOf(await client.prices());
      const merged = mergeText({}, typed, currencies, words);
      if ("refusal" in merged) return { kind: "refused", refusal: merged.refusal };
      const step = nextStep(merged.request, locale);
      if (step.kind === "refused") return { kind: "refused", refusal: step.refusal };
      if (step.kind === "ask") return { kind: "missing", request: step.request };
      return { kind: "quote", quote: await quote(client, step.ready) };
    });
    if (outcome.kind === "missing") return enterFlow(ctx, FEES_FLOW, outcome.request);
    if (outcome.kind === "refused") {
      await ctx.reply(ctx.t(outcome.refusal.key, outcome.refusal.vars));
      return;
    }
    await ctx.reply(quoteText(ctx.t, outcome.quote, await ctx.i18n.getLocale()));
  });

  // A type or currency button from a flow that is no longer running: start again from that choice.
  composer.callbackQuery(CALLBACK.feesPick.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const tapped = CALLBACK.feesPick.read(ctx);
    const request: FeeRequest = { type: tapped.type };
    if (tapped.code !== undefined) request.currency = tapped.code;
    await enterFlow(ctx, FEES_FLOW, request);
  });
  return composer;
}

function feesFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">) {
  return async function fees(conversation: Flow, ctx: FlowContext, initial: FeeRequest = {}): Promise<void> {
    const currencies = await exchangeCurrencies(conversation, ctx, deps);
    let request: FeeRequest = { ...initial };
    if (request.currency !== undefined && !isKnown(request.currency, currencies)) delete request.currency;
    let current: FlowContext = ctx;
    for (let wrong = 0; wrong < MAX_WRONG_ANSWERS; ) {
      const step = nextStep(request, await current.i18n.getLocale());
      if (step.kind === "ready") {
        const ready = step.ready;
        const result = await sessionCall(conversation, ctx, deps, (client) => quote(client, ready));
        await current.reply(quoteText(current.t, result, await current.i18n.getLocale()));
        return;
      }
      if (step.kind === "refused") {
        await current.reply(current.t(step.refusal.key, step.refusal.vars));
        request = step.request;
        wrong++;
        continue;
      }
      const locale = await current.i18n.getLocale();
      await current.reply(askText(current.t, step, locale), {
        reply_markup: askKeyboard(current.t, step, currencies),
      });
      // A read-only question: another command ends it and runs.
      const answer = await waitAnswer(conversation, {
        taps: CALLBACK.feesPick.pattern,
        commands: "step-aside",
      });
      current = answer.ctx;
      if (answer.kind === "tap") {
        request = mergeTap(request, answer.data, currencies);
        continue;
      }
      const merged = mergeText(request, answer.text, currencies, typeWords(current.t));
      // Asked for buy, sell or send, and none of them came: say so, whatever else was typed.
      if (step.ask === "type" && ("refusal" in merged || merged.request.type === undefined)) {
        await current.reply(current.t("fees-type-unknown"));
        if (!("refusal" in merged)) request = merged.request;
        wrong++;
        continue;
      }
      if ("refusal" in merged) {
        await current.reply(current.t(merged.refusal.key, merged.refusal.vars));
        wrong++;
        continue;
      }
      request = merged.request;
    }
  };
}

// ── Asking the exchange ─────────────────────────────────────────────────────────────────────────

/** The fee of a complete request; a crypto amount of a buy or sell is converted to euros first. */
export async function quote(client: AccountSession, ready: Ready): Promise<FeeQuote> {
  if (ready.type === "send") {
    const [fee, minerFee, minimum] = await Promise.all([
      client.fee("send", { currencyCode: ready.currency }),
      client.minerFee(ready.currency),
      client.minimum("send", ready.currency),
    ]);
    const result: FeeQuote = {
      type: "send",
      currency: ready.currency,
      fee: fee.toFixed(),
      minerFee: minerFee.toFixed(),
      minimum: minimum.toFixed(),
    };
    if (ready.amount !== undefined) result.amount = ready.amount;
    return result;
  }
  const amount = new Big(ready.amount);
  if (ready.unit === EUR) {
    const fee = await client.fee(ready.type, { amount });
    return { type: ready.type, unit: EUR, amount: ready.amount, eur: ready.amount, fee: fee.toFixed() };
  }
  const rate = (await client.exchangeRate(`${ready.unit}${EUR}`)).price;
  // The exchange takes cents; a crumb below one cent is asked about as one cent.
  const converted = amount.times(rate).round(decimalsFor(EUR), Big.roundHalfUp);
  const eur = converted.lt("0.01") ? new Big("0.01") : converted;
  const fee = await client.fee(ready.type, { amount: eur, currencyCode: ready.unit });
  return {
    type: ready.type,
    unit: ready.unit,
    amount: ready.amount,
    eur: eur.toFixed(),
    fee: fee.toFixed(),
    rate: rate.toFixed(),
  };
}
