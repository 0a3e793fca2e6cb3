import { Api, Composer, Context, type Middleware } from "grammy";
import type { MessageEntity, Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { Feature, routeFeatures } from "../../src/bot/runtime/feature-router.ts";
import { BotApiDouble } from "../../src/telegram-double/double.ts";

// Only its bot info: the double is not started.
const me = new BotApiDouble({ botInfo: { username: "the_bot" } }).botInfo;
const chat = { id: 7, type: "private" as const, first_name: "U" };
const from = { id: 7, is_bot: false, first_name: "U" };

function text(body: string, entities?: MessageEntity[]): Update {
  return {
    update_id: 1,
    message: { message_id: 1, date: 0, chat, from, text: body, ...(entities ? { entities } : {}) },
  };
}
function command(body: string, length = body.split(" ")[0]?.length ?? 0): Update {
  return text(body, [{ type: "bot_command", offset: 0, length }]);
}
/** A command `name` at offset 0 of a caption, an edited message or a channel post. */
function elsewhere(where: "caption" | "edited" | "channel", body: string): Update {
  const entities = [{ type: "bot_command" as const, offset: 0, length: body.split(" ")[0]?.length ?? 0 }];
  switch (where) {
    case "caption":
      return {
        update_id: 1,
        message: {
          message_id: 1,
          date: 0,
          chat,
          from,
          photo: [{ file_id: "f", file_unique_id: "u", width: 1, height: 1 }],
          caption: body,
          caption_entities: entities,
        },
      };
    case "edited":
      return {
        update_id: 1,
        edited_message: { message_id: 1, date: 0, edit_date: 1, chat, from, text: body, entities },
      };
    case "channel":
      return {
        update_id: 1,
        channel_post: {
          message_id: 1,
          date: 0,
          chat: { id: -100, type: "channel", title: "C" },
          text: body,
          entities,
        },
      };
  }
}
function tap(data: string): Update {
  return {
    update_id: 1,
    callback_query: { id: "q", from, chat_instance: "c", data, message: { message_id: 1, date: 0, chat } },
  };
}

/** The features of a small bot; each handler writes what it saw into `seen`. */
function features(seen: string[]): Array<Middleware<Context>> {
  const start = new Feature<Context>();
  start.command("start", () => void seen.push("start"));
  const price = new Feature<Context>();
  // Steps aside without an argument, as features/prices.ts does.
  price.command("price", (ctx, next) => (ctx.match === "" ? next() : void seen.push(`price ${ctx.match}`)));
  const prices = new Feature<Context>();
  prices.use(price);
  prices.command("price", () => void seen.push("price asks"));
  prices.callbackQuery(/^pr:(\w+)$/, (ctx) => void seen.push(`pr ${ctx.match[1]}`));
  const anything = new Feature<Context>();
  anything.use((_ctx, next) => {
    seen.push("any");
    return next();
  });
  anything.command("alerts", () => void seen.push("alerts"));
  const plain = new Composer<Context>();
  plain.on("message:text", (_ctx, next) => {
    seen.push("plain");
    return next();
  });
  const settings = new Feature<Context>();
  settings.callbackQuery("set:a", () => void seen.push("set:a"));
  settings.callbackQuery(["set:b", /^set:c/], () => void seen.push("set:bc"));
  return [start, anything, prices, plain, settings];
}

async function run(update: Update, routed: boolean): Promise<string[]> {
  const seen: string[] = [];
  const list = features(seen);
  const mw = routed ? routeFeatures(list) : new Composer(...list).middleware();
  await mw(new Context(update, new Api("0:x"), me), async () => {
    seen.push("next");
  });
  return seen;
}

describe("routeFeatures", () => {
  const updates: Array<[string, Update]> = [
    ["a command", command("/start")],
    ["a command addressed to the bot", command("/start@the_bot", "/start@the_bot".length)],
    ["a command addressed to another bot", command("/start@other_bot", "/start@other_bot".length)],
    ["a command one feature steps aside from", command("/price")],
    ["a command with an argument", command("/price btc")],
    ["a command of a feature that takes anything", command("/alerts")],
    ["an unknown command", command("/nope")],
    ["a command not at the start", text("see /start", [{ type: "bot_command", offset: 4, length: 6 }])],
    ["text", text("hello")],
    ["a deep link (/start payload)", command("/start ref-42")],
    ["a deep link addressed to the bot", command("/start@the_bot ref-42", "/start@the_bot".length)],
    ["a command addressed to the bot in other case", command("/price@THE_BOT btc", "/price@THE_BOT".length)],
    ["a command in other case", command("/START")],
    ["a command in a caption", elsewhere("caption", "/start")],
    ["a command with an argument in a caption", elsewhere("caption", "/price btc")],
    ["a command in an edited message", elsewhere("edited", "/price btc")],
    ["a command in a channel post", elsewhere("channel", "/price btc")],
    ["a command in a channel post addressed to another bot", elsewhere("channel", "/start@other_bot")],
    [
      "a command under another entity at offset 0",
      text("/price btc", [
        { type: "bold", offset: 0, length: 10 },
        { type: "bot_command", offset: 0, length: 6 },
      ]),
    ],
    ["a tap by regex", tap("pr:btc")],
    ["a tap by string", tap("set:a")],
    ["a tap by a list", tap("set:c1")],
    ["a tap nobody takes", tap("zz")],
  ];

  it.each(updates)(
    "runs %s through the same handlers, in the same order, as the whole composer",
    async (_, update) => {
      expect(await run(update, true)).toEqual(await run(update, false));
    },
  );

  it("grammY's command matching, which the routes mirror, is what it was", () => {
    // Features register commands through grammY's own filter (Context.has.command); the router only
    // picks who to ask. These are the answers of that filter the routes were written against.
    const has = (update: Update) => {
      const ctx = new Context(update, new Api("0:x"), me);
      return Context.has.command(["start", "price"])(ctx) ? ctx.match : false;
    };
    expect(has(command("/start ref-42"))).toBe("ref-42");
    expect(has(command("/start@the_bot ref-42", "/start@the_bot".length))).toBe("ref-42");
    // The bot's name in any case; the command's own name only as registered.
    expect(has(command("/price@THE_BOT btc", "/price@THE_BOT".length))).toBe("btc");
    expect(has(command("/START"))).toBe(false);
    expect(has(command("/start@other_bot", "/start@other_bot".length))).toBe(false);
    // Channel posts are commands; captions and edited messages never are.
    expect(has(elsewhere("channel", "/price btc"))).toBe("btc");
    expect(has(elsewhere("caption", "/start"))).toBe(false);
    expect(has(elsewhere("edited", "/price btc"))).toBe(false);
    // Only a bot_command entity at offset 0, whatever entity comes first.
    expect(has(text("see /start", [{ type: "bot_command", offset: 4, length: 6 }]))).toBe(false);
  });

  it("skips the features that cannot take the update", async () => {
    expect(await run(command("/start"), true)).toEqual(["start"]);
    expect(await run(command("/price"), true)).toEqual(["any", "price asks"]);
    expect(await run(text("hello"), true)).toEqual(["any", "plain", "next"]);
    expect(await run(tap("set:b"), true)).toEqual(["any", "set:bc"]);
  });

  it("a feature that would get a command, a tap or middleware after it was routed says so at once", () => {
    // grammY's Composer would run what is added later; the routes are made when routeFeatures is
    // called, so the router would silently skip it. Refused instead, as is growing a feature
    // already used inside another one (whose routes copied the inner feature's).
    const late = new Feature<Context>();
    late.command("start", () => undefined);
    routeFeatures([late]);
    expect(() => late.command("help", () => undefined)).toThrow(/after it was routed/);
    expect(() => late.callbackQuery("x", () => undefined)).toThrow(/after it was routed/);
    expect(() => late.on("message", () => undefined)).toThrow(/after it was routed/);
    const inner = new Feature<Context>();
    new Feature<Context>().use(inner);
    expect(() => inner.command("help", () => undefined)).toThrow(/after it was routed/);
  });
});
