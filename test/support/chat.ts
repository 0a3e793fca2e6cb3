/**
 * Chat-driving helpers for tests: the Bot API double from src/telegram-double (re-exported) plus
 * conveniences for starting a real grammY bot against it and shutting both down.
 *
 * @example
 * const double = await startBotApiDouble();
 * const bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
 * bot.command("start", (ctx) => ctx.reply("Hi!"));
 * const polling = await startPolling(bot);
 * const ada = double.user(42);
 * await ada.send("/start");
 * expect((await ada.waitForReply()).text).toBe("Hi!");
 * await polling.stop();
 * await double.close();
 */
import type { Bot, Context } from "grammy";

export * from "../../src/telegram-double/index.ts";

/** A bot polling the double with `bot.start()`. */
export interface Polling {
  /** Stops polling and waits until `bot.start()` has returned (its in-flight update handled). */
  stop(): Promise<void>;
  /** Settles when polling ends: rejects with the error that ended it (a 409 Conflict, say). */
  done: Promise<void>;
}

/**
 * Starts `bot.start()` and resolves once polling has begun (after deleteWebhook and getMe), so the
 * first update a test pushes is fetched by this bot. A short poll timeout keeps `stop()` quick.
 */
export async function startPolling<C extends Context>(
  bot: Bot<C>,
  options: { timeout?: number } = {},
): Promise<Polling> {
  let started: () => void = () => {};
  const onStart = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = bot.start({ timeout: options.timeout ?? 10, onStart: () => started() });
  // Mark as handled here: a test that expects polling to fail awaits `done` itself.
  done.catch(() => {});
  await Promise.race([onStart, done]);
  return {
    done,
    async stop() {
      if (bot.isRunning()) await bot.stop();
      await done.catch(() => {});
    },
  };
}
