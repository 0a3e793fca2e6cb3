/**
 * How a placed (or refused) order ended, told in its kind's sentences: after a Confirm that needs
 * no secret (features/orders.ts) and after the code or PIN step (flows/order-code.ts).
 */
import type { PlaceResult } from "../../orders/place.ts";
import type { BotContext, FlowContext } from "../context.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import { cardParseMode, outcomeVars, refusalText, wordsOf } from "../ui/order-card.ts";
import { withPhishingLine } from "../ui/phishing.ts";

/**
 * Tells the user how a placed (or refused) order ended, in its kind's sentences. An outcome of a
 * money action carries the user's anti-phishing phrase (`phrase`), like its card.
 */
export async function tellOutcome(
  ctx: BotContext | FlowContext,
  result: PlaceResult,
  phrase: string | undefined,
): Promise<void> {
  const kind = result.action?.kind;
  const words = wordsOf(kind);
  const parseMode = kind === undefined ? undefined : cardParseMode(kind);
  const options = parseMode ? { parse_mode: parseMode } : {};
  const locale = await ctx.i18n.getLocale();
  const signed = (text: string) => withPhishingLine(ctx.t, phrase, text, { html: parseMode === "HTML" });
  switch (result.kind) {
    case "placed":
      await ctx.reply(signed(ctx.t(words.placed, outcomeVars(ctx.t, result.action, locale))), options);
      return;
    case "unknown":
      await ctx.reply(signed(ctx.t(words.unknown, outcomeVars(ctx.t, result.action, locale))), options);
      return;
    case "failed":
      if (result.loginNeeded) {
        await ctx.reply(
          ctx.t(words.loginNeeded),
          words.loginButton ? { reply_markup: loginKeyboard(ctx.t) } : {},
        );
        return;
      }
      // The exchange's reason (undocumented, English, often an HTTP reason phrase) stays in the
      // ledger and the log; the sentence says what the user can check.
      await ctx.reply(signed(ctx.t(words.failed)), options);
      return;
    case "guarded":
      await ctx.reply(refusalText(ctx.t, result.refusal, locale));
      return;
    case "code-rejected":
    case "pin-refused":
    case "refused":
      await ctx.reply(ctx.t(words.sentAlready));
      return;
  }
}
