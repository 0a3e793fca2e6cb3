/**
 * /addresses: the user's saved crypto addresses (src/safety/saved-addresses.ts), a label each, per
 * currency, with when each becomes usable. /send offers them as buttons first; with the allowlist
 * on (/safety), a send goes only to one of them past its cooling-off.
 *
 *   /addresses            the list, with ➕ Add and a 🗑 button per address
 *   /addresses add [btc]  currency → address (checked for the currency: src/domain/crypto-address.ts)
 *                         → label → fresh 2FA code → saved, cooling off (flows/save-address.ts)
 *
 * Removing needs no code: it only narrows where money may go.
 */
import { InlineKeyboard } from "grammy";
import { checkAddress, cleanAddress } from "../../domain/crypto-address.ts";
import type { Translate } from "../../domain/translate.ts";
import type { SavedAddress } from "../../safety/saved-addresses.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { moneyFlowEntry } from "../flows/enter.ts";
import { inMoneyFlow } from "../flows/money-flows.ts";
import { type SaveAddressDeps, saveAddressSteps } from "../flows/save-address.ts";
import { exchangeCurrencies } from "../flows/session-call.ts";
import { flowButtons, waitAnswer } from "../flows/wait.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { sameLabel } from "../ui/amount.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { currencyKeyboard } from "../ui/currency-choice.ts";
import { editInPlace } from "../ui/edit.ts";
import { escapeHtml, formatMoment } from "../ui/format.ts";
import { addressRefusal, cryptoCurrencyRefusal, pickCryptoCurrency } from "../ui/send-input.ts";
import { userText } from "../ui/user-text.ts";

export const ADDRESSES_ADD_FLOW = "addresses-add";
const BUTTONS = FLOW_BUTTONS.addresses;
const STALE_KEY = "addresses-button-stale";

type AddressesDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "safety" | "clock">;

/** The list's text and buttons. */
function addressesView(
  t: Translate,
  saved: readonly SavedAddress[],
  on: boolean,
  now: number,
  locale: string,
): { text: string; keyboard: InlineKeyboard } {
  const keyboard = new InlineKeyboard().text(t("addresses-button-add"), CALLBACK.addressesAdd.data()).row();
  const lines = [t("addresses-title"), ""];
  if (saved.length === 0) lines.push(t("addresses-none"));
  for (const entry of saved) {
    const vars = {
      label: escapeHtml(userText(entry.label)),
      code: entry.currency.toUpperCase(),
      address: escapeHtml(entry.address),
      time: formatMoment(entry.usableAt, locale),
    };
    lines.push(t(entry.usableAt > now ? "addresses-entry-cooling" : "addresses-entry", vars));
    keyboard
      .text(
        t("addresses-button-remove", { label: userText(entry.label), code: vars.code }),
        CALLBACK.addressRemove.data(entry.id),
      )
      .row();
  }
  lines.push("", t(on ? "addresses-allowlist-on" : "addresses-allowlist-off"));
  return { text: lines.join("\n"), keyboard };
}

/** The `ADDRESSES_ADD_FLOW` conversation, installed by bot.ts. */
export function addressesAddConversation(deps: SaveAddressDeps): FlowSpec {
  return { id: ADDRESSES_ADD_FLOW, steps: addFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function addressesFeature(deps: AddressesDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function view(ctx: PrivateContext) {
    const userId = ctx.from.id;
    const [saved, allowlist] = await Promise.all([
      deps.safety.addresses.list(userId),
      deps.safety.allowlist.get(userId),
    ]);
    return addressesView(ctx.t, saved, allowlist.on, deps.clock.now(), await ctx.i18n.getLocale());
  }

  composer.command("addresses", requireLogin(deps), async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    const [word, code] = ctx.match.trim().split(/\s+/);
    if (
      word !== undefined &&
      word !== "" &&
      (word.toLowerCase() === "add" || sameLabel(word, ctx.t("addresses-button-add")))
    ) {
      return moneyFlowEntry<PrivateContext>(ADDRESSES_ADD_FLOW, () => [(code ?? "").slice(0, 32)])(ctx, next);
    }
    const { text, keyboard } = await view(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });
  composer.callbackQuery(
    CALLBACK.addressesAdd.data(),
    requireLogin(deps),
    moneyFlowEntry(ADDRESSES_ADD_FLOW),
  );
  composer.callbackQuery(CALLBACK.addressRemove.pattern, async (ctx) => {
    const removed = await deps.safety.addresses.remove(ctx.from.id, CALLBACK.addressRemove.read(ctx).id);
    await ctx.answerCallbackQuery({ text: ctx.t(removed ? "addresses-removed" : "addresses-gone") });
    const { text, keyboard } = await view(ctx);
    await editInPlace(ctx, text, keyboard);
  });
  // A button of an add flow that is over.
  composer.callbackQuery(BUTTONS.pattern, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t(STALE_KEY) });
  });
  return composer;
}

function addFlow(deps: SaveAddressDeps) {
  return async function addAddress(conversation: Flow, ctx: FlowContext, typed = ""): Promise<void> {
    const { own, wait } = await flowButtons(conversation, BUTTONS, STALE_KEY);
    const currencies = await exchangeCurrencies(conversation, ctx, deps);
    let currency = typed === "" ? undefined : pickCryptoCurrency(typed, currencies);
    if (typed !== "" && currency === undefined)
      await ctx.reply(cryptoCurrencyRefusal(ctx.t, typed, currencies));
    if (currency === undefined) {
      await ctx.reply(ctx.t("addresses-ask-currency"), {
        reply_markup: currencyKeyboard(currencies, (code) => own + BUTTONS.actions.currency(code)),
      });
    }
    while (currency === undefined) {
      const answer = await waitAnswer(conversation, wait);
      currency =
        answer.kind === "tap"
          ? currencies.find((c) => own + BUTTONS.actions.currency(c.code) === answer.data)?.code
          : pickCryptoCurrency(answer.text, currencies);
      if (currency === undefined && answer.kind === "text") {
        await answer.ctx.reply(cryptoCurrencyRefusal(ctx.t, answer.text, currencies));
      }
    }
    const code = currency;
    const known = currencies.map((c) => c.code);
    await ctx.reply(ctx.t("addresses-ask-address", { code: code.toUpperCase() }));
    for (;;) {
      const answer = await waitAnswer(conversation, wait);
      if (answer.kind === "tap") continue;
      const checked = await checkAddress(cleanAddress(answer.text), code, known);
      if (checked.ok) {
        await saveAddressSteps(conversation, ctx, deps, { currency: code, address: checked.address });
        return;
      }
      await answer.ctx.reply(addressRefusal(ctx.t, checked, code.toUpperCase()));
    }
  };
}
