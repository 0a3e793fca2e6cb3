import { Api, Composer, Context, type Middleware } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { Feature, routeFeatures } from "../../src/bot/feature-router.ts";
import { BotApiDouble } from "../../src/telegram-double/double.ts";

// Only its bot info: the double is not started.
const me = new BotApiDouble({ botInfo: { username: "the_bot" } }).botInfo;
const chat = { id: 7, type: "private" as const, first_name: "U" };
const from = { id: 7, is_bot: false, first_name: "U" };

function text(
  body: string,
  entities?: Array<{ type: "bot_command"; offset: number; length: number }>,
): Update {
  return {
    update_id: 1,
    message: { message_id: 1, date: 0, chat, from, text: body, ...(entities ? { entities } : {}) },
  };
}
function command(body: string, length = body.split(" ")[0]?.length ?? 0): Update {
  return text(body, [{ type: "bot_command", offset: 0, length }]);
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

  it("skips the features that cannot take the update", async () => {
    expect(await run(command("/start"), true)).toEqual(["start"]);
    expect(await run(command("/price"), true)).toEqual(["any", "price asks"]);
    expect(await run(text("hello"), true)).toEqual(["any", "plain", "next"]);
    expect(await run(tap("set:b"), true)).toEqual(["any", "set:bc"]);
  });
});
