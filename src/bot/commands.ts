/**
 * The command menu Telegram shows, per language. Set at start; a failure is logged, not fatal:
 * the bot works without its menu.
 */
import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import type { Logger } from "../logger.ts";
import type { Profiles } from "../session/profiles.ts";
import { createI18n, SUPPORTED_LOCALES } from "./i18n.ts";

export const MENU_COMMANDS = [
  "start",
  "help",
  "login",
  "logout",
  "me",
  "balance",
  "prices",
  "price",
  "buy",
  "sell",
  "send",
  "withdraw",
  "deposit",
  "banks",
  "transactions",
  "limits",
  "fees",
  "alerts",
  "settings",
  "language",
  "cancel",
] as const;

export function commandList(translate: (key: string) => string): BotCommand[] {
  return MENU_COMMANDS.map((command) => ({ command, description: translate(`command-${command}`) }));
}

export async function registerCommands(
  api: Api,
  options: { defaultLocale: string; profiles: Profiles; log: Logger },
): Promise<void> {
  const i18n = createI18n({ defaultLocale: options.defaultLocale, profiles: options.profiles });
  try {
    await api.setMyCommands(
      commandList((key) => i18n.t(options.defaultLocale, key)),
      {
        scope: { type: "all_private_chats" },
      },
    );
    for (const locale of SUPPORTED_LOCALES) {
      await api.setMyCommands(
        commandList((key) => i18n.t(locale, key)),
        {
          scope: { type: "all_private_chats" },
          language_code: locale,
        },
      );
    }
  } catch (error) {
    options.log.warn({ err: error }, "could not set the command menu; the bot works without it");
  }
}
