import type { SentMessage } from "../../src/telegram-double/state.ts";
import type { Harness } from "../support/harness.ts";

/** The text the bot answered a callback query with (waits until it is answered). */
export async function answerOf(h: Harness, queryId: string, timeoutMs = 5000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const query = h.telegram.world.callbackQueries.get(queryId);
    if (query?.answered) return String((query.answer as { text?: unknown } | undefined)?.text ?? "");
    if (Date.now() > until) throw new Error(`Callback query ${queryId} was not answered.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The action id on a quote card (its Confirm button's callback data). */
export function actionIdOf(card: SentMessage): string {
  const markup = card.replyMarkup as { inline_keyboard?: { callback_data?: string }[][] } | undefined;
  const data = markup?.inline_keyboard
    ?.flat()
    .find((b) => b.callback_data?.startsWith("trade:c:"))?.callback_data;
  if (data === undefined) throw new Error("No Confirm button on this message.");
  return data.slice("trade:c:".length);
}
