/**
 * /alert and /alerts: price alerts, without a login (prices come from the market feed).
 *
 *   /alert btc above 60000     fires once when BTC reaches 60,000 € or more
 *   /alert eth below 2000      … 2,000 € or less
 *   /alert btc change 5%       … when the 24 h change is 5 % or more, up or down
 *   /alert                     usage
 *   /alerts                    the list, a 🗑 button per alert
 *
 * German words work too (`über`, `unter`, `änderung`). The remove button's data is `alert:rm:<id>` (`alert:rx:<id>` under a fired alert);
 * the id is looked up under the tapping user's own key, so a button acts only for its owner.
 * A user whose alerts were paused because they blocked the bot (403) is resumed by any update
 * from them (and by Telegram's my_chat_member update when they unblock it).
 */
import Big from "big.js";
import { InlineKeyboard, type MiddlewareFn } from "grammy";
import { type Alert, fires, parseAlertCommand } from "../../alerts/rules.ts";
import type { MarketSnapshot } from "../../market/types.ts";
import { formatChange } from "../../money.ts";
import type { Translate } from "../../translate.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../runtime/feature-router.ts";
import { describeAlert } from "../ui/alert-text.ts";
import { AMOUNT_ERROR_KEYS } from "../ui/amount.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { editInPlace } from "../ui/edit.ts";
import { formatPrice } from "../ui/price-format.ts";

function listText(
  t: Translate,
  alerts: readonly Alert[],
  disarmed: ReadonlySet<string>,
  locale: string,
  limit: number,
): string {
  if (alerts.length === 0) return t("alerts-empty");
  const lines = alerts.map((alert, i) => {
    const fired = disarmed.has(alert.id) ? ` ${t("alerts-fired-mark")}` : "";
    return `${i + 1}. ${describeAlert(t, alert, locale)}${fired}`;
  });
  return [t("alerts-title"), "", ...lines, "", t("alerts-hint", { limit })].join("\n");
}

function listKeyboard(t: Translate, alerts: readonly Alert[], locale: string): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const alert of alerts) {
    keyboard
      .text(
        t("alerts-remove-button", { alert: describeAlert(t, alert, locale) }),
        CALLBACK.alertRemove.data(alert.id),
      )
      .row();
  }
  return keyboard;
}

/**
 * Blocking the bot pauses the user's alerts; any sign of life from them (an unblock included)
 * resumes them. A plain middleware, not part of the feature: it looks at every update, and the
 * router runs the feature's commands only for its own commands and taps (bot/runtime/feature-router.ts).
 */
export function alertsPause(deps: Pick<BotDeps, "alertBook" | "clock">): MiddlewareFn<PrivateContext> {
  const book = deps.alertBook;
  return async (ctx, next) => {
    const member = ctx.myChatMember;
    if (member?.new_chat_member.status === "kicked") {
      await book.pause(ctx.from.id, deps.clock.now());
      return;
    }
    if (await book.isPaused(ctx.from.id)) await book.resume(ctx.from.id);
    // A change of the chat member (an unblock) has been answered by that.
    if (member === undefined) await next();
  };
}

