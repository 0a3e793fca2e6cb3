/**
 * /settings: the bot's own settings (not the exchange's, so no login needed), as a menu that edits
 * itself: language, notifications (their own menu: features/notifications.ts), remember password
 * for quick re-login, auto-logout.
 *
 * Buttons carry the value they set (`set:n:alerts:0`), not "toggle": a double tap, or a tap on an
 * old menu, sets the same value again instead of flipping it back. Every choice can be typed too:
 * `/settings language de`, `/settings alerts silent`, `/settings remember on`, `/settings logout 30`.
 *
 * The anti-phishing phrase is set with its button (or `/settings phrase`), which asks for it, or
 * in one go with `/settings phrase WORDS`; either way its message is deleted before anything else,
 * like a password. It is removed with a button or `/settings phrase off`, and listed masked.
 *
 * Remember password is opt-in. Turning it on takes effect at the next /login (the password is
 * only ever captured there); turning it off forgets a remembered password at once.
 */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import { normalizePhrase, PHRASE_MAX_LENGTH, PHRASE_MIN_LENGTH } from "../../session/phishing-phrase.ts";
import {
  AUTO_LOGOUT_CHOICES,
  NOTIFY_KINDS,
  type NotifyKind,
  type NotifyMode,
  type UserProfile,
  withMode,
} from "../../session/profiles.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { flowUserId } from "../flows/user.ts";
import { waitForSecret } from "../flows/wait.ts";
import { SUPPORTED_LOCALES } from "../i18n.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { escapeHtml } from "../ui/format.ts";
import { MODE_KEYS } from "../ui/notifications-menu.ts";
import { maskedPhrase } from "../ui/phishing.ts";

const LANGUAGE_NAMES: Record<string, string> = { en: "English", de: "Deutsch" };

export type SettingsChange =
  | { kind: "language"; locale: string }
  | { kind: "notify"; which: NotifyKind; mode: NotifyMode }
  | { kind: "remember"; on: boolean }
  | { kind: "autologout"; minutes: number };

const ON_WORDS = new Set(["on", "an", "ein", "yes", "ja", "true", "1"]);
const OFF_WORDS = new Set(["off", "aus", "no", "nein", "false", "0", "never", "nie"]);
const SILENT_WORDS = new Set(["silent", "quiet", "mute", "leise", "stumm", "lautlos"]);
const SETTING_WORDS: Record<string, "language" | NotifyKind | "remember" | "autologout"> = {
  language: "language",
  lang: "language",
  sprache: "language",
  alerts: "alerts",
  alarme: "alerts",
  orders: "orders",
  aufträge: "orders",
  auftraege: "orders",
  expiry: "expiry",
  ablauf: "expiry",
  session: "expiry",
  digest: "digest",
  zusammenfassung: "digest",
  remember: "remember",
  password: "remember",
  passwort: "remember",
  logout: "autologout",
  autologout: "autologout",
  "auto-logout": "autologout",
  abmelden: "autologout",
};

function onOff(word: string | undefined): boolean | undefined {
  if (word === undefined) return undefined;
  if (ON_WORDS.has(word)) return true;
  if (OFF_WORDS.has(word)) return false;
  return undefined;
}

/** `/settings <what> <value>` → a change, or undefined when it does not read as one. */
export function parseSettingsCommand(text: string): SettingsChange | undefined {
  const [what, value, unit] = text.trim().toLowerCase().split(/\s+/);
  const setting = SETTING_WORDS[what ?? ""];
  if (setting === undefined || value === undefined) return undefined;
  switch (setting) {
    case "language": {
      const locale = SUPPORTED_LOCALES.find((l) => l === value || LANGUAGE_NAMES[l]?.toLowerCase() === value);
      return locale ? { kind: "language", locale } : undefined;
    }
    case "remember": {
      const on = onOff(value);
      return on === undefined ? undefined : { kind: "remember", on };
    }
    case "autologout": {
      if (unit !== undefined && !/^min/.test(unit)) return undefined;
      const minutes = onOff(value) === false ? 0 : Number(value.replace(/min.*$/, ""));
      return (AUTO_LOGOUT_CHOICES as readonly number[]).includes(minutes)
        ? { kind: "autologout", minutes }
        : undefined;
    }
    default: {
      const on = SILENT_WORDS.has(value) ? "silent" : onOff(value);
      if (on === undefined) return undefined;
      return { kind: "notify", which: setting, mode: on === "silent" ? on : on ? "on" : "off" };
    }
  }
}

export function applySettingsChange(profile: UserProfile, change: SettingsChange): UserProfile {
  switch (change.kind) {
    case "language":
      return { ...profile, locale: change.locale };
    case "notify":
      return withMode(profile, change.which, change.mode);
    case "remember":
      return { ...profile, rememberPassword: change.on };
    case "autologout":
      return { ...profile, autoLogoutMinutes: change.minutes };
  }
}

function stateWord(t: Translate, on: boolean): string {
  return t(on ? "settings-on" : "settings-off");
}

