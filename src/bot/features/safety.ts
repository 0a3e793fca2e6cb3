/**
 * /safety (also from /settings): the safety net's settings (src/safety/) as one screen — the
 * allowlist, the cooling-off of new addresses and bank accounts, and the user's own daily caps.
 *
 *   /safety                           the screen, with buttons for the allowlist and the cooling-off
 *   /safety allowlist on|off          on: at once; off: needs a fresh code, holds after the cooling-off
 *   /safety cooling 12                longer: at once; shorter: fresh code, holds after the current one
 *   /safety cap send btc 0.5          a daily cap (last 24 h): send per crypto, withdraw/buy/sell in EUR;
 *   /safety cap withdraw 500|off      lower: at once; higher or off: 24 hours later
 *   /safety cap [withdraw]            the cap asked step by step (also the screen's button)
 *
 * Every word is understood in English and in German (`/safety limit auszahlen 1.000`, `… kaufen
 * aus`), whatever the user's language, and the amount is read by the user's locale.
 *
 * Every change raises a security notice (SafetyNet). A loosening change goes through
 * `SAFETY_LOOSEN_FLOW`, which asks the fresh secret (flows/fresh-secret.ts) first.
 */

import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { EUR } from "../../domain/currency.ts";
import { type AmountParse, formatAmount, formatNumber, parseAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { AllowlistState } from "../../safety/allowlist.ts";
import { type Cap, type CapKey, capCurrency } from "../../safety/caps.ts";
import { MAX_COOLING_HOURS } from "../../safety/cooling.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { type FreshSecretDeps, freshSecretSteps } from "../flows/fresh-secret.ts";
import { askStep, tapped } from "../flows/guided.ts";
import { inMoneyFlow } from "../flows/money-flows.ts";
import { flowUserId } from "../flows/user.ts";
import { flowButtons } from "../flows/wait.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { formatMoment } from "../ui/format.ts";

export const SAFETY_LOOSEN_FLOW = "safety-loosen";
export const SAFETY_CAP_FLOW = "safety-cap";
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

/** `/safety cap` with what is missing: the cap, or its amount (the words of either language). */
export function capToAsk(text: string): CapStart | undefined {
  const [what = "", first, second, ...rest] = text.trim().toLowerCase().split(/\s+/);
  if (!CAP_WORDS.has(what)) return undefined;
  if (first === undefined) return {};
  const kind = CAP_KIND_WORDS[first];
  if (kind === "withdraw" || kind === "buy" || kind === "sell")
    return second === undefined ? { cap: kind } : undefined;
  if (kind === "send" && rest.length === 0) {
    if (second === undefined) return { cap: "send" };
    if (/^[a-z0-9]{2,16}$/.test(second) && second !== EUR) return { cap: "send", code: second };
  }
  return undefined;
}

/** What the cap's steps start from (a conversation argument). */
export interface CapStart {
  cap?: "withdraw" | "buy" | "sell" | "send";
  /** The crypto of a send cap. */
  code?: string;
}

/** A cap's change saved: the sentence that says when it holds. */
async function applyCap(
  deps: SafetyDeps,
  t: Translate,
  userId: number,
  locale: string,
  change: Extract<Typed, { kind: "cap" }>,
): Promise<string> {
  const now = deps.clock.now();
  const { effectiveAt } = await deps.safety.setCap(userId, change.key, change.amount);
  return effectiveAt > now
    ? t("safety-cap-later", { time: formatMoment(effectiveAt, locale) })
    : t("safety-cap-done");
}

/** The `SAFETY_CAP_FLOW` conversation (a cap asked step by step), installed by bot.ts. */
export function safetyCapConversation(deps: SafetyDeps): FlowSpec {
  return { id: SAFETY_CAP_FLOW, steps: capFlow(deps), timeoutMs: 10 * 60_000 };
}

/**
 * Which cap (withdraw, buy, sell; account mode also a crypto's sends), then its amount or "no
 * limit". The answers are read as the words `/safety cap …` takes typed, and the same sentence and
 * screen follow.
 */
function capFlow(deps: SafetyDeps) {
  return async function safetyCap(conversation: Flow, ctx: FlowContext, start: CapStart): Promise<void> {
    const userId = flowUserId(ctx);
    const t = ctx.t.bind(ctx);
    const locale = await ctx.i18n.getLocale();
    const buttons = await flowButtons(conversation, FLOW_BUTTONS.safetyCap, "button-inactive");
    const actions = FLOW_BUTTONS.safetyCap.actions;
    let current = ctx;
    let cap = start.cap;
    if (cap === undefined) {
      const keyboard = new InlineKeyboard();
      for (const key of ["withdraw", "buy", "sell"] as const)
        keyboard.text(t(CAP_NAMES[key] ?? key), buttons.own + actions.cap(key));
      if (!deps.partner)
        keyboard.row().text(t("safety-guide-button-send"), buttons.own + actions.cap("send"));
      const picked = await askStep<NonNullable<CapStart["cap"]>>(
        conversation,
        current,
        buttons,
        { text: t("safety-guide-which"), keyboard },
        (answer) => {
          const key = tapped(answer, "c");
          if (key === "withdraw" || key === "buy" || key === "sell" || (key === "send" && !deps.partner))
            return { value: key };
          return answer.kind === "text" ? { again: t("safety-guide-tap") } : undefined;
        },
      );
      cap = picked.value;
      current = picked.ctx;
    }
    let code = start.code;
    if (cap === "send" && code === undefined) {
      const picked = await askStep<string>(
        conversation,
        current,
        buttons,
        { text: t("safety-guide-code") },
        (answer) => {
          if (answer.kind !== "text") return undefined;
          const typed = answer.text.trim().toLowerCase();
          return /^[a-z0-9]{2,16}$/.test(typed) && typed !== EUR
            ? { value: typed }
            : { again: t("safety-guide-code-again") };
        },
      );
      code = picked.value;
      current = picked.ctx;
    }
    const prefix = cap === "send" ? `cap send ${code}` : `cap ${cap}`;
    const unit = cap === "send" ? (code ?? "").toUpperCase() : "EUR";
    const name = cap === "send" ? t("safety-cap-send", { code: unit }) : t(CAP_NAMES[cap] ?? cap);
    const change = await askStep<Extract<Typed, { kind: "cap" }>>(
      conversation,
      current,
      buttons,
      {
        text: t("safety-guide-amount", { cap: name, unit }),
        keyboard: new InlineKeyboard().text(t("safety-guide-button-off"), buttons.own + actions.off()),
      },
      (answer) => {
        const words =
          answer.kind === "text"
            ? `${prefix} ${answer.text}`
            : answer.action === "off"
              ? `${prefix} off`
              : undefined;
        if (words === undefined) return undefined;
        const typed = parseSafetyCommand(words, () => true, locale);
        if (typed?.kind === "cap") return { value: typed };
        if (typed?.kind === "bad-amount") return { again: amountRefusalText(t, typed.refusal) };
        return { again: t("safety-guide-amount-again", { unit }) };
      },
    );
    const said = await externalCall(conversation, () => applyCap(deps, t, userId, locale, change.value));
    await change.ctx.reply(said);
    const screen = await externalCall(conversation, async () => {
      const [state, caps] = await Promise.all([
        deps.safety.allowlist.get(userId),
        deps.safety.caps.all(userId),
      ]);
      return {
        text: safetyText(t, state, caps, locale, deps.partner ? "partner" : "account"),
        keyboard: safetyKeyboard(t, state, deps.safety.allowlist.config.minimumHours).inline_keyboard,
      };
    });
    await change.ctx.reply(screen.text, {
      parse_mode: "HTML",
      reply_markup: { inline_keyboard: screen.keyboard },
    });
  };
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
  return keyboard.row().text(t("safety-button-cap"), CALLBACK.safetyCapPick.data());
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

/** A tightening change at once, a loosening one through its flow; the sentence to say, if any. */
async function apply(deps: SafetyDeps, ctx: PrivateContext, change: Typed): Promise<string | "entered"> {
  const { minimumHours } = deps.safety.allowlist.config;
  const userId = ctx.from.id;
  const locale = await ctx.i18n.getLocale();
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
    case "cap":
      return applyCap(deps, ctx.t, userId, locale, change);
  }
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

  composer.command("safety", async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    const typed = ctx.match.trim();
    const ask = capToAsk(typed);
    if (ask !== undefined) {
      await enterFlow(ctx, SAFETY_CAP_FLOW, ask);
      return;
    }
    if (typed !== "") {
      const locale = await ctx.i18n.getLocale();
      const crypto = (code: string) => /^[a-z0-9]{2,16}$/.test(code) && code !== EUR;
      const change = parseSafetyCommand(typed, crypto, locale);
      if (change === undefined) {
        await ctx.reply(ctx.t("safety-usage", safetyExamples(locale)));
        return;
      }
      const said = await apply(deps, ctx, change);
      if (said === "entered") return;
      await ctx.reply(said);
    }
    const { text, keyboard } = await screen(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });
  composer.callbackQuery(CALLBACK.safetyCapPick.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, SAFETY_CAP_FLOW, {} satisfies CapStart);
  });
  composer.callbackQuery(CALLBACK.safetyShow.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { text, keyboard } = await screen(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });

  async function onTap(ctx: PrivateContext, change: Typed): Promise<void> {
    await ctx.answerCallbackQuery();
    const said = await apply(deps, ctx, change);
    if (said === "entered") return;
    const { text, keyboard } = await screen(ctx);
    await editInPlace(ctx, text, keyboard);
    await ctx.reply(said);
  }
  composer.callbackQuery(CALLBACK.safetyAllowlist.pattern, (ctx) =>
    onTap(ctx, { kind: "allowlist", on: CALLBACK.safetyAllowlist.read(ctx).on }),
  );
  composer.callbackQuery(CALLBACK.safetyCooling.pattern, (ctx) =>
    onTap(ctx, { kind: "cooling", hours: CALLBACK.safetyCooling.read(ctx).hours }),
  );
  return composer;
}
