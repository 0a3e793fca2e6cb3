/**
 * /safety (also from /settings): the safety net's settings (src/safety/) as one screen — the
 * allowlist, the cooling-off of new addresses and bank accounts, and the user's own daily caps.
 *
 *   /safety                           the screen, with buttons for the allowlist and the cooling-off
 *   /safety allowlist on|off          on: at once; off: needs a fresh code, holds after the cooling-off
 *   /safety cooling 12                longer: at once; shorter: fresh code, holds after the current one
 *   /safety cap send btc 0.5          a daily cap (last 24 h): send per crypto, withdraw/buy/sell in EUR;
 *   /safety cap withdraw 500|off      lower: at once; higher or off: 24 hours later
 *
 * Every word is understood in English and in German (`/safety limit auszahlen 1.000`, `… kaufen
 * aus`), whatever the user's language, and the amount is read by the user's locale.
 *
 * Every change raises a security notice (SafetyNet). A loosening change goes through
 * `SAFETY_LOOSEN_FLOW`, which asks the fresh secret (flows/fresh-secret.ts) first.
 */

import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { EUR } from "../../currency.ts";
import { type AmountParse, formatAmount, formatNumber, parseAmount } from "../../money.ts";
import type { AllowlistState } from "../../safety/allowlist.ts";
import { type Cap, type CapKey, capCurrency } from "../../safety/caps.ts";
import { MAX_COOLING_HOURS } from "../../safety/cooling.ts";
import type { Translate } from "../../translate.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { type FreshSecretDeps, freshSecretSteps } from "../flows/fresh-secret.ts";
import { inMoneyFlow } from "../flows/money-flows.ts";
import { flowUserId } from "../flows/user.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { formatMoment } from "../ui/format.ts";

export const SAFETY_LOOSEN_FLOW = "safety-loosen";
const COOLING_CHOICES = [1, 6, 12, 24, 48, MAX_COOLING_HOURS];
const EUR_CAPS: readonly CapKey[] = ["withdraw", "buy", "sell"];
const CAP_NAMES: Record<string, string> = {
  withdraw: "safety-cap-withdraw",
  buy: "safety-cap-buy",
  sell: "safety-cap-sell",
};
const OFF_WORDS = new Set(["off", "aus", "none", "no", "keine", "keins", "kein", "nein", "0"]);
const ON_WORDS = new Set(["on", "an", "ein", "yes", "ja"]);
const ALLOWLIST_WORDS = new Set([
  "allowlist",
  "whitelist",
  "freigabeliste",
  "empfängerliste",
  "empfaengerliste",
  "liste",
]);
const COOLING_WORDS = new Set(["cooling", "cooling-off", "cooloff", "wartezeit"]);
const CAP_WORDS = new Set(["cap", "caps", "limit", "limits", "tageslimit"]);
/** A cap's kind, by the words people type for it in either language. */
const CAP_KIND_WORDS: Record<string, "send" | CapKey> = {
  send: "send",
  senden: "send",
  withdraw: "withdraw",
  withdrawal: "withdraw",
  withdrawals: "withdraw",
  auszahlen: "withdraw",
  auszahlung: "withdraw",
  auszahlungen: "withdraw",
  buy: "buy",
  kaufen: "buy",
  kauf: "buy",
  käufe: "buy",
  sell: "sell",
  verkaufen: "sell",
  verkauf: "sell",
  verkäufe: "sell",
};

type SafetyDeps = Pick<BotDeps, "safety" | "clock" | "partner">;

/** A change that loosens the net: it needs a fresh secret first. */
type Loosening = { kind: "allowlist-off" } | { kind: "cooling"; hours: number };

type Typed =
  | { kind: "allowlist"; on: boolean }
  | { kind: "cooling"; hours: number }
  | { kind: "cap"; key: CapKey; amount: string | undefined }
  | { kind: "bad-amount"; refusal: Extract<AmountParse, { ok: false }> };