function autoLogoutText(t: Translate, minutes: number): string {
  return minutes === 0 ? t("settings-autologout-never") : t("settings-autologout-after", { minutes });
}

/** `/settings phrase …`: the typed phrase (case kept), or "off" to remove it. */
const PHRASE_LIMITS = { min: PHRASE_MIN_LENGTH, max: PHRASE_MAX_LENGTH };
const PHRASE_COMMAND = /^(?:phrase|phishing|anti-phishing|satz)(?:\s+([\s\S]+))?$/i;

/** The menu's text: every setting as it is now (the phrase masked). */
export function settingsText(
  t: Translate,
  profile: UserProfile,
  locale: string,
  phrase?: string | undefined,
): string {
  return [
    t("settings-title"),
    "",
    t("settings-language-line", { language: LANGUAGE_NAMES[locale] ?? locale }),
    t(
      "settings-notifications-line",
      Object.fromEntries(NOTIFY_KINDS.map((kind) => [kind, t(MODE_KEYS[profile.notifications[kind]])])),
    ),
    t("settings-remember-line", { state: stateWord(t, profile.rememberPassword) }),
    t("settings-autologout-line", { value: autoLogoutText(t, profile.autoLogoutMinutes) }),
    t("settings-phishing-line", {
      phrase: phrase === undefined ? t("settings-phishing-none") : escapeHtml(maskedPhrase(phrase)),
    }),
    "",
    t("settings-hint"),
  ].join("\n");
}

/** The menu's buttons; the current choice is ticked, each button sets the value it names. */
export function settingsKeyboard(
  t: Translate,
  profile: UserProfile,
  locale: string,
  hasPhrase = false,
): InlineKeyboard {
  const tick = (selected: boolean, label: string) => (selected ? `✓ ${label}` : label);
  const keyboard = new InlineKeyboard();
  for (const l of SUPPORTED_LOCALES)
    keyboard.text(tick(l === locale, LANGUAGE_NAMES[l] ?? l), CALLBACK.settingsLanguage.data(l));
  keyboard.row();
  keyboard.text(t("settings-button-notifications"), CALLBACK.notifyMenu.data()).row();
  keyboard
    .text(
      t("settings-button-remember", { state: stateWord(t, profile.rememberPassword) }),
      CALLBACK.settingsRemember.data(!profile.rememberPassword),
    )
    .row();
  for (const minutes of AUTO_LOGOUT_CHOICES) {
    const label =
      minutes === 0 ? t("settings-button-autologout-off") : t("settings-button-autologout", { minutes });
    keyboard.text(
      tick(profile.autoLogoutMinutes === minutes, label),
      CALLBACK.settingsAutoLogout.data(minutes),
    );
  }
  keyboard.row();
  if (hasPhrase) {
    keyboard
      .text(t("settings-button-phishing-change"), CALLBACK.settingsPhraseSet.data())
      .text(t("settings-button-phishing-remove"), CALLBACK.settingsPhraseRemove.data());
  } else {
    keyboard.text(t("settings-button-phishing-set"), CALLBACK.settingsPhraseSet.data());
  }
  // The safety net (allowlist, cooling-off, own caps) has its own screen: features/safety.ts.
  keyboard.row().text(t("settings-button-safety"), CALLBACK.safetyShow.data());
  return keyboard;
}

type PhraseDeps = Pick<BotDeps, "phishing">;

const PHRASE_REFUSED = "settings-phishing-bad";

/** Sets or removes the phrase; the typed message is already deleted. Returns the key of what to say. */
async function applyPhrase(deps: PhraseDeps, userId: number, typed: string): Promise<string> {
  if (OFF_WORDS.has(typed.trim().toLowerCase())) {
    await deps.phishing.remove(userId);
    return "settings-phishing-removed";
  }
  const phrase = normalizePhrase(typed);
  if (phrase === undefined) return PHRASE_REFUSED;
  await deps.phishing.set(userId, phrase);
  return "settings-phishing-saved";
}

export const PHRASE_FLOW = "settings-phrase";

/** `/settings phrase WORDS` typed again while the step waits: the words are the phrase. */
function unwrapPhraseCommand(text: string): string {
  const command = /^\/settings(?:@\w+)?\s+([\s\S]*)$/i.exec(text);
  const words = command ? PHRASE_COMMAND.exec(command[1]?.trim() ?? "") : null;
  return words?.[1] ?? text;
}

/**
 * Asks for the phrase and takes the next message as it (a phrase may start with anything). A phrase
 * refused (too short, too long) keeps the step open: the next message is the phrase again, taken
 * and deleted like the first, so a secret typed after a refusal never stays readable in the chat.
 * `refused`: entered after `/settings phrase …` was refused, which already asked again.
 */
function phraseFlow(deps: PhraseDeps) {
  return async function settingsPhrase(conversation: Flow, ctx: FlowContext, refused = false): Promise<void> {
    const userId = flowUserId(ctx);
    if (!refused) await ctx.reply(ctx.t("settings-phishing-ask", PHRASE_LIMITS));
    for (;;) {
      const answer = await waitForSecret(conversation);
      await answer.deleteMessage();
      const typed = unwrapPhraseCommand(answer.message.text);
      const note = await externalCall(conversation, () => applyPhrase(deps, userId, typed));
      await answer.reply(ctx.t(note, PHRASE_LIMITS));
      if (note !== PHRASE_REFUSED) return;
    }
  };
}

