/**
 * /alert and /alerts: price alerts, without a login (prices come from the market feed).
 *
 *   /alert btc above 60000     fires once when BTC reaches 60,000 € or more
 *   /alert eth below 2000      … 2,000 € or less
 *   /alert btc change 5%       … when the 24 h change is 5 % or more, up or down
 *   /alert                     the same, asked step by step: currency, above / below / change, level
 *   /alerts                    the list, a 🗑 button per alert and "New alert" (the steps)
 *
 * German words work too (`über`, `unter`, `änderung`). The remove button's data is `alert:rm:<id>` (`alert:rx:<id>` under a fired alert);
 * the id is looked up under the tapping user's own key, so a button acts only for its owner.
 * A user whose alerts were paused because they blocked the bot (403) is resumed by any update
 * from them (and by Telegram's my_chat_member update when they unblock it).
 */
import Big from "big.js";
import { InlineKeyboard, type MiddlewareFn } from "grammy";
import {
  type Alert,
  fires,
  MAX_CHANGE_PERCENT,
  MIN_CHANGE_PERCENT,
  parseAlertCommand,
} from "../../alerts/rules.ts";
import { formatChange } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { MarketSnapshot } from "../../market/types.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { askStep, tapped } from "../flows/guided.ts";
import { flowUserId } from "../flows/user.ts";
import { flowButtons } from "../flows/wait.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { alertKindKeyboard, describeAlert } from "../ui/alert-text.ts";
import { AMOUNT_ERROR_KEYS } from "../ui/amount.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { currencyKeyboard, knownCodes, resolveCurrency } from "../ui/currency-choice.ts";
import { editInPlace } from "../ui/edit.ts";
import { formatPrice } from "../ui/price-format.ts";
import { userText } from "../ui/user-text.ts";

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
  return keyboard.text(t("alerts-new-button"), CALLBACK.alertNew.data());
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

type AlertDeps = Pick<BotDeps, "alertBook" | "market" | "clock" | "profiles">;

/** `/alert <typed>` added (or refused): the one message that says so, typed or asked step by step. */
async function addAlert(
  deps: AlertDeps,
  t: Translate,
  userId: number,
  locale: string,
  typed: string,
): Promise<string> {
  const book = deps.alertBook;
  const parsed = parseAlertCommand(typed, locale);
  if (!parsed.ok) return alertRefusal(t, parsed);
  let snapshot: MarketSnapshot;
  try {
    snapshot = await deps.market.snapshot();
  } catch {
    return t("alert-no-market");
  }
  const choices = snapshot.prices.map((p) => ({ code: p.currency, name: p.name }));
  const currency = resolveCurrency(parsed.spec.currency, choices);
  if (!currency) {
    return t("alert-unknown-currency", {
      input: userText(parsed.spec.currency, 32),
      codes: knownCodes(choices),
    });
  }
  const spec = { ...parsed.spec, currency: currency.code };
  const added = await book.add(userId, spec, deps.clock.now(), locale);
  if (!added.ok) {
    return added.reason === "limit"
      ? t("alert-limit", { limit: added.limit })
      : t("alert-duplicate", { alert: describeAlert(t, added.alert, locale) });
  }
  const now = snapshot.prices.find((p) => p.currency === currency.code);
  const lines = [t("alert-added", { alert: describeAlert(t, spec, locale) })];
  if (now) {
    const price = new Big(now.price);
    const change = new Big(now.change24h || "0");
    lines.push(t("alert-now", { price: formatPrice(price, locale), change: formatChange(change, locale) }));
    if (fires(spec, price, change)) lines.push(t("alert-already"));
  }
  lines.push(t("alert-added-hint"));
  if ((await deps.profiles.get(userId)).notifications.alerts === "off")
    lines.push(t("alert-notifications-off"));
  return lines.join("\n");
}

/** Why the words do not make an alert. */
function alertRefusal(
  t: Translate,
  parsed: Extract<ReturnType<typeof parseAlertCommand>, { ok: false }>,
): string {
  if (parsed.reason === "amount")
    return t(AMOUNT_ERROR_KEYS[parsed.refusal], { decimals: parsed.maxDecimals });
  if (parsed.reason === "change-out-of-range")
    return t("alert-change-out-of-range", {
      min: MIN_CHANGE_PERCENT.toNumber(),
      max: MAX_CHANGE_PERCENT.toNumber(),
    });
  return t("alert-usage");
}

export const ALERT_FLOW = "alert";

/** The `ALERT_FLOW` conversation (an alert asked step by step), installed by bot.ts. */
export function alertConversation(deps: AlertDeps): FlowSpec {
  return { id: ALERT_FLOW, steps: alertFlow(deps), timeoutMs: 10 * 60_000 };
}

/**
 * `/alert` without words: the currency (buttons of the market's list), above / below / 24 h
 * change (buttons), the level (typed; the question says where the price is now). The answers are
 * read as the words `/alert` takes typed, so both ways add the same alert with the same message.
 */