/** `/safety …` as a change, or undefined when it does not read as one. */
export function parseSafetyCommand(
  text: string,
  cryptoCodes: (code: string) => boolean,
  locale = "en",
): Typed | undefined {
  const words = text.trim().toLowerCase().split(/\s+/);
  const [what = "", first = "", second] = words;
  if (ALLOWLIST_WORDS.has(what) && ON_WORDS.has(first)) return { kind: "allowlist", on: true };
  if (ALLOWLIST_WORDS.has(what) && OFF_WORDS.has(first)) return { kind: "allowlist", on: false };
  if (COOLING_WORDS.has(what) && /^\d{1,2}\s*(?:h|std)?$/.test(first)) {
    return { kind: "cooling", hours: Number.parseInt(first, 10) };
  }
  if (!CAP_WORDS.has(what)) return undefined;
  const kind = CAP_KIND_WORDS[first];
  const isSend = kind === "send" && second !== undefined && cryptoCodes(second);
  const key: CapKey | undefined = isSend ? `send:${second}` : EUR_CAPS.find((k) => k === kind);
  const value = isSend ? words[3] : second;
  if (key === undefined || value === undefined) return undefined;
  if (OFF_WORDS.has(value)) return { kind: "cap", key, amount: undefined };
  const parsed = parseAmount(value.replace(/^€|€$/g, ""), capCurrency(key), locale);
  return parsed.ok
    ? { kind: "cap", key, amount: parsed.value.toFixed() }
    : { kind: "bad-amount", refusal: parsed };
}

function capLine(t: Translate, key: string, cap: Cap, locale: string): string {
  const currency = capCurrency(key as CapKey);
  const name = key.startsWith("send:")
    ? t("safety-cap-send", { code: currency.toUpperCase() })
    : t(CAP_NAMES[key] ?? key);
  const amount =
    cap.amount === undefined ? t("safety-cap-none") : formatAmount(new Big(cap.amount), currency, locale);
  const raise = cap.raise
    ? ` ${t("safety-cap-raise-pending", {
        amount:
          cap.raise.amount === undefined
            ? t("safety-cap-none")
            : formatAmount(new Big(cap.raise.amount), currency, locale),
        time: formatMoment(cap.raise.at, locale),
      })}`
    : "";
  return `• ${name}: ${amount}${raise}`;
}

/**
 * The /safety screen. Partner mode has no crypto sends (no saved addresses): its allowlist is the
 * bank accounts' cooling-off alone, and its sentences say so.
 */
export function safetyText(
  t: Translate,
  state: AllowlistState,
  caps: Record<string, Cap>,
  locale: string,
  mode: "account" | "partner" = "account",
): string {
  const partner = mode === "partner";
  const allowlist = state.on
    ? t(partner ? "safety-allowlist-on-partner" : "safety-allowlist-on")
    : t(partner ? "safety-allowlist-off-partner" : "safety-allowlist-off");
  const lines = [t("safety-title"), "", allowlist];
  if (state.offAt !== undefined)
    lines.push(t("safety-allowlist-off-at", { time: formatMoment(state.offAt, locale) }));
  lines.push(t("safety-cooling-line", { hours: state.hours }));
  if (state.shorter !== undefined) {
    lines.push(
      t("safety-cooling-shorter-at", {
        hours: state.shorter.hours,
        time: formatMoment(state.shorter.at, locale),
      }),
    );
  }
  lines.push("", t("safety-caps-title"));
  const keys = [...new Set([...EUR_CAPS, ...Object.keys(caps)])];
  for (const key of keys) lines.push(capLine(t, key, caps[key] ?? {}, locale));
  lines.push("", t(partner ? "safety-hint-partner" : "safety-hint", safetyExamples(locale)));
  return lines.join("\n");
}

/** The amounts of the examples, written as the user's locale writes numbers ("0,1" in German). */
export function safetyExamples(locale: string): { small: string; large: string } {
  return { small: formatNumber(new Big("0.1"), locale), large: formatNumber(new Big(1000), locale) };
}

export function safetyKeyboard(t: Translate, state: AllowlistState, minimumHours: number): InlineKeyboard {
  const keyboard = new InlineKeyboard()
    .text(
      t(state.on ? "safety-button-allowlist-off" : "safety-button-allowlist-on"),
      CALLBACK.safetyAllowlist.data(!state.on),
    )
    .row();
  for (const hours of COOLING_CHOICES.filter((h) => h >= minimumHours)) {
    const label = t("safety-button-hours", { hours });
    keyboard.text(hours === state.hours ? `✓ ${label}` : label, CALLBACK.safetyCooling.data(hours));
  }
  return keyboard;
}

/** The `SAFETY_LOOSEN_FLOW` conversation, installed by bot.ts: a fresh secret, then the change. */
export function safetyLoosenConversation(deps: FreshSecretDeps & Pick<BotDeps, "safety">): FlowSpec {
  return { id: SAFETY_LOOSEN_FLOW, steps: loosenFlow(deps), timeoutMs: 5 * 60_000 };
}

