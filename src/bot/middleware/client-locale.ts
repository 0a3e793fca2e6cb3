/**
 * Keeps the language the user's Telegram app reports (`from.language_code`) in their profile, for
 * the messages the bot starts itself (security, KYC, order and bank notices): those have no update
 * to read it from, and a user who never ran /language should still get them in their language.
 * Written only when first seen or changed, and only while the user has not chosen one (a chosen
 * language wins in every notice): an ordinary update writes nothing.
 */
import type { Profiles, UserProfile } from "../../session/profiles.ts";
import { clientLocale } from "../i18n.ts";

export async function rememberClientLocale(
  profiles: Pick<Profiles, "rememberAppLocale">,
  userId: number,
  languageCode: string | undefined,
  profile: Readonly<UserProfile> | undefined,
): Promise<void> {
  if (profile === undefined || profile.locale !== undefined) return;
  const seen = clientLocale(languageCode);
  if (seen === undefined || seen === profile.appLocale) return;
  // A store that cannot take it now is asked again by the next update: not a reason to fail this one.
  await profiles.rememberAppLocale(userId, seen).catch(() => undefined);
}
