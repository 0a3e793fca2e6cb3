/**
 * The anti-phishing line on messages that ask for a secret or confirm money, which a look-alike
 * bot cannot show. Read the phrase with `deps.phishing.get(userId)` (session/phishing-phrase.ts);
 * inside a conversation, through `externalCall`.
 *
 * @example
 * const phrase = await deps.phishing.get(userId);
 * await ctx.reply(withPhishingLine(ctx.t, phrase, ctx.t("login-ask-password")));
 * // HTML messages: withPhishingLine(ctx.t, phrase, html, { html: true })
 */

import type { Translate } from "../../domain/translate.ts";
import { escapeHtml } from "./format.ts";
import { userText } from "./user-text.ts";

/** The line that shows the phrase, or "" when the user has none. */
export function phishingLine(
  t: Translate,
  phrase: string | undefined,
  options: { html?: boolean } = {},
): string {
  if (phrase === undefined || phrase === "") return "";
  const shown = userText(phrase);
  return t("phishing-line", { phrase: options.html ? escapeHtml(shown) : shown });
}

/** `text` with the phrase line above it; `text` unchanged when there is no phrase. */
export function withPhishingLine(
  t: Translate,
  phrase: string | undefined,
  text: string,
  options: { html?: boolean } = {},
): string {
  const line = phishingLine(t, phrase, options);
  return line === "" ? text : `${line}\n\n${text}`;
}

/** The phrase as the settings list shows it: its first two characters, the rest hidden. */
export function maskedPhrase(phrase: string): string {
  return `${Array.from(userText(phrase)).slice(0, 2).join("")}•••`;
}
