/**
 * /help names every command of its mode's menu, in every language: a command added to the menu
 * (commands.ts) without its line in the help text fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MENU_COMMANDS, PARTNER_MENU_COMMANDS } from "../src/bot/commands.ts";

/** A message's value in a Fluent file: its first line and the indented lines after it. */
function message(locale: string, key: string): string {
  const lines = readFileSync(new URL(`../locales/${locale}.ftl`, import.meta.url), "utf8").split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${key} =`));
  if (start < 0) throw new Error(`${key} is missing in ${locale}.ftl`);
  const body = [lines[start] ?? ""];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(" ")) break;
    body.push(line);
  }
  return body.join("\n");
}

// /help is how a user gets to the help text (and /start in account mode comes first anyway): no line of their own.
const SELF_EVIDENT = new Set(["help"]);

describe.each(["en", "de"])("/help in %s", (locale) => {
  it.each([
    ["account", "help-text", Object.keys(MENU_COMMANDS).filter((c) => c !== "start")],
    ["partner", "help-text-partner", Object.keys(PARTNER_MENU_COMMANDS)],
  ])("names every command of the %s menu", (_mode, key, commands) => {
    const text = message(locale, key);
    const missing = commands.filter(
      (command) => !SELF_EVIDENT.has(command) && !new RegExp(`/${command}(?![a-z])`).test(text),
    );
    expect(missing).toEqual([]);
  });
});