/**
 * The `PHRASE_FLOW` conversation, installed by bot.ts. Abandoned after a few minutes: the state
 * holds what was typed.
 */
export function phraseConversation(deps: Pick<BotDeps, "profiles" | "sessions" | "phishing">): FlowSpec {
  return { id: PHRASE_FLOW, steps: phraseFlow(deps), timeoutMs: 5 * 60_000 };
}

export function settingsFeature(
  deps: Pick<BotDeps, "profiles" | "sessions" | "phishing" | "securityNotices">,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function menu(ctx: PrivateContext): Promise<{ text: string; keyboard: InlineKeyboard }> {
    const userId = ctx.from.id;
    const profile = await deps.profiles.get(userId);
    const phrase = await deps.phishing.get(userId);
    const locale = await ctx.i18n.getLocale();
    return {
      text: settingsText(ctx.t, profile, locale, phrase),
      keyboard: settingsKeyboard(ctx.t, profile, locale, phrase !== undefined),
    };
  }

  /** Saves the change; returns the key of a sentence to tell the user, if the change needs one. */
  async function apply(ctx: PrivateContext, change: SettingsChange): Promise<string | undefined> {
    const userId = ctx.from.id;
    const before = await deps.profiles.get(userId);
    await deps.profiles.update(userId, (profile) => applySettingsChange(profile, change));
    if (change.kind === "language") ctx.i18n.useLocale(change.locale);
    if (change.kind !== "remember") return undefined;
    // Off always forgets, even if the setting already read off: nothing remembered must survive it.
    if (!change.on) await deps.sessions.forgetPassword(userId);
    if (before.rememberPassword === change.on) return undefined;
    // A switched "remember password" is a security notice (with Freeze).
    await deps.securityNotices.tell(userId, { type: "remember-password-changed", on: change.on });
    return change.on ? "settings-remember-on-explained" : "settings-remember-off-done";
  }

  composer.command("settings", async (ctx) => {
    const typed = ctx.match.trim();
    let note: string | undefined;
    const phrase = PHRASE_COMMAND.exec(typed);
    if (phrase && phrase[1] === undefined) {
      await enterFlow(ctx, PHRASE_FLOW);
      return;
    }
    if (phrase) {
      // The phrase is a secret: its message goes before anything else is done with it.
      await ctx.deleteMessage();
      note = await applyPhrase(deps, ctx.from.id, phrase[1] ?? "");
      if (note === PHRASE_REFUSED) {
        // "Please try again" means it: the next message is the phrase, taken and deleted.
        await ctx.reply(ctx.t(note, PHRASE_LIMITS));
        await enterFlow(ctx, PHRASE_FLOW, true);
        return;
      }
    } else if (typed !== "") {
      const change = parseSettingsCommand(typed);
      if (!change) {
        await ctx.reply(ctx.t("settings-usage"));
      } else {
        note = (await apply(ctx, change)) ?? "settings-saved";
      }
    }
    if (note) await ctx.reply(ctx.t(note, PHRASE_LIMITS));
    const { text, keyboard } = await menu(ctx);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });

  async function onTap(ctx: PrivateContext, change: SettingsChange): Promise<void> {
    await ctx.answerCallbackQuery();
    const note = await apply(ctx, change);
    const { text, keyboard } = await menu(ctx);
    await editInPlace(ctx, text, keyboard);
    if (note) await ctx.reply(ctx.t(note));
  }

  composer.callbackQuery(CALLBACK.settingsLanguage.pattern, async (ctx) => {
    const tapped = CALLBACK.settingsLanguage.read(ctx).locale;
    const locale = SUPPORTED_LOCALES.find((l) => l === tapped);
    if (!locale) return ctx.answerCallbackQuery();
    await onTap(ctx, { kind: "language", locale });
  });
  composer.callbackQuery(CALLBACK.settingsRemember.pattern, async (ctx) => {
    await onTap(ctx, { kind: "remember", on: CALLBACK.settingsRemember.read(ctx).on });
  });
  composer.callbackQuery(CALLBACK.settingsPhraseSet.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, PHRASE_FLOW);
  });
  composer.callbackQuery(CALLBACK.settingsPhraseRemove.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await deps.phishing.remove(ctx.from.id);
    const { text, keyboard } = await menu(ctx);
    await editInPlace(ctx, text, keyboard);
    await ctx.reply(ctx.t("settings-phishing-removed"));
  });
  composer.callbackQuery(CALLBACK.settingsAutoLogout.pattern, async (ctx) => {
    const { minutes } = CALLBACK.settingsAutoLogout.read(ctx);
    if (!(AUTO_LOGOUT_CHOICES as readonly number[]).includes(minutes)) return ctx.answerCallbackQuery();
    await onTap(ctx, { kind: "autologout", minutes });
  });
  return composer;
}
