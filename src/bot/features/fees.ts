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
 * Amounts are read only by money.ts's parseAmount.
 */

import { createConversation } from "@grammyjs/conversations";
import Big from "big.js";
import { type Composer, InlineKeyboard } from "grammy";
import { EUR, EURO_WORDS } from "../../currency.ts";
import type { AccountSession } from "../../exchange/account.ts";
import type { FeeType } from "../../exchange/schemas.ts";
import { decimalsFor, formatAmount, formatNumber, parseAmount } from "../../money.ts";
import type { Refusal, Translate } from "../../translate.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import { waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { AMOUNT_ERROR_KEYS } from "../ui/amount.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import {
  type CurrencyChoice,
  choicesOf,
  currencyKeyboard,
  knownCodes,
  resolveCurrency,
} from "../ui/currency-choice.ts";
import { formatPrice } from "../ui/price-format.ts";

export const FEES_FLOW = "fees";
/** `fees:pick:sell` or `fees:pick:sell:btc`: a type, and with it a currency. */
const FEE_TYPES: readonly FeeType[] = ["buy", "sell", "send"];
const FEE_BUTTON_KEYS: Record<FeeType, string> = {
  buy: "fees-button-buy",
  sell: "fees-button-sell",
  send: "fees-button-send",
};
/** Wrong answers before the flow gives up (a command or /cancel ends it at any time). */
const MAX_WRONG_ANSWERS = 5;
const FLOW_TIMEOUT_MS = 10 * 60_000;

/** What is known so far; JSON-safe, it is a conversation argument. `currency` is a code or "eur". */
export interface FeeRequest {
  type?: FeeType;
  currency?: string;
  /** As typed: parsed with parseAmount once its currency is known. */
  amount?: string;
}

/** A sentence key and its variables: why input was refused. */
type Ready =
  | { type: "buy" | "sell"; unit: string; amount: string }
  | { type: "send"; currency: string; amount?: string };

export type Step =
  | { kind: "ask"; ask: "type" | "currency" | "amount"; request: FeeRequest }
  | { kind: "refused"; refusal: Refusal; request: FeeRequest }
  | { kind: "ready"; ready: Ready };

/** The answer, JSON-safe: decimals as strings. */
export type FeeQuote =
  | { type: "buy" | "sell"; unit: string; amount: string; eur: string; fee: string; rate?: string }
  | { type: "send"; currency: string; fee: string; minerFee: string; minimum: string; amount?: string };