export function alertsFeature(
  deps: Pick<BotDeps, "alertBook" | "market" | "clock" | "profiles">,
): Feature<PrivateContext> {
  const book = deps.alertBook;
  const composer = new Feature<PrivateContext>();

  async function showList(ctx: PrivateContext, mode: "reply" | "edit"): Promise<void> {
    const userId = ctx.from.id;
    const locale = await ctx.i18n.getLocale();
    const user = await book.loadUser(userId);
    const disarmed = new Set([...user.disarmed].map((key) => key.slice(`${userId}:`.length)));
    const text = listText(ctx.t, user.alerts, disarmed, locale, book.limit);
    const keyboard = listKeyboard(ctx.t, user.alerts, locale);
    if (mode === "edit") await editInPlace(ctx, text, keyboard);
    else await ctx.reply(text, { reply_markup: keyboard });
  }

  // `/alerts btc above 60000` (or `/alerts add …`) adds, as /alert does; `/alerts` alone lists.
  composer.command("alerts", async (ctx) => {
    const typed = ctx.match.trim().replace(/^(?:add|new|neu)\b\s*/i, "");
    if (typed === "") return showList(ctx, "reply");
    return addAlert(ctx, typed);
  });

  composer.command("alert", async (ctx) => {
    const typed = ctx.match.trim();
    if (typed === "") {
      await ctx.reply(ctx.t("alert-usage"));
      return;
    }
    await addAlert(ctx, typed);
  });

  async function addAlert(ctx: PrivateContext, typed: string): Promise<void> {
    const parsed = parseAlertCommand(typed, await ctx.i18n.getLocale());
    if (!parsed.ok) {
      if (parsed.reason === "amount") {
        await ctx.reply(ctx.t(AMOUNT_ERROR_KEYS[parsed.refusal], { decimals: parsed.maxDecimals }));
      } else if (parsed.reason === "change-too-large") {
        await ctx.reply(ctx.t("alert-change-too-large"));
      } else {
        await ctx.reply(ctx.t("alert-usage"));
      }
      return;
    }
    let snapshot: MarketSnapshot;
    try {
      snapshot = await deps.market.snapshot();
    } catch {
      await ctx.reply(ctx.t("alert-no-market"));
      return;
    }
    const choices = snapshot.prices.map((p) => ({ code: p.currency, name: p.name }));
    const currency = resolveCurrency(parsed.spec.currency, choices);
    if (!currency) {
      await ctx.reply(
        ctx.t("alert-unknown-currency", { input: parsed.spec.currency, codes: knownCodes(choices) }),
      );
      return;
    }
    const locale = await ctx.i18n.getLocale();
    const userId = ctx.from.id;
    const spec = { ...parsed.spec, currency: currency.code };
    const added = await book.add(userId, spec, deps.clock.now(), locale);
    if (!added.ok) {
      await ctx.reply(
        added.reason === "limit"
          ? ctx.t("alert-limit", { limit: added.limit })
          : ctx.t("alert-duplicate", { alert: describeAlert(ctx.t, added.alert, locale) }),
      );
      return;
    }
    const now = snapshot.prices.find((p) => p.currency === currency.code);
    const lines = [ctx.t("alert-added", { alert: describeAlert(ctx.t, spec, locale) })];
    if (now) {
      const price = new Big(now.price);
      const change = new Big(now.change24h || "0");
      lines.push(
        ctx.t("alert-now", { price: formatPrice(price, locale), change: formatChange(change, locale) }),
      );
      if (fires(spec, price, change)) lines.push(ctx.t("alert-already"));
    }
    lines.push(ctx.t("alert-added-hint"));
    if ((await deps.profiles.get(userId)).notifications.alerts === "off")
      lines.push(ctx.t("alert-notifications-off"));
    await ctx.reply(lines.join("\n"));
  }

  // The home card's Alerts: the list.
  composer.callbackQuery(CALLBACK.home.data("alerts"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showList(ctx, "reply");
  });

  // A fired alert's "Set another alert": the commands to type, with levels 5 % either side of now.
  composer.callbackQuery(CALLBACK.alertAnother.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const code = ctx.match[1] ?? "";
    const locale = await ctx.i18n.getLocale();
    const now = await deps.market.snapshot().then(
      (snapshot) => snapshot.prices.find((p) => p.currency === code),
      () => undefined,
    );
    if (now === undefined) {
      await ctx.reply(ctx.t("alert-usage"));
      return;
    }
    const price = new Big(now.price);
    // Whole euros above €10, cents below: a level one can type back.
    const places = price.gte(10) ? 0 : 2;
    await ctx.reply(
      ctx.t("alert-another", {
        code: code.toUpperCase(),
        command: code,
        price: formatPrice(price, locale),
        above: price.times("1.05").round(places, Big.roundHalfUp).toFixed(),
        below: price.times("0.95").round(places, Big.roundHalfUp).toFixed(),
      }),
    );
  });

  composer.callbackQuery(CALLBACK.alertRemove.pattern, async (ctx) => {
    const id = ctx.match[2] ?? "";
    const removed = await book.remove(ctx.from.id, id);
    await ctx.answerCallbackQuery({ text: ctx.t(removed ? "alerts-removed" : "alerts-gone") });
    // The list edits itself; a fired alert's own message keeps its text and its Buy and Sell, and
    // loses the Remove button.
    if (ctx.match[1] === "rm") await showList(ctx, "edit");
    else if (removed) {
      const rows = ctx.callbackQuery.message?.reply_markup?.inline_keyboard ?? [];
      const kept = rows
        .map((row) =>
          row.filter((button) => !("callback_data" in button && button.callback_data === ctx.match[0])),
        )
        .filter((row) => row.length > 0);
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: kept } }).catch(() => {});
    }
  });

  return composer;
}
