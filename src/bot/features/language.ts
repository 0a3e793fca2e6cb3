import { InlineKeyboard } from "grammy";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { SUPPORTED_LOCALES } from "../i18n.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";

const NAMES: Record<string, string> = { en: "English", de: "Deutsch" };

/** /language: pick English or German (buttons, or the code typed: `/language de`). */
export function languageFeature(deps: Pick<BotDeps, "profiles">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function choose(ctx: PrivateContext, locale: string): Promise<void> {
    await deps.profiles.update(ctx.from.id, (profile) => ({ ...profile, locale }));
    ctx.i18n.useLocale(locale);
    await ctx.reply(ctx.t("language-set"));
  }

  composer.command("language", async (ctx) => {
    const typed = ctx.match.trim().toLowerCase();
    const match = SUPPORTED_LOCALES.find((l) => l === typed || NAMES[l]?.toLowerCase() === typed);
    if (match) return choose(ctx, match);
    const keyboard = new InlineKeyboard();
    for (const locale of SUPPORTED_LOCALES)
      keyboard.text(NAMES[locale] ?? locale, CALLBACK.language.data(locale));
    await ctx.reply(ctx.t("language-choose"), { reply_markup: keyboard });
  });

  composer.callbackQuery(CALLBACK.language.pattern, async (ctx) => {
    const tapped = CALLBACK.language.read(ctx).locale;
    await ctx.answerCallbackQuery();
    const locale = SUPPORTED_LOCALES.find((supported) => supported === tapped);
    if (locale !== undefined) await choose(ctx, locale);
  });
  return composer;
}