export function feesFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
  flows: Composer<PrivateContext>,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  // Registered before the handlers below: entering needs it, and a running flow sees taps first.
  flows.use(createConversation(feesFlow(deps), { id: FEES_FLOW, maxMillisecondsToWait: FLOW_TIMEOUT_MS }));

  composer.command("fees", requireLogin(deps), async (ctx) => {
    const typed = ctx.match.trim();
    if (typed === "") return enterFlow(ctx, FEES_FLOW, {});
    const words = typeWords(ctx.t);
    type Outcome =
      | { kind: "missing"; request: FeeRequest }
      | { kind: "refused"; refusal: Refusal }
      | { kind: "quote"; quote: FeeQuote };
    const outcome = await deps.sessions.use(ctx.from.id, async (client): Promise<Outcome> => {
      const currencies = choicesOf(await client.prices());
      const merged = mergeText({}, typed, currencies, words);
      if ("refusal" in merged) return { kind: "refused", refusal: merged.refusal };
      const step = nextStep(merged.request);
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
    const request: FeeRequest = { type: ctx.match[1] as FeeType };
    if (ctx.match[2] !== undefined) request.currency = ctx.match[2];
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
      const step = nextStep(request);
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

// ── Reading what the user typed ─────────────────────────────────────────────────────────────────

/** The words that name a type: `buy`, `sell`, `send`, and the button labels in the user's language. */
export function typeWords(t: Translate): Map<string, FeeType> {
  const words = new Map<string, FeeType>();
  for (const type of FEE_TYPES) {
    words.set(type, type);
    words.set(letters(t(FEE_BUTTON_KEYS[type])), type);
  }
  return words;
}

function letters(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}]/gu, "");
}

/**
 * Splits `sell 0.01 btc` (in any order) into a type, an amount and a currency, and merges them into
 * what was known. Tokens with a digit or a sign are the amount (checked later by parseAmount, so
 * `1e5`, `-3` and `1,000.50` are refused with their own sentence); the other words name the type or
 * the currency.
 */
export function mergeText(
  request: FeeRequest,
  text: string,
  currencies: readonly CurrencyChoice[],
  words: ReadonlyMap<string, FeeType>,
): { request: FeeRequest } | { refusal: Refusal } {
  const next: FeeRequest = { ...request };
  const amountParts: string[] = [];
  const nameParts: string[] = [];
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const type = words.get(letters(raw));
    if (type !== undefined && /^\p{L}+$/u.test(raw)) {
      next.type = type;
      continue;
    }
    // `100€`, `€100`, `100eur`: an amount with its currency attached.
    const attached = /^€(.+)$/.exec(raw) ?? /^(.*\d)(?:€|eur)$/i.exec(raw);
    if (attached?.[1] !== undefined) {
      amountParts.push(attached[1]);
      nameParts.push(EUR);
    } else if (/\d/.test(raw) || /^[+\-−.,]/.test(raw)) {
      amountParts.push(raw);
    } else {
      nameParts.push(raw);
    }
  }
  if (nameParts.length > 0) {
    const name = nameParts.join(" ");
    const code = EURO_WORDS.has(name.toLowerCase()) ? EUR : resolveCurrency(name, currencies)?.code;
    if (code === undefined) {
      return {
        refusal: {
          key: "fees-unknown-currency",
          vars: { input: name.slice(0, 32), codes: knownCodes(currencies) },
        },
      };
    }
    next.currency = code;
  }
  if (amountParts.length > 0) next.amount = amountParts.join(" ");
  return { request: next };
}

function mergeTap(request: FeeRequest, data: string, currencies: readonly CurrencyChoice[]): FeeRequest {
  const match = CALLBACK.feesPick.pattern.exec(data);
  if (!match) return request;
  const next: FeeRequest = { ...request, type: match[1] as FeeType };
  const code = match[2];
  if (code !== undefined && isKnown(code, currencies)) next.currency = code;
  return next;
}

function isKnown(code: string, currencies: readonly CurrencyChoice[]): boolean {
  return code === EUR || currencies.some((c) => c.code === code);
}

/** What to do with what is known: ask for the next missing piece, refuse a bad one, or quote. */
export function nextStep(request: FeeRequest): Step {
  const ask = (what: "type" | "currency" | "amount"): Step => ({ kind: "ask", ask: what, request });
  const { type, currency, amount } = request;
  if (type === undefined) return ask("type");
  if (type === "send") {
    if (currency === EUR) {
      const { currency: _, ...rest } = request;
      return { kind: "refused", refusal: { key: "fees-send-eur" }, request: rest };
    }
    if (currency === undefined) return ask("currency");
    if (amount === undefined) return { kind: "ready", ready: { type, currency } };
    const parsed = checkAmount(request, currency);
    return "refused" in parsed
      ? parsed.refused
      : { kind: "ready", ready: { type, currency, amount: parsed.value } };
  }
  if (type === "sell" && currency === undefined) return ask("currency");
  if (amount === undefined) return ask("amount");
  const unit = currency ?? EUR;
  const parsed = checkAmount(request, unit);
  return "refused" in parsed
    ? parsed.refused
    : { kind: "ready", ready: { type, unit, amount: parsed.value } };
}

