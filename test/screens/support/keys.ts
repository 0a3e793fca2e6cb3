/**
 * Which sentences of the locale files the catalogue made the bot say: every lookup goes through the
 * i18n instance's Fluent `translate` (ctx.t binds it per update, notices and pictures call i18n.t),
 * so a wrapper on it sees each message id rendered, in any locale.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LOCALES_DIR } from "../../../src/bot/i18n.ts";

/** The locales the bot has: one `.ftl` file each, so a new file is picked up by the catalogue. */
export function catalogueLocales(): string[] {
  return readdirSync(LOCALES_DIR)
    .filter((file) => file.endsWith(".ftl"))
    .map((file) => file.slice(0, -".ftl".length))
    .sort();
}

/** The message ids of a locale's file, in file order. */
export function messageIds(locale: string): string[] {
  const source = readFileSync(join(LOCALES_DIR, `${locale}.ftl`), "utf8");
  return [...source.matchAll(/^([a-z][a-z0-9-]*) *=/gm)].map((match) => match[1] as string);
}

/**
 * Records the message ids looked up through `i18n`'s Fluent instance into `seen`, and tells
 * `listener` of each (a script that answers what the bot asked).
 */
export function recordLookups(
  i18n: { fluent: object },
  seen: Set<string>,
  listener: (id: string) => void = () => {},
): void {
  const fluent = i18n.fluent;
  const translate: unknown = Reflect.get(fluent, "translate");
  if (typeof translate !== "function") throw new Error("@grammyjs/i18n changed: Fluent has no translate()");
  Reflect.set(fluent, "translate", (locales: unknown, path: string, context?: unknown) => {
    const id = path.split(".")[0] as string;
    seen.add(id);
    listener(id);
    return translate.call(fluent, locales, path, context);
  });
}
