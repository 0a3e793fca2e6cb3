import { run } from "@grammyjs/runner";
import { Bot, GrammyError, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BotApiDouble, startBotApiDouble, startPolling } from "../support/chat.ts";

let double: BotApiDouble;
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  double = await startBotApiDouble();
});

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await double.close();
});

/** A bot pointed at the double; it asks getMe itself unless told otherwise. */
function makeBot(withInfo = false): Bot {
  return new Bot(double.token, {
    client: { apiRoot: double.apiRoot },
    ...(withInfo ? { botInfo: double.botInfo } : {}),
  });
}

async function poll(bot: Bot) {
  const polling = await startPolling(bot, { timeout: 2 });
  stops.push(() => polling.stop());
  return polling;
}

describe("a real grammY bot polling the double", () => {
  it("gets a /start and its reply reaches the user's chat", async () => {
    const bot = makeBot();
    bot.command("start", (ctx) => ctx.reply(`Hello, ${ctx.from?.first_name}!`));
    await poll(bot);
    const ada = double.user(42, { firstName: "Ada" });

    await ada.send("/start");
    const reply = await ada.waitForReply();

    expect(reply.text).toBe("Hello, Ada!");
    expect(reply.chatId).toBe(42);
    expect(double.calls.map((c) => c.method)).toContain("getMe");
    expect(ada.messages().map((m) => m.text)).toEqual(["Hello, Ada!"]);
  });

  it("accepts the /command@botname form in groups", async () => {
    const bot = makeBot(true);
    bot.command("price", (ctx) => ctx.reply(`price of ${ctx.match}`));
    await poll(bot);
    const ada = double.user(42);

    await ada.sendInGroup("/price@sandbox_exchange_bot btc");
    const call = await double.waitForCall("sendMessage");

    expect(call.payload.text).toBe("price of btc");
    expect(call.chatId).toBeLessThan(0);
  });

  it("routes a button tap as a callback query, and shows edits and deletes", async () => {
    const bot = makeBot(true);
    bot.command("start", (ctx) =>
      ctx.reply("<b>Pick</b> one", {
        parse_mode: "HTML",
        reply_markup: {
          inline_keyboard: [
            [
              { text: "Confirm", callback_data: "c:1" },
              { text: "Cancel", callback_data: "x" },
            ],
          ],
        },
      }),
    );
    bot.callbackQuery("c:1", async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Done" });
      await ctx.editMessageText("Confirmed");
      await ctx.reply("temporary");
    });
    bot.hears("clean", async (ctx) => {
      await ctx.deleteMessage(); // the user's own message
      const last = ada.lastMessage();
      if (last) await ctx.api.deleteMessage(ctx.chat.id, last.messageId);
    });
    await poll(bot);
    const ada = double.user(42);

    await ada.send("/start");
    const card = await ada.waitForReply();
    expect(card.text).toBe("Pick one");
    expect(card.source).toBe("<b>Pick</b> one");
    expect(card.buttons).toEqual([["Confirm", "Cancel"]]);

    await expect(ada.tap("Nope")).rejects.toThrow(/\[Confirm\] \[Cancel\]/);
    const queryId = await ada.tap("Confirm");
    const answer = await ada.waitForCall("answerCallbackQuery");
    expect(answer.payload).toMatchObject({ callback_query_id: queryId, text: "Done" });
    const edited = await ada.waitForReply();
    expect(edited).toMatchObject({ messageId: card.messageId, text: "Confirmed", edited: true, buttons: [] });
    await ada.waitForReply("temporary");

    const clean = await ada.send("clean");
    await ada.waitForCall("deleteMessage", (c) => c.payload.message_id !== clean.message_id);
    expect(ada.deletedMessageIds()).toEqual([clean.message_id, card.messageId + 1]);
    expect(ada.messages().map((m) => m.text)).toEqual(["Confirmed"]);
  });

  it("answers a second answerCallbackQuery and unknown deletes like Telegram", async () => {
    const bot = makeBot(true);
    bot.command("start", (ctx) =>
      ctx.reply("x", { reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] } }),
    );
    const errors: string[] = [];
    bot.callbackQuery("a", async (ctx) => {
      await ctx.answerCallbackQuery();
      for (const attempt of [
        () => ctx.answerCallbackQuery(),
        () => ctx.api.deleteMessage(ctx.chat?.id ?? 0, 999),
      ]) {
        await attempt().catch((e: GrammyError) => errors.push(e.description));
      }
      await ctx.reply("done");
    });
    await poll(bot);
    const ada = double.user(42);
    await ada.send("/start");
    await ada.waitForReply();
    await ada.tap("A");
    await ada.waitForReply("done");
    expect(errors).toEqual([
      "Bad Request: query is too old and response timeout expired or query ID is invalid",
      "Bad Request: message to delete not found",
    ]);
  });

  it("records a photo uploaded from a Buffer with its size", async () => {
    const bot = makeBot(true);
    bot.command("qr", (ctx) =>
      ctx.replyWithPhoto(new InputFile(Buffer.alloc(2048, 7), "address.png"), {
        caption: "Your <code>BTC</code> address",
        parse_mode: "HTML",
        reply_markup: { inline_keyboard: [[{ text: "New address", callback_data: "new" }]] },
      }),
    );
    await poll(bot);
    const ada = double.user(42);

    await ada.send("/qr");
    const photo = await ada.waitForReply();

    expect(photo).toMatchObject({ kind: "photo", text: "Your BTC address", buttons: [["New address"]] });
    expect(photo.file).toEqual({
      filename: "address.png",
      size: 2048,
      mime: "application/octet-stream",
      // The bytes are kept: a test reads the file back.
      bytes: new Uint8Array(Buffer.alloc(2048, 7)),
    });
    const call = await ada.waitForCall("sendPhoto");
    expect(call.payload.photo).toEqual({
      filename: "address.png",
      size: 2048,
      mime: "application/octet-stream",
    });
    expect(call.payload.reply_markup).toEqual({
      inline_keyboard: [[{ text: "New address", callback_data: "new" }]],
    });
    expect(photo.message.photo?.at(-1)?.file_size).toBe(2048);
  });

  it("sends the user's language and a sticker the way Telegram does", async () => {
    const bot = makeBot(true);
    bot.on("message:sticker", (ctx) => ctx.reply(`sticker from ${ctx.from.language_code}`));
    await poll(bot);
    const max = double.user(7, { languageCode: "de" });
    await max.sendSticker();
    expect((await max.waitForReply()).text).toBe("sticker from de");
  });

  it("surfaces a blocked user as a GrammyError 403", async () => {
    const bot = makeBot(true);
    double.user(42);
    double.blockBot(42);
    const error = await bot.api.sendMessage(42, "alert!").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 403, description: "Forbidden: bot was blocked by the user" });
    double.unblockBot(42);
    await expect(bot.api.sendMessage(42, "hi again")).resolves.toMatchObject({ text: "hi again" });
  });

  it("ends the newer poller's rival with 409 Conflict, as Telegram does", async () => {
    const first = makeBot(true);
    const polling = await poll(first);
    await expect.poll(() => double.isPolling).toBe(true);

    const second = makeBot(true);
    await expect(second.api.getUpdates({ timeout: 0 })).resolves.toEqual([]);

    const error = await polling.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 409 });
    expect((error as GrammyError).description).toMatch(/^Conflict: terminated by other getUpdates request/);
  });

  it("stops cleanly: bot.stop() confirms the last update and bot.start() returns", async () => {
    const bot = makeBot(true);
    bot.on("message", (ctx) => ctx.reply("ok"));
    const polling = await poll(bot);
    const ada = double.user(42);
    await ada.send("one");
    await ada.waitForReply();

    await polling.stop();
    await expect(polling.done).resolves.toBeUndefined();
    expect(bot.isRunning()).toBe(false);
    expect(double.pendingUpdates).toBe(0);
    // A message after the stop waits for the next poller.
    await ada.send("two");
    expect(double.pendingUpdates).toBe(1);
  });

  it("works with @grammyjs/runner", async () => {
    const bot = makeBot(true);
    bot.command("start", (ctx) => ctx.reply("from runner"));
    const runner = run(bot);
    stops.push(async () => {
      if (runner.isRunning()) await runner.stop();
    });
    const ada = double.user(42);
    await ada.send("/start");
    expect((await ada.waitForReply()).text).toBe("from runner");
    await runner.stop();
    expect(runner.isRunning()).toBe(false);
  });

  it("delivers a redelivered update with the same update_id", async () => {
    const bot = makeBot(true);
    const seen: number[] = [];
    bot.on("message", (ctx) => {
      seen.push(ctx.update.update_id);
    });
    await poll(bot);
    const ada = double.user(42);
    await ada.send("hi");
    await double.waitUntilIdle();
    const id = seen[0] as number;
    double.redeliver(id);
    await double.waitUntilIdle();
    expect(seen).toEqual([id, id]);
  });
});