function loosenFlow(deps: FreshSecretDeps & Pick<BotDeps, "safety">) {
  return async function safetyLoosen(conversation: Flow, ctx: FlowContext, change: Loosening): Promise<void> {
    const userId = flowUserId(ctx);
    if (!(await freshSecretSteps(conversation, ctx, deps))) {
      await ctx.reply(ctx.t("safety-not-changed"));
      return;
    }
    const outcome = await externalCall(conversation, () =>
      change.kind === "allowlist-off"
        ? deps.safety.setAllowlist(userId, false)
        : deps.safety.setCoolingHours(userId, change.hours),
    );
    if (!outcome.ok) {
      await ctx.reply(ctx.t("safety-not-changed"));
      return;
    }
    const time = formatMoment(outcome.effectiveAt, await ctx.i18n.getLocale());
    await ctx.reply(
      change.kind === "allowlist-off"
        ? ctx.t("safety-allowlist-off-later", { time })
        : ctx.t("safety-cooling-shorter-later", { hours: change.hours, time }),
    );
  };
}

export function safetyFeature(deps: SafetyDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  const { minimumHours } = deps.safety.allowlist.config;

  async function screen(ctx: PrivateContext): Promise<{ text: string; keyboard: InlineKeyboard }> {
    const userId = ctx.from.id;
    const [state, caps] = await Promise.all([
      deps.safety.allowlist.get(userId),
      deps.safety.caps.all(userId),
    ]);
    const locale = await ctx.i18n.getLocale();
    return {
      text: safetyText(ctx.t, state, caps, locale, deps.partner ? "partner" : "account"),
      keyboard: safetyKeyboard(ctx.t, state, minimumHours),
    };
  }

  /** A tightening change at once, a loosening one through its flow; the sentence to say, if any. */
  async function apply(ctx: PrivateContext, change: Typed): Promise<string | "entered"> {
    const userId = ctx.from.id;
    const locale = await ctx.i18n.getLocale();
    const now = deps.clock.now();
    switch (change.kind) {
      case "bad-amount":
        return amountRefusalText(ctx.t, change.refusal);
      case "allowlist": {
        const state = await deps.safety.allowlist.get(userId);
        if (!change.on && state.on && state.offAt === undefined) {
          await enterFlow(ctx, SAFETY_LOOSEN_FLOW, { kind: "allowlist-off" } satisfies Loosening);
          return "entered";
        }
        if (!change.on)
          return ctx.t(state.on ? "safety-allowlist-off-pending" : "safety-allowlist-already-off");
        await deps.safety.setAllowlist(userId, true);
        return ctx.t(deps.partner ? "safety-allowlist-on-done-partner" : "safety-allowlist-on-done");
      }
      case "cooling": {
        if (change.hours < minimumHours || change.hours > MAX_COOLING_HOURS) {
          return ctx.t("safety-cooling-range", { min: minimumHours, max: MAX_COOLING_HOURS });
        }
        const state = await deps.safety.allowlist.get(userId);
        if (change.hours < state.hours) {
          await enterFlow(ctx, SAFETY_LOOSEN_FLOW, {
            kind: "cooling",
            hours: change.hours,
          } satisfies Loosening);
          return "entered";
        }
        await deps.safety.setCoolingHours(userId, change.hours);
        return ctx.t("safety-cooling-done", { hours: change.hours });
      }
      case "cap": {
        const { effectiveAt } = await deps.safety.setCap(userId, change.key, change.amount);
        return effectiveAt > now
          ? ctx.t("safety-cap-later", { time: formatMoment(effectiveAt, locale) })
          : ctx.t("safety-cap-done");
      }
    }
  }

  composer.command("safety", async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    const typed = ctx.match.trim();
    if (typed !== "") {
      const locale = await ctx.i18n.getLocale();
      const crypto = (code: string) => /^[a-z0-9]{2,16}$/.test(code) && code !== EUR;
      const change = parseSafetyCommand(typed, crypto, locale);
      if (change === undefined) {
        await ctx.reply(ctx.t("safety-usage", safetyExamples(locale)));
        return;
      }
      const said = await apply(ctx, change);
      if (said === "entered") return;
      await ctx.reply(said);
    }
    const { text, keyboard } = await screen(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });
  composer.callbackQuery(CALLBACK.safetyShow.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { text, keyboard } = await screen(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });

  async function onTap(ctx: PrivateContext, change: Typed): Promise<void> {
    await ctx.answerCallbackQuery();
    const said = await apply(ctx, change);
    if (said === "entered") return;
    const { text, keyboard } = await screen(ctx);
    await editInPlace(ctx, text, keyboard);
    await ctx.reply(said);
  }
  composer.callbackQuery(CALLBACK.safetyAllowlist.pattern, (ctx) =>
    onTap(ctx, { kind: "allowlist", on: ctx.match[1] === "1" }),
  );
  composer.callbackQuery(CALLBACK.safetyCooling.pattern, (ctx) =>
    onTap(ctx, { kind: "cooling", hours: Number(ctx.match[1]) }),
  );
  return composer;
}
