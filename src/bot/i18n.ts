/**
 * i18n (Fluent files in `locales/`). The locale comes from the user's profile, then from the
 * Telegram client's language, then DEFAULT_LOCALE. A negotiator (not i18n's `useSession`) does
 * it, because inline queries and conversations have no session.
 */
import { fileURLToPath } from "node:url";
import { I18n, type I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Profiles } from "../session/profiles.ts";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));
export const SUPPORTED_LOCALES = ["en", "de"] as const;

export function isSupportedLocale(locale: string | undefined): locale is (typeof SUPPORTED_LOCALES)[number] {
  return SUPPORTED_LOCALES.includes(locale as (typeof SUPPORTED_LOCALES)[number]);
}

/** The Telegram client's language, reduced to one we have ("de-AT" → "de"). */
export function clientLocale(languageCode: string | undefined): string | undefined {
  const base = languageCode?.toLowerCase().split("-")[0];
  return isSupportedLocale(base) ? base : undefined;
}

export function createI18n<C extends Context>(options: {
  defaultLocale: string;
  profiles: Profiles;
}): I18n<C> {
  const i18n = new I18n<C>({
    defaultLocale: options.defaultLocale,
    // Unicode isolation marks around placeables confuse copy-paste of addresses and amounts.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: async (ctx) => {
      const userId = ctx.from?.id;
      const chosen = userId === undefined ? undefined : await chosenLocale(ctx, userId, options.profiles);
      return chosen ?? clientLocale(ctx.from?.language_code) ?? options.defaultLocale;
    },
  });
  i18n.loadLocalesDirSync(LOCALES_DIR);
  rememberBundleMatches(i18n.fluent);
  rememberPlainMessages(i18n.fluent);
  return i18n;
}

/** Updates whose chosen locale is read later (deferChosenLocale), until negotiateChosenLocale. */
const deferred = new WeakSet<Context>();

/**
 * Lets i18n's negotiation (which runs before the chat's lease is taken) answer without reading the
 * user's profile: from the profile this process remembers, else with the client's language. On
 * Redis that read would be a round trip of its own, while after the lease it comes with the chat's
 * other reads (store/update-reads.ts). Call before the i18n middleware; negotiateChosenLocale then
 * makes the profile's locale the one used, when it was not remembered.
 */
export function deferChosenLocale(ctx: Context): void {
  deferred.add(ctx);
}

/**
 * Negotiates the locale again, now with the user's profile, when deferChosenLocale put it off:
 * once the chat's lease is held, and before anything that speaks to the user ahead of it (a flood
 * warning, the error boundary). Nothing to do otherwise.
 */
export async function negotiateChosenLocale(ctx: Context & I18nFlavor): Promise<void> {
  if (!deferred.delete(ctx)) return;
  await ctx.i18n.renegotiateLocale();
}

/** The locale the user chose, from their profile; undefined when none, or not read yet. */
async function chosenLocale(ctx: Context, userId: number, profiles: Profiles): Promise<string | undefined> {
  // Deferred (deferChosenLocale): a profile this process remembers is used now (no read, and no
  // second negotiation); else none until the chat's reads are at hand.
  if (deferred.has(ctx)) {
    const remembered = profiles.remembered(userId);
    if (remembered === undefined) return undefined;
    deferred.delete(ctx);
    return remembered.locale;
  }
  // A store that is down must not leave the user without words: the error boundary needs ctx.t
  // to say so. The client's language is a good guess until the profile can be read again.
  return profiles.get(userId).then(
    (profile) => profile.locale,
    () => undefined,
  );
}

/**
 * @grammyjs/i18n picks the Fluent bundles for the locale again on every `ctx.t()` (its private
 * `matchBundles`, through @fluent/langneg's negotiation): measured, that was a tenth of what a
 * /balance allocated. The bundles are all loaded above and never change afterwards, so the answer
 * for a list of locales is always the same: it is kept (a few entries: the locales come from
 * `localeNegotiator`, which only returns supported ones or the default). Another version of the
 * library without that method is simply left as it is.
 */
function rememberBundleMatches(fluent: object): void {
  const match: unknown = Reflect.get(fluent, "matchBundles");
  if (typeof match !== "function") return;
  const known = new Map<string, unknown>();
  Reflect.set(fluent, "matchBundles", (locales: readonly string[]) => {
    const key = locales.join(",");
    if (known.has(key)) return known.get(key);
    const bundles: unknown = match.call(fluent, locales);
    if (known.size < 16) known.set(key, bundles);
    return bundles;
  });
}

/** Sentences kept per locale and key (every sentence of every locale: a few hundred). */
const PLAIN_MESSAGES_MAX = 4_096;

/**
 * A sentence without variables is the same every time in a locale (the bundles never change once
 * loaded, and no global translation context is configured), yet Fluent resolves it again on every
 * `ctx.t()`: /help's text, every button's label. Measured on /help under load, that was a string
 * of the help's length made per update and kept alive while the update was in flight, so more for
 * the young generation to copy. Translations with variables go through Fluent as before. Another
 * version of the library without `translate` is left as it is.
 */
function rememberPlainMessages(fluent: object): void {
  const translate: unknown = Reflect.get(fluent, "translate");
  if (typeof translate !== "function") return;
  const known = new Map<string, unknown>();
  Reflect.set(fluent, "translate", (locales: string | readonly string[], path: string, context?: object) => {
    if (context !== undefined && hasOwnKeys(context)) return translate.call(fluent, locales, path, context);
    const key = `${typeof locales === "string" ? locales : locales.join(",")}\u0000${path}`;
    if (known.has(key)) return known.get(key);
    const text: unknown = translate.call(fluent, locales, path, context);
    // A missing key's placeholder is not kept: the library warns about it on every call.
    if (known.size < PLAIN_MESSAGES_MAX && text !== `{${path}}`) known.set(key, text);
    return text;
  });
}

function hasOwnKeys(object: object): boolean {
  for (const _ in object) return true;
  return false;
}