describe("getUpdates long polling over raw HTTP", () => {
  async function getUpdates(body: Record<string, unknown>) {
    const res = await fetch(`${double.apiRoot}/bot${double.token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { ok: boolean; result: { update_id: number }[] };
  }

  it("holds the request until an update arrives, and an offset confirms earlier updates", async () => {
    const ada = double.user(42);
    const pending = getUpdates({ timeout: 10 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await ada.send("x");
    const first = await pending;
    const id = first.result[0]?.update_id ?? 0;
    expect(first.result).toEqual([{ update_id: id, message: expect.objectContaining({ text: "x" }) }]);
    // Not confirmed yet: fetched again.
    expect((await getUpdates({})).result).toHaveLength(1);
    expect((await getUpdates({ offset: id + 1 })).result).toEqual([]);
    expect(double.pendingUpdates).toBe(0);
  });

  it("answers an empty list when the timeout runs out, and honours limit", async () => {
    const started = Date.now();
    expect((await getUpdates({ timeout: 1 })).result).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    for (let i = 0; i < 3; i++)
      double.pushUpdate({
        inline_query: {
          id: String(i),
          from: { id: 1, is_bot: false, first_name: "A" },
          query: "",
          offset: "",
        },
      });
    expect((await getUpdates({ limit: 2 })).result).toHaveLength(2);
  });
});
