/** Telegram: the bot's token, the Bot API's address, polling or a webhook, the default language. */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { required, url, withoutPlaceholder } from "./fields.ts";
import { parseSection } from "./section.ts";

const TOKEN_WHAT = "the token @BotFather gave you";
const LOCALES = ["en", "de"] as const;

function botSchema(strict: boolean) {
  // The sentence never repeats the token: it is a secret.
  const token = withoutPlaceholder(
    (strict ? required("BOT_TOKEN", TOKEN_WHAT) : z.string()).regex(/^\d+:[\w-]{20,}$/, {
      error: "BOT_TOKEN does not look like a bot token (digits, a colon, then letters).",
    }),
    "BOT_TOKEN",
    TOKEN_WHAT,
  );
  return z.object({
    BOT_TOKEN: strict ? token : token.optional(),
    BOT_MODE: z
      .enum(["polling", "webhook"], {
        error: (issue) => `BOT_MODE must be polling or webhook, not "${String(issue.input)}".`,
      })
      .prefault("polling"),
  });
}

/** Read after the webhook's variables (the order in which their sentences come: `../config.ts`). */
const localeSchema = z.object({
  DEFAULT_LOCALE: z
    .enum(LOCALES, {
      error: (issue) => `DEFAULT_LOCALE must be one of ${LOCALES.join(", ")}, not "${String(issue.input)}".`,
    })
    .prefault("en"),
  TELEGRAM_API_ROOT: url(z.string(), "TELEGRAM_API_ROOT", ["https:", "http:"]).prefault(
    "https://api.telegram.org",
  ),
});

/** Webhook mode only: where Telegram calls, and the secret it sends along. */
const webhookSchema = z.object({
  WEBHOOK_SECRET: required(
    "WEBHOOK_SECRET",
    "a secret of 1-256 letters, digits, _ or - (webhook mode refuses to run without it)",
  ).regex(/^[\w-]{1,256}$/, {
    error: "WEBHOOK_SECRET may hold only letters, digits, _ and -, 1 to 256 of them.",
  }),
  WEBHOOK_URL: url(required("WEBHOOK_URL", "the public https URL Telegram should call"), "WEBHOOK_URL", [
    "https:",
    "http:",
  ]),
});

/** `strict` (npm start) needs the token; the demo and tests bring their own Bot API. */
export function telegramSection(
  env: Env,
  strict: boolean,
): Pick<Config, "botToken" | "telegramApiRoot" | "botMode" | "webhook" | "defaultLocale"> {
  const read = parseSection(botSchema(strict), env);
  const webhook = read.BOT_MODE === "webhook" ? parseSection(webhookSchema, env) : undefined;
  const { DEFAULT_LOCALE, TELEGRAM_API_ROOT } = parseSection(localeSchema, env);
  return {
    botToken: read.BOT_TOKEN,
    telegramApiRoot: TELEGRAM_API_ROOT,
    botMode: read.BOT_MODE,
    webhook: webhook && { url: webhook.WEBHOOK_URL, secret: webhook.WEBHOOK_SECRET },
    defaultLocale: DEFAULT_LOCALE,
  };
}
