import { InlineKeyboard, type Transformer } from "grammy";
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import type { Translate } from "../../domain/translate.ts";
import { CALLBACK } from "./callback-data.ts";

export function loginKeyboard(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("button-login"), CALLBACK.login.data());
}

/**
 * With WEBAPP_URL, every Log in button opens the Mini App login page instead of the chat login
 * (SECURITY.md, rule 2). A transformer on the Bot API client
 * rewrites the button wherever a message carries it, so the places that show `loginKeyboard` stay
 * as they are. Telegram allows `web_app` buttons only in private chats (positive chat ids); a
 * button anywhere else stays the callback button.
 */
export function webAppLoginButtons(pageUrl: string): Transformer {
  return (prev, method, payload, signal) => {
    const markup = "reply_markup" in payload ? payload.reply_markup : undefined;
    const chatId = "chat_id" in payload ? payload.chat_id : undefined;
    if (markup === undefined || !("inline_keyboard" in markup) || typeof chatId !== "number" || chatId <= 0) {
      return prev(method, payload, signal);
    }
    const changed = webAppLoginMarkup(markup, pageUrl);
    return prev(method, changed === markup ? payload : { ...payload, reply_markup: changed }, signal);
  };
}

/** The keyboard with its Log in buttons opening `pageUrl`; the same object when it has none. */
export function webAppLoginMarkup(
  markup: InlineKeyboardMarkup,
  pageUrl: string | undefined,
): InlineKeyboardMarkup {
  if (pageUrl === undefined || !markup.inline_keyboard.flat().some(isLoginButton)) return markup;
  const inline_keyboard = markup.inline_keyboard.map((row) =>
    row.map((button) => (isLoginButton(button) ? { text: button.text, web_app: { url: pageUrl } } : button)),
  );
  return { ...markup, inline_keyboard };
}

function isLoginButton(button: InlineKeyboardButton): boolean {
  return "callback_data" in button && button.callback_data === CALLBACK.login.data();
}

/** A link to the bot's private chat, for group members asking about accounts. */
export function privateChatKeyboard(t: Translate, botUsername: string): InlineKeyboard {
  return new InlineKeyboard().url(t("open-private-chat"), `https://t.me/${botUsername}?start=from-group`);
}
