import { InlineKeyboard } from "grammy";

type Translate = (key: string, variables?: Record<string, string | number>) => string;

/** Callback data of the Log in button; the login feature answers it. */
export const LOGIN_CALLBACK = "login";

export function loginKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("button-login"), LOGIN_CALLBACK);
}

/** A link to the bot's private chat, for group members asking about accounts. */
export function privateChatKeyboard(t: Translate, botUsername: string): InlineKeyboard {
  return new InlineKeyboard().url(t("open-private-chat"), `https://t.me/${botUsername}?start=from-group`);
}