function alertFlow(deps: AlertDeps) {
  return async function alert(
    conversation: Flow,
    ctx: FlowContext,
    start: { currency?: string },
  ): Promise<void> {
    const userId = flowUserId(ctx);
    const t = ctx.t.bind(ctx);
    const locale = await ctx.i18n.getLocale();
    // The feed may refuse at once (no earlier answer to fall back on): every refusal is "no market".
    const market = await externalCall(conversation, async () => {
      try {
        const snapshot = await deps.market.snapshot();
        return snapshot.prices.map((p) => ({
          code: p.currency,
          name: p.name,
          price: p.price,
          change: p.change24h,
        }));
      } catch {
        return undefined;
      }
    });
    if (market === undefined || market.length === 0) {
      await ctx.reply(t("alert-no-market"));
      return;
    }
    const buttons = await flowButtons(conversation, FLOW_BUTTONS.alert, "button-inactive");
    const actions = FLOW_BUTTONS.alert.actions;
    let current = ctx;
    let code = start.currency === undefined ? undefined : resolveCurrency(start.currency, market)?.code;
    if (code === undefined) {
      const picked = await askStep<string>(
        conversation,
        current,
        buttons,
        {
          text: t("alert-guide-currency"),
          keyboard: currencyKeyboard(market, (c) => buttons.own + actions.currency(c)),
        },
        (answer) => {
          const typed = tapped(answer, "cur") ?? (answer.kind === "text" ? answer.text : undefined);
          if (typed === undefined) return undefined;
          const found = resolveCurrency(typed, market)?.code;
          return found === undefined ? { again: t("alert-guide-currency-unknown") } : { value: found };
        },
      );
      code = picked.value;
      current = picked.ctx;
    }
    const upper = code.toUpperCase();
    const now = market.find((item) => item.code === code);
    const price = now === undefined ? undefined : formatPrice(new Big(now.price), locale);
    const kind = await askStep<"above" | "below" | "change">(
      conversation,
      current,
      buttons,
      {
        text:
          price === undefined
            ? t("alert-guide-kind", { code: upper })
            : t("alert-guide-kind-now", { code: upper, price }),
        keyboard: alertKindKeyboard(t, (k) => buttons.own + actions.kind(k)),
      },
      (answer) => {
        const picked = tapped(answer, "k");
        if (picked === "above" || picked === "below" || picked === "change") return { value: picked };
        return answer.kind === "text" ? { again: t("alert-guide-tap") } : undefined;
      },
    );
    const level = await askStep<string>(
      conversation,
      kind.ctx,
      buttons,
      {
        text:
          kind.value === "change"
            ? t("alert-guide-change", {
                code: upper,
                change: formatChange(new Big(now?.change || "0"), locale),
              })
            : t(kind.value === "above" ? "alert-guide-above" : "alert-guide-below", {
                code: upper,
                price: price ?? "—",
              }),
      },
      (answer) => {
        if (answer.kind !== "text") return undefined;
        const words = `${code} ${kind.value} ${answer.text}`;
        const parsed = parseAlertCommand(words, locale);
        return parsed.ok ? { value: words } : { again: alertRefusal(t, parsed) };
      },
    );
    const said = await externalCall(conversation, () => addAlert(deps, t, userId, locale, level.value));
    await level.ctx.reply(said);
  };
}

export function alertsFeature(deps: AlertDeps): Feature<PrivateContext> {
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
    return typedAlert(ctx, typed);
  });

  // Without words, or with the currency alone: the rest asked step by step.
  composer.command("alert", async (ctx) => {
    const typed = ctx.match.trim();
    if (typed === "") return enterFlow(ctx, ALERT_FLOW, {});
    if (/^\S+$/.test(typed) && !/\d/.test(typed)) return enterFlow(ctx, ALERT_FLOW, { currency: typed });
    await typedAlert(ctx, typed);
  });
  composer.callbackQuery(CALLBACK.alertNew.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, ALERT_FLOW, {});
  });

  async function typedAlert(ctx: PrivateContext, typed: string): Promise<void> {
    await ctx.reply(await addAlert(deps, ctx.t, ctx.from.id, await ctx.i18n.getLocale(), typed));
  }

  // The home card's Alerts: the list.
  composer.callbackQuery(CALLBACK.home.data("alerts"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showList(ctx, "reply");
  });

  // A fired alert's "Set another alert": the commands to type, with levels 5 % either side of now.
  composer.callbackQuery(CALLBACK.alertAnother.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { code } = CALLBACK.alertAnother.read(ctx);
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
    const { from, id } = CALLBACK.alertRemove.read(ctx);
    const removed = await book.remove(ctx.from.id, id);
    await ctx.answerCallbackQuery({ text: ctx.t(removed ? "alerts-removed" : "alerts-gone") });
    // The list edits itself; a fired alert's own message keeps its text and its Buy and Sell, and
    // loses the Remove button.
    if (from === "rm") await showList(ctx, "edit");
    else if (removed) {
      const rows = ctx.callbackQuery.message?.reply_markup?.inline_keyboard ?? [];
      const kept = rows
        .map((row) =>
          row.filter(
            (button) => !("callback_data" in button && button.callback_data === ctx.callbackQuery.data),
          ),
        )
        .filter((row) => row.length > 0);
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: kept } }).catch(() => {});
    }
  });

  return composer;
}
