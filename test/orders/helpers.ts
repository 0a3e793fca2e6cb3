import type { Update } from "grammy/types";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import type { SentMessage } from "../../src/telegram-double/state.ts";
import type { Harness } from "../support/harness.ts";
import { savedLongAgo } from "../support/safety.ts";

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
    .find((b) => b.callback_data?.startsWith("ord:c:"))?.callback_data;
  if (data === undefined) throw new Error("No Confirm button on this message.");
  return data.slice("ord:c:".length);
}

/**
 * A tap on `data` of message `messageId`, pushed like FakeUser.tapData but returning the update too
 * (its update_id for `redeliver`, the update itself for `bot.handleUpdate` on another instance).
 */
export function pushTap(
  h: Harness,
  user: FakeUser,
  messageId: number,
  data: string,
  options: { push?: boolean } = {},
): { queryId: string; updateId: number; update: Update } {
  const stored = user.state.messages.get(messageId);
  if (stored === undefined) throw new Error(`No message ${messageId} in chat ${user.id}.`);
  const world = h.telegram.world;
  const queryId = world.queryId();
  world.callbackQueries.set(queryId, { userId: user.id, chatId: user.id, answered: false });
  const body = {
    callback_query: {
      id: queryId,
      from: user.from,
      message: structuredClone(stored.message),
      chat_instance: String(user.id * 7 + 1),
      data,
    },
  };
  if (options.push === false) {
    const update = { update_id: 900_000_000 + Number(queryId.replace(/\D/g, "").slice(-6) || 0), ...body };
    return { queryId, updateId: update.update_id, update: update as Update };
  }
  const updateId = h.telegram.pushUpdate(body as never);
  return { queryId, updateId, update: { update_id: updateId, ...body } as Update };
}

/** Matches a live quote card (with its buttons: an edited old card has none), optionally by its text. */
export function liveCard(pattern: RegExp = /your quote|dein Angebot/): (m: SentMessage) => boolean {
  return (m) => pattern.test(m.text) && m.buttons.length > 0;
}

/**
 * /send of `amount` BTC to `address`, through the flow's steps as a person would, up to the card.
 * The address is saved first, past its cooling-off (the allowlist is on for every new user).
 */
export async function toSendCard(
  h: Pick<Harness, "deps" | "clock">,
  user: FakeUser,
  address: string,
  amount: string,
): Promise<SentMessage> {
  await savedLongAgo(h, user.id, "btc", address);
  await user.send("/send");
  await user.waitForReply(/Which currency/);
  await user.tap("BTC");
  await user.waitForReply(/BTC address/);
  await user.send(address);
  await user.waitForReply(/How much BTC/);
  await user.send(amount);
  return user.waitForReply(/Send BTC/);
}
