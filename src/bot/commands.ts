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

/** Every command a private chat understands: the menu, plus the short forms it does not show. */
export const KNOWN_COMMANDS: readonly string[] = [...MENU_COMMANDS, "alert", "tx"];

/**
 * The known command closest to a mistyped one (`balanse` → `balance`), when one is close enough
 * to be a typo: one edit for short words, two for longer ones. Undefined otherwise.
 */
export function closestCommand(typed: string): string | undefined {
  const word = typed.toLowerCase();
  const allowed = word.length <= 4 ? 1 : 2;
  let best: { command: string; distance: number } | undefined;
  for (const command of KNOWN_COMMANDS) {
    const distance = editDistance(word, command);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { command, distance };
  }
  return best?.command;
}

/** Levenshtein distance, with one row of memory. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, substitution);
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

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
