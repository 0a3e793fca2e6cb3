/**
 * The words every layer shares for a sentence: `Translate` is a locale's lookup (grammY's `ctx.t`
 * in the bot, the Notifier's renderer for messages the bot starts itself, the Mini App page), and a
 * `Refusal` is a sentence not yet worded (a locale key and its variables), for code that decides
 * what to say without a locale at hand.
 */

export type Translate = (key: string, variables?: Record<string, string | number>) => string;

export interface Refusal {
  key: string;
  vars?: Record<string, string | number>;
}
