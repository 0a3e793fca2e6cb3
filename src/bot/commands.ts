/**
 * The command menu Telegram shows, per language. Set at start; a failure is logged, not fatal:
 * the bot works without its menu.
 */
import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import type { BotDeps } from "./deps.ts";
import { SUPPORTED_LOCALES } from "./i18n.ts";

/** The menu's commands and the locale key of each one's description, in menu order. */
export const MENU_COMMANDS = {
  home: "command-home",
  start: "command-start",
  help: "command-help",
  login: "command-login",
  logout: "command-logout",
  me: "command-me",
  balance: "command-balance",
  prices: "command-prices",
  price: "command-price",
  buy: "command-buy",
  sell: "command-sell",
  send: "command-send",
  withdraw: "command-withdraw",
  deposit: "command-deposit",
  banks: "command-banks",
  addresses: "command-addresses",
  transactions: "command-transactions",
  limits: "command-limits",
  fees: "command-fees",
  alerts: "command-alerts",
  recurring: "command-recurring",
  settings: "command-settings",
  safety: "command-safety",
  freeze: "command-freeze",
  language: "command-language",
  cancel: "command-cancel",
} as const;

/** The menu in partner mode (EXCHANGE_MODE=partner): the partner customer's commands. */
export const PARTNER_MENU_COMMANDS = {
  home: "command-home",
  start: "command-start",
  help: "command-help",
  verify: "command-verify",
  me: "command-me",
  profile: "command-profile",
  balance: "command-balance",
  prices: "command-prices",
  price: "command-price",
  buy: "command-buy",
  sell: "command-sell",
  withdraw: "command-withdraw",
  deposit: "command-deposit",
  banks: "command-banks",
  transactions: "command-transactions",
  limits: "command-limits",
  notifications: "command-notifications",
  recurring: "command-recurring",
  safety: "command-safety",
  pin: "command-pin",
  freeze: "command-freeze",
  language: "command-language",
  cancel: "command-cancel",
} as const;

/** The operator desk (OPERATOR_IDS only): never in the menu, unknown to everyone else. */
export const OPERATOR_COMMANDS: readonly string[] = [
  "master",
  "user",
  "alltx",
  "pairs",
  "currencies",
  "plans",
  "pinreset",
];

/**
 * Every command a private chat understands, from the commands its features register
 * (`commandsOf`, runtime/feature-router.ts): the menu's first, in menu order, then the short forms the menu
 * does not show (/alert, /tx) in the order they were registered. The operator desk's commands are
 * suggested to nobody.
 */
export function knownCommands(registered: Iterable<string>, menu: Record<string, string>): string[] {
  const names = new Set(registered);
  for (const command of OPERATOR_COMMANDS) names.delete(command);
  const shown = Object.keys(menu).filter((command) => names.has(command));
  return [...shown, ...[...names].filter((command) => !Object.hasOwn(menu, command))];
}

/**
 * The known command closest to a mistyped one (`balanse` → `balance`), when one is close enough
 * to be a typo: one edit for short words, two for longer ones. Undefined otherwise.
 */
export function closestCommand(typed: string, known: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const allowed = word.length <= 4 ? 1 : 2;
  let best: { command: string; distance: number } | undefined;
  for (const command of known) {
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

export function commandList(
  translate: (key: string) => string,
  menu: Record<string, string> = MENU_COMMANDS,
): BotCommand[] {
  return Object.entries(menu).map(([command, key]) => ({ command, description: translate(key) }));
}

export async function registerCommands(
  api: Api,
  deps: Pick<BotDeps, "i18n" | "config" | "log" | "partner">,
): Promise<void> {
  const { i18n, log } = deps;
  const defaultLocale = deps.config.defaultLocale;
  const menu = deps.partner ? PARTNER_MENU_COMMANDS : MENU_COMMANDS;
  try {
    await api.setMyCommands(
      commandList((key) => i18n.t(defaultLocale, key), menu),
      {
        scope: { type: "all_private_chats" },
      },
    );
    for (const locale of SUPPORTED_LOCALES) {
      await api.setMyCommands(
        commandList((key) => i18n.t(locale, key), menu),
        {
          scope: { type: "all_private_chats" },
          language_code: locale,
        },
      );
    }
  } catch (error) {
    log.warn({ err: error }, "could not set the command menu; the bot works without it");
  }
}