function checkAmount(request: FeeRequest, unit: string): { value: string } | { refused: Step } {
  const parsed = parseAmount(request.amount ?? "", unit);
  if (parsed.ok) return { value: parsed.value.toFixed() };
  const { amount: _, ...rest } = request;
  return {
    refused: {
      kind: "refused",
      refusal: { key: AMOUNT_ERROR_KEYS[parsed.reason], vars: { decimals: parsed.maxDecimals } },
      request: rest,
    },
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

// ── Telling the user ────────────────────────────────────────────────────────────────────────────

export function quoteText(t: Translate, result: FeeQuote, locale: string): string {
  if (result.type === "send") {
    const code = result.currency;
    const fee = new Big(result.fee);
    const minerFee = new Big(result.minerFee);
    const minimum = new Big(result.minimum);
    const total = fee.plus(minerFee);
    const lines = [
      t("fees-send-title", { code: code.toUpperCase() }),
      "",
      t("fees-send-fee", { fee: formatAmount(fee, code, locale) }),
      t("fees-send-miner-fee", { fee: formatAmount(minerFee, code, locale) }),
      t("fees-send-total", { fee: formatAmount(total, code, locale) }),
      t("fees-send-minimum", { minimum: formatAmount(minimum, code, locale) }),
    ];
    if (result.amount !== undefined) {
      const amount = new Big(result.amount);
      lines.push("");
      lines.push(
        amount.lt(minimum)
          ? t("fees-send-below-minimum", {
              amount: formatAmount(amount, code, locale),
              minimum: formatAmount(minimum, code, locale),
            })
          : t("fees-send-amount", {
              amount: formatAmount(amount, code, locale),
              fee: formatAmount(total, code, locale),
            }),
      );
    }
    return lines.join("\n");
  }
  const eur = new Big(result.eur);
  const fee = new Big(result.fee);
  const eurText = formatAmount(eur, EUR, locale);
  const lines = [
    t(result.type === "buy" ? "fees-buy-title" : "fees-sell-title"),
    "",
    result.rate === undefined
      ? t("fees-amount", { amount: eurText })
      : t("fees-amount-converted", {
          amount: formatAmount(new Big(result.amount), result.unit, locale),
          eur: eurText,
        }),
    t("fees-fee", {
      fee: formatAmount(fee, EUR, locale),
      percent: formatNumber(eur.gt(0) ? fee.div(eur).times(100) : new Big(0), locale, 2),
    }),
  ];
  if (result.rate !== undefined) {
    lines.push("");
    lines.push(
      t("fees-estimate", {
        rate: formatPrice(new Big(result.rate), locale),
        code: result.unit.toUpperCase(),
      }),
    );
  }
  return lines.join("\n");
}

function askText(t: Translate, step: Extract<Step, { kind: "ask" }>, locale: string): string {
  const { type, currency } = step.request;
  if (step.ask === "type") return t("fees-usage");
  if (step.ask === "currency")
    return t(type === "send" ? "fees-ask-currency-send" : "fees-ask-currency-sell");
  if (type === "buy" && currency === undefined) return t("fees-ask-amount-buy");
  const unit = currency ?? EUR;
  const example = unit === EUR ? "100" : formatNumber(new Big("0.01"), locale);
  return t("fees-ask-amount", { code: unit.toUpperCase(), example });
}

function askKeyboard(
  t: Translate,
  step: Extract<Step, { kind: "ask" }>,
  currencies: readonly CurrencyChoice[],
): InlineKeyboard | undefined {
  if (step.ask === "type") return typeKeyboard(t);
  const type = step.request.type;
  if (step.ask === "currency" && type !== undefined)
    return currencyKeyboard(currencies, (code) => CALLBACK.feesPick.data(type, code));
  return undefined;
}

export function typeKeyboard(t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const type of FEE_TYPES) keyboard.text(t(FEE_BUTTON_KEYS[type]), CALLBACK.feesPick.data(type));
  return keyboard;
}
