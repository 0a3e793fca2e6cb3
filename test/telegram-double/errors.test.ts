import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, GrammyError } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BotApiDouble, startBotApiDouble } from "../support/chat.ts";

let double: BotApiDouble;
let bot: Bot;

beforeEach(async () => {
  double = await startBotApiDouble();
  bot = new Bot(double.token, { client: { apiRoot: double.apiRoot }, botInfo: double.botInfo });
  double.user(42);
});

afterEach(async () => {
  await double.close();
});

async function raw(path: string, body?: unknown) {
  const res = await fetch(`${double.apiRoot}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  return { status: res.status, body: await res.json() };
}

async function failure(call: Promise<unknown>): Promise<GrammyError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
  return error;
}

describe("the Bot API's answers to bad calls", () => {
  it("answers 404 Not Found for a method it does not know", async () => {
    expect(await raw(`/bot${double.token}/sendCarrierPigeon`)).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: "Not Found" },
    });
    const error = await failure(bot.api.raw.getBusinessAccountGifts({ business_connection_id: "x" }));
    expect(error.error_code).toBe(404);
  });

  it("answers 401 Unauthorized to any other token", async () => {
    expect(await raw("/bot123:wrong/getMe")).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: "Unauthorized" },
    });
  });

  it("treats method names case-insensitively, as Telegram does", async () => {
    expect((await raw(`/bot${double.token}/GETME`)).body).toMatchObject({
      ok: true,
      result: { username: "sandbox_exchange_bot" },
    });
  });

  it("refuses an empty text, an unknown chat and a missing chat_id", async () => {
    expect((await failure(bot.api.sendMessage(42, ""))).description).toBe(
      "Bad Request: message text is empty",
    );
    expect((await failure(bot.api.sendMessage(999, "hi"))).description).toBe("Bad Request: chat not found");
    expect((await raw(`/bot${double.token}/sendMessage`, { text: "hi" })).body).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: chat_id is empty",
    });
  });

  it("refuses callback data over 64 bytes and text-only inline buttons", async () => {
    const long = await failure(
      bot.api.sendMessage(42, "x", {
        reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "é".repeat(33) }]] },
      }),
    );
    expect(long.description).toBe("Bad Request: BUTTON_DATA_INVALID");
    const bare = await failure(
      bot.api.raw.sendMessage({
        chat_id: 42,
        text: "x",
        reply_markup: { inline_keyboard: [[{ text: "A" } as never]] },
      }),
    );
    expect(bare.description).toMatch(/^Bad Request: can't parse inline keyboard button/);
  });

  it("refuses broken HTML and unescaped MarkdownV2", async () => {
    const html = await failure(bot.api.sendMessage(42, "<b>bold", { parse_mode: "HTML" }));
    expect(html.description).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    const tag = await failure(bot.api.sendMessage(42, "1 < 2 <br>", { parse_mode: "HTML" }));
    expect(tag.description).toMatch(/^Bad Request: can't parse entities: Unsupported start tag/);
    const md = await failure(bot.api.sendMessage(42, "Price: 1.5", { parse_mode: "MarkdownV2" }));
    expect(md.description).toBe(
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    expect(double.stats.sent).toBe(0);
  });

  it("refuses an edit that changes nothing and an edit of an unknown message", async () => {
    const sent = await bot.api.sendMessage(42, "same");
    expect((await failure(bot.api.editMessageText(42, sent.message_id, "same"))).description).toMatch(
      /^Bad Request: message is not modified/,
    );
    expect((await failure(bot.api.editMessageText(42, 777, "x"))).description).toBe(
      "Bad Request: message to edit not found",
    );
  });

  it("keeps commands per scope and language", async () => {
    await bot.api.setMyCommands([{ command: "start", description: "Start" }]);
    await bot.api.setMyCommands([{ command: "start", description: "Starten" }], { language_code: "de" });
    await bot.api.setMyCommands([{ command: "balance", description: "Balance" }], {
      scope: { type: "chat", chat_id: 42 },
    });
    expect(await bot.api.getMyCommands()).toEqual([{ command: "start", description: "Start" }]);
    expect(await bot.api.getMyCommands({ language_code: "de" })).toEqual([
      { command: "start", description: "Starten" },
    ]);
    expect(await bot.api.getMyCommands({ scope: { type: "chat", chat_id: 42 } })).toEqual([
      { command: "balance", description: "Balance" },
    ]);
    expect(
      (await failure(bot.api.setMyCommands([{ command: "Bad-Name", description: "x" }]))).description,
    ).toBe("Bad Request: BOT_COMMAND_INVALID");
  });

  it("answers getChat, sendChatAction, sendDocument and setChatMenuButton", async () => {
    expect(await bot.api.getChat(42)).toMatchObject({ id: 42, type: "private" });
    expect(await bot.api.sendChatAction(42, "typing")).toBe(true);
    const doc = await bot.api.sendDocument(42, "https://example.com/statement.pdf");
    expect(doc.document).toMatchObject({ file_name: "statement.pdf", mime_type: "application/pdf" });
    expect(await bot.api.setChatMenuButton({ chat_id: 42, menu_button: { type: "commands" } })).toBe(true);
    expect(await bot.api.getChatMenuButton({ chat_id: 42 })).toEqual({ type: "commands" });
  });
});

describe("flood limits", () => {
  it("are off by default", async () => {
    for (let i = 0; i < 5; i++) await bot.api.sendMessage(42, `m${i}`);
    expect(double.stats).toEqual({ sent: 5, rateLimited: 0 });
  });

  it("answer 429 with retry_after past one message a second in a private chat", async () => {
    double.setLimits({});
    await bot.api.sendMessage(42, "first");
    const error = await failure(bot.api.sendMessage(42, "second"));
    expect(error.error_code).toBe(429);
    expect(error.description).toBe("Too Many Requests: retry after 1");
    expect(error.parameters.retry_after).toBe(1);
    expect(double.stats).toEqual({ sent: 1, rateLimited: 1 });
    // Another chat is not held up by the first one's limit.
    double.user(43);
    await expect(bot.api.sendMessage(43, "other chat")).resolves.toBeDefined();
  });

  it("answer 429 past the global limit, and auto-retry recovers", async () => {
    double.setLimits({ globalPerSecond: 3, perChatPerSecond: 100 });
    bot.api.config.use(autoRetry());
    const started = Date.now();
    const sent = await Promise.all([1, 2, 3, 4, 5].map((i) => bot.api.sendMessage(42, `m${i}`)));
    expect(sent.map((m) => m.text).sort()).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(double.stats.sent).toBe(5);
    expect(double.stats.rateLimited).toBeGreaterThanOrEqual(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const limited = double.calls.filter((c) => c.error?.error_code === 429);
    expect(limited[0]?.error).toEqual({
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
  });
});
