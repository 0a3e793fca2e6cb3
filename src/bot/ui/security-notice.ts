/**
 * A security notice as the user reads it (safety/security-events.ts): one sentence per event, the
 * user's anti-phishing phrase above it (a look-alike bot cannot show it), and a **Freeze** button
 * under it that stops every money action in one tap, without a code (features/freeze.ts). Plain
 * text: labels and addresses the user typed are never markup.
 *
 * @example
 * const { text, keyboard } = securityNotice(t, { type: "login", via: "chat", at }, "en", phrase);
 * await api.sendMessage(userId, text, { reply_markup: keyboard });
 */
import { InlineKeyboard } from "grammy";
import { maskIban } from "../../domain/iban.ts";
import { decimalFrom, formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { SecurityEvent } from "../../safety/security-events.ts";
import { CALLBACK } from "./callback-data.ts";
import { formatMoment } from "./format.ts";
import { withPhishingLine } from "./phishing.ts";
import { userText } from "./user-text.ts";

/** What a notice needs beyond the event: how to unfreeze depends on the mode. */
export interface NoticeSetting {
  /** Partner mode: the support contact (only the operator desk unfreezes). Account mode: undefined. */
  support?: string | undefined;
  /** UNFREEZE_DELAY_MINUTES, in ms. */
  unfreezeDelayMs: number;
}

export function securityNotice(
  t: Translate,
  event: SecurityEvent,
  locale: string,
  phrase: string | undefined,
  setting: NoticeSetting,
): { text: string; keyboard: InlineKeyboard } {
  const body = eventText(t, event, locale, setting);
  // The freeze's own notice says what Freeze did; its button stays (tapping again drops an unfreeze).
  const hint = event.type === "frozen" ? "" : `\n\n${t("security-freeze-hint")}`;
  const text = withPhishingLine(t, phrase, `${body}${hint}`);
  return { text, keyboard: freezeKeyboard(t) };
}

/** The one Freeze button. */
export function freezeKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("security-freeze-button"), CALLBACK.freeze.data());
}

/** How to open money actions again, in the mode's words (the frozen notice, /freeze, /unfreeze). */
export function unfreezeHow(t: Translate, setting: NoticeSetting): string {
  return setting.support === undefined
    ? t("freeze-how-account", { delay: delayText(t, setting.unfreezeDelayMs) })
    : t("freeze-how-partner", { support: setting.support });
}

/** A delay as words: whole hours, else minutes. */
export function delayText(t: Translate, ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes % 60 === 0 && minutes > 0
    ? t("security-delay-hours", { hours: minutes / 60 })
    : t("security-delay-minutes", { minutes });
}

function eventText(t: Translate, event: SecurityEvent, locale: string, setting: NoticeSetting): string {
  const time = (ms: number) => formatMoment(ms, locale);
  switch (event.type) {
    case "login":
      return t("security-login", { via: event.via, time: time(event.at) });
    case "address-saved":
      return t("security-address-saved", {
        currency: event.currency.toUpperCase(),
        label: userText(event.label),
        address: event.address,
        time: time(event.usableAt),
      });
    case "bank-added":
      return t("security-bank-added", { iban: maskIban(event.iban), time: time(event.usableAt) });
    case "allowlist-changed":
      return t(event.on ? "security-allowlist-on" : "security-allowlist-off", {
        time: time(event.effectiveAt),
      });
    case "cooling-off-changed":
      return t("security-cooling-off", { hours: event.hours, time: time(event.effectiveAt) });
    case "phrase-changed":
      return t("security-phrase-changed");
    case "remember-password-changed":
      return t(event.on ? "security-remember-on" : "security-remember-off");
    case "limit-changed": {
      // The cap's kind worded ("selling"), never its key ("sell").
      const limit = t("security-limit-name", { limit: event.limit, code: event.currency.toUpperCase() });
      const vars = { limit, time: time(event.effectiveAt) };
      if (event.amount === undefined) return t("security-limit-removed", vars);
      return t("security-limit-set", { ...vars, amount: money(event.amount, event.currency, locale) });
    }
    case "large-outflow":
      return t("security-large-outflow", {
        kind: event.kind,
        amount: money(event.amount, event.currency, locale),
      });
    case "pin-changed":
      return t("security-pin-changed");
    case "pin-reset":
      return t("security-pin-reset");
    case "frozen":
      return `${t(setting.support === undefined ? "security-frozen-account" : "security-frozen-partner", {
        by: event.by,
      })}\n\n${unfreezeHow(t, setting)}`;
    case "unfreeze-scheduled":
      return t("security-unfreeze-scheduled", { time: time(event.at) });
    case "unfrozen":
      return t("security-unfrozen");
  }
}

/** An amount as the locale writes it; the raw text when it is not a decimal. */
function money(amount: string, currency: string, locale: string): string {
  const value = decimalFrom(amount);
  return value === undefined ? `${amount} ${currency.toUpperCase()}` : formatAmount(value, currency, locale);
}
