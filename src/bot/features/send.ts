/**
 * /send: crypto to an outside address.
 *
 *   currency (buttons from the price list, or typed; `/send btc` skips the question)
 *   → recipient address: a saved one's button first (/addresses), or typed (cleaned of spaces and
 *     `bitcoin:…?amount=` wrappers, format and checksum checked for that currency:
 *     src/domain/crypto-address.ts); a typed address that is not saved is offered for saving (label,
 *     fresh code, cooling-off: flows/save-address.ts). With the allowlist on (src/safety/) the
 *     flow ends there (one still cooling off is refused at the quote with its time); with it off,
 *     the send goes on, saved or sent once
 *   → amount in the crypto (money.ts's parseAmount)
 *   → the money pipeline's quote (orders/kinds/send.ts) and its card; the flow ends there.
 *
 * The card's Confirm, the fresh 2FA code and the POST are the pipeline's, the same for every kind
 * (features/orders.ts). Bad input anywhere gets a sentence saying what is wrong and the flow stays
 * at its step.
 */

import { InlineKeyboard } from "grammy";
import { checkAddress, cleanAddress, paymentLinkExample } from "../../domain/crypto-address.ts";
import { kindOf } from "../../orders/kinds/index.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { moneyFlowEntry } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { askAmountAndQuote } from "../flows/order-amount.ts";
import { saveAddressSteps } from "../flows/save-address.ts";
import { exchangeCurrencies, sessionCall } from "../flows/session-call.ts";
import { flowUserId } from "../flows/user.ts";
import { flowButtons, type WaitOptions, waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { type CurrencyChoice, currencyKeyboard } from "../ui/currency-choice.ts";
import {
  addressRefusal,
  cryptoCurrencyRefusal as currencyRefusal,
  pickCryptoCurrency as pickCurrency,
} from "../ui/send-input.ts";
import { userText } from "../ui/user-text.ts";

export const SEND_FLOW = kindOf("send").flow;
const BUTTONS = FLOW_BUTTONS.send;

type SendDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "orders" | "safety">;

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
    const run: SendRun = { conversation, ctx, deps, own, step, currencies };

    const code = await askCurrency(run, typed);
    const to = await askAddress(run, code);
    if (to === undefined) return;

    // ── Amount, quote, card ──
    await askAmountAndQuote(conversation, ctx, deps, {
      question: ctx.t("send-ask-amount", { code: code.toUpperCase(), address: to }),
      again: ctx.t("send-ask-amount-again"),
      unit: code,
      wait: step,
      request: (amount) => ({ kind: "send", currency: code, address: to, amount }),
      // An address still cooling off, or not saved: another amount does not help.
      final: (refusal) =>
        refusal.reason === "closed" ||
        refusal.reason === "address-cooling" ||
        refusal.reason === "address-unsaved",
    });
  };
}

/** What the send flow's steps share: its buttons' data start (`own`), how it waits, the currencies. */
interface SendRun {
  conversation: Flow;
  ctx: FlowContext;
  deps: SendDeps;
  own: string;
  step: WaitOptions;
  currencies: readonly CurrencyChoice[];
}

/** The currency to send (typed with the command, tapped or typed), one whose sending is open. */
async function askCurrency(run: SendRun, typed: string): Promise<string> {
  const { conversation, ctx, deps, own, step, currencies } = run;
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
  return currency;
}

/**
 * The address: a saved one's button, or typed and checked (then offered for saving). Undefined when
 * the flow ends here (an address saved under the allowlist waits out its cooling-off).
 */
async function askAddress(run: SendRun, code: string): Promise<string | undefined> {
  const { conversation, ctx, deps, own, step, currencies } = run;
  const known = currencies.map((c) => c.code);
  const userId = flowUserId(ctx);
  const saved = await externalCall(conversation, () => deps.safety.addresses.list(userId, code));
  const allowlistOn = await externalCall(
    conversation,
    async () => (await deps.safety.allowlist.get(userId)).on,
  );
  if (saved.length > 0) {
    const keyboard = new InlineKeyboard();
    for (const entry of saved)
      keyboard.text(userText(entry.label), own + BUTTONS.actions.saved(entry.id)).row();
    await ctx.reply(ctx.t("send-ask-address-saved", { code: code.toUpperCase() }), {
      reply_markup: keyboard,
    });
  } else {
    // A payment link's example in the currency's own scheme: "bitcoin:…" under ETH misleads.
    const example = paymentLinkExample(code) ?? "none";
    await ctx.reply(ctx.t("send-ask-address", { code: code.toUpperCase(), example }));
  }
  let address: string | undefined;
  /** A typed address that is not saved, offered for saving. */
  let unsaved: string | undefined;
  while (address === undefined) {
    const answer = await waitAnswer(conversation, step);
    if (answer.kind === "tap") {
      if (unsaved !== undefined && answer.data === own + BUTTONS.actions.save()) {
        const kept = await saveAddressSteps(conversation, ctx, deps, { currency: code, address: unsaved });
        // With the allowlist on, the new address waits out its cooling-off: the flow ends here.
        if (allowlistOn || !kept) return undefined;
        address = unsaved;
      } else if (unsaved !== undefined && !allowlistOn && answer.data === own + BUTTONS.actions.once()) {
        address = unsaved;
      } else {
        address = saved.find((entry) => own + BUTTONS.actions.saved(entry.id) === answer.data)?.address;
      }
      continue;
    }
    const checked = await checkAddress(cleanAddress(answer.text), code, known);
    if (!checked.ok) {
      await answer.ctx.reply(addressRefusal(ctx.t, checked, code.toUpperCase()));
      continue;
    }
    if (saved.some((entry) => entry.address === checked.address)) {
      address = checked.address;
      continue;
    }
    // Not saved: it can be saved here. With the allowlist on, money goes only to saved addresses.
    unsaved = checked.address;
    const keyboard = new InlineKeyboard().text(
      ctx.t("send-button-save-address"),
      own + BUTTONS.actions.save(),
    );
    if (!allowlistOn) keyboard.row().text(ctx.t("send-button-send-once"), own + BUTTONS.actions.once());
    await answer.ctx.reply(
      ctx.t(allowlistOn ? "send-address-not-saved" : "send-address-not-saved-off", {
        code: code.toUpperCase(),
      }),
      { reply_markup: keyboard },
    );
  }
  return address;
}
