/**
 * /send: crypto to an outside address.
 *
 *   currency (buttons from the price list, or typed; `/send btc` skips the question)
 *   → recipient address (cleaned of spaces and `bitcoin:…?amount=` wrappers, format and checksum
 *     checked for that currency: src/crypto-address.ts)
 *   → amount in the crypto (money.ts's parseAmount)
 *   → the money pipeline's quote (orders/kinds/send.ts) and its card; the flow ends there.
 *
 * The card's Confirm, the fresh 2FA code and the POST are the pipeline's, the same for every kind
 * (features/orders.ts). Bad input anywhere gets a sentence saying what is wrong and the flow stays
 * at its step.
 */

import { type AddressCheck, checkAddress, cleanAddress } from "../../crypto-address.ts";
import { EURO_WORDS } from "../../currency.ts";
import type { Translate } from "../../translate.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { moneyFlowEntry } from "../flows/enter.ts";
import { askAmountAndQuote } from "../flows/order-amount.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import { flowButtons, waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { type CurrencyChoice, currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";

export const SEND_FLOW = "send";
const BUTTONS = FLOW_BUTTONS.send;
const FLOW_TIMEOUT_MS = 15 * 60_000;

type SendDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "orders">;

/** The `SEND_FLOW` conversation, installed by bot.ts. */
export function sendConversation(deps: SendDeps): FlowSpec {
  return { id: SEND_FLOW, steps: sendFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function sendFeature(deps: SendDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command(
    "send",
    requireLogin(deps),
    moneyFlowEntry(SEND_FLOW, (ctx) => [ctx.match.trim().slice(0, 32)]),
  );
  // A button of a /send that is over: it orders nothing.
  composer.callbackQuery(BUTTONS.pattern, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("send-button-stale") });
  });
  return composer;
}

function sendFlow(deps: SendDeps) {
  return async function send(conversation: Flow, ctx: FlowContext, typed = ""): Promise<void> {
    const { own, wait: step } = await flowButtons(
      conversation,
      BUTTONS,
      "send-button-stale",
      CALLBACK.order.pattern,
    );
    const currencies = await exchangeCurrencies(conversation, ctx, deps);

    // ── Currency ──
    let currency: string | undefined;
    let candidate = typed === "" ? undefined : pickCurrency(typed, currencies);
    if (typed !== "" && candidate === undefined) await ctx.reply(currencyRefusal(ctx.t, typed, currencies));
    while (currency === undefined) {
      if (candidate === undefined) {
        await ctx.reply(ctx.t("send-ask-currency"), {
          reply_markup: currencyKeyboard(currencies, (code) => own + BUTTONS.actions.currency(code)),
        });
        const answer = await waitAnswer(conversation, step);
        candidate =
          answer.kind === "tap"
            ? currencies.find((c) => own + BUTTONS.actions.currency(c.code) === answer.data)?.code
            : pickCurrency(answer.text, currencies);
        if (candidate === undefined) {
          if (answer.kind === "text") await answer.ctx.reply(currencyRefusal(ctx.t, answer.text, currencies));
          continue;
        }
      }
      const chosen = candidate;
      candidate = undefined;
      const open = await sessionCall(conversation, ctx, deps, (client) => client.assetStatus("send", chosen));
      if (!open) {
        await ctx.reply(ctx.t("send-refused-closed", { code: chosen.toUpperCase() }));
        continue;
      }
      currency = chosen;
    }
    const code = currency;
    const known = currencies.map((c) => c.code);

    // ── Address ──
    await ctx.reply(ctx.t("send-ask-address", { code: code.toUpperCase() }));
    let address: string | undefined;
    while (address === undefined) {
      const answer = await waitAnswer(conversation, step);
      if (answer.kind === "tap") continue;
      const checked = await checkAddress(cleanAddress(answer.text), code, known);
      if (checked.ok) {
        address = checked.address;
        break;
      }
      await answer.ctx.reply(addressRefusal(ctx.t, checked, code.toUpperCase()));
    }
    const to = address;

    // ── Amount, quote, card ──
    await askAmountAndQuote(conversation, ctx, deps, {
      question: ctx.t("send-ask-amount", { code: code.toUpperCase(), address: to }),
      again: ctx.t("send-ask-amount-again"),
      unit: code,
      wait: step,
      request: (amount) => ({ kind: "send", currency: code, address: to, amount }),
      final: (refusal) => refusal.reason === "closed",
    });
  };
}

function addressRefusal(t: Translate, checked: Exclude<AddressCheck, { ok: true }>, code: string): string {
  switch (checked.reason) {
    case "empty":
      return t("send-address-empty", { code });
    case "too-long":
      return t("send-address-too-long", { code });
    case "invalid":
      return t("send-address-invalid", { code });
    case "other-currency":
      return t("send-address-other-currency", { code, other: checked.other.toUpperCase() });
  }
}

function pickCurrency(text: string, currencies: readonly CurrencyChoice[]): string | undefined {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return undefined;
  return resolveCurrency(text, currencies)?.code;
}

function currencyRefusal(t: Translate, text: string, currencies: readonly CurrencyChoice[]): string {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return t("send-eur");
  return t("send-unknown-currency", { input: text.slice(0, 32), codes: knownCodes(currencies) });
}
