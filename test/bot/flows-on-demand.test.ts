/**
 * src/bot/runtime/flows-on-demand.ts against the real @grammyjs/conversations, over a real SQLite store and the Bot
 * API double: a flow is entered, resumed and exited across restarts (a new bot on the store file
 * the last one closed), and with no flow running the flows are not run at all.
 *
 * What it relies on from conversations 2.1, pinned here so an upgrade that changes it fails:
 * `ctx.conversation.active()` reads the chat's state before any conversation is registered; a
 * conversation's middleware with nothing to resume only registers itself and calls `next`;
 * `ctx.conversation.enter` is a property the middleware may replace, and entering a conversation
 * that was not registered on this update throws.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conversations, createConversation } from "@grammyjs/conversations";
import { Bot, Context, session } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotContext, Flow, FlowContext, PrivateContext, SessionData } from "../../src/bot/context.ts";
import { createI18n } from "../../src/bot/i18n.ts";
import { branchOn } from "../../src/bot/runtime/feature-router.ts";
import { flowsOnDemand } from "../../src/bot/runtime/flows-on-demand.ts";
import { Chain } from "../../src/bot/runtime/middleware-chain.ts";
import { Profiles } from "../../src/session/profiles.ts";
import { storageAdapter } from "../../src/store/adapter.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { type BotApiDouble, type Polling, startBotApiDouble, startPolling } from "../support/chat.ts";

/** One bot process's worth: a bot over the store file, polling the double. */
interface Running {
  store: Store;
  polling: Polling;
  /** How many times the flows (every conversation's middleware) ran, one per update they saw. */
  flowRuns: () => number;
}

async function startBot(double: BotApiDouble, file: string): Promise<Running> {
  const store = await openStore(`sqlite://${file}`);
  let runs = 0;
  const bot = new Bot<BotContext>(double.token, {
    client: { apiRoot: double.apiRoot },
    botInfo: double.botInfo,
  });
  const i18n = createI18n<BotContext>({ defaultLocale: "en", profiles: new Profiles(store) });
  const inPrivate = new Chain<PrivateContext>();
  bot.use(i18n);
  bot.use(branchOn<BotContext, PrivateContext>(Context.has.chatType("private"), inPrivate));
  inPrivate.use(
    session<SessionData, BotContext>({ initial: () => ({}), storage: storageAdapter(store, "s:") }),
  );
  inPrivate.use(
    conversations<BotContext, FlowContext>({
      storage: {
        type: "key",
        adapter: storageAdapter(store, "c:"),
        getStorageKey: (ctx) => ctx.chat?.id.toString(),
      },
    }),
  );
  // As cancelFeature: before the flows, so it is seen in the middle of one.
  inPrivate.command("cancel", async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.reply("Cancelled.");
  });
  const flows = new Chain<PrivateContext>();
  flows.use((_ctx, next) => {
    runs++;
    return next();
  });
  flows.use(
    createConversation(async (conversation: Flow, ctx: FlowContext) => {
      await ctx.reply("Your name?");
      const name = await conversation.waitFor("message:text");
      await ctx.reply("Your city?");
      const city = await conversation.waitFor("message:text");
      await ctx.reply(`Hello ${name.message.text} from ${city.message.text}.`);
    }, "greet"),
  );
  inPrivate.use(flowsOnDemand(flows));
  inPrivate.command("greet", (ctx) => ctx.conversation.enter("greet"));
  // What the features after the flows answer when no flow takes the update.
  inPrivate.on("message:text", (ctx) => ctx.reply(`Echo: ${ctx.message.text}`));
  const polling = await startPolling(bot, { timeout: 1 });
  return { store, polling, flowRuns: () => runs };
}

async function stopBot(running: Running): Promise<void> {
  await running.polling.stop();
  await running.store.close();
}

describe("flows on demand, with the real conversations plugin", () => {
  let double: BotApiDouble;
  let folder: string;
  beforeAll(async () => {
    double = await startBotApiDouble();
    folder = mkdtempSync(join(tmpdir(), "flows-on-demand-"));
  });
  afterAll(async () => {
    await double.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("enters, resumes and finishes a flow across two restarts; with none running the flows are not run", async () => {
    const file = join(folder, "finish.sqlite");
    const ada = double.user(101);

    let bot = await startBot(double, file);
    await ada.send("hello");
    await ada.waitForReply("Echo: hello");
    expect(bot.flowRuns()).toBe(0);
    await ada.send("/greet");
    await ada.waitForReply("Your name?");
    // Run once, on entering: to register the conversations just before enter.
    expect(bot.flowRuns()).toBe(1);
    await stopBot(bot);

    bot = await startBot(double, file);
    await ada.send("Ada");
    await ada.waitForReply("Your city?");
    expect(bot.flowRuns()).toBe(1);
    await stopBot(bot);

    bot = await startBot(double, file);
    await ada.send("Berlin");
    await ada.waitForReply("Hello Ada from Berlin.");
    // Finished: the next text is the features' again, and the flows are skipped.
    await ada.send("hello again");
    await ada.waitForReply("Echo: hello again");
    expect(bot.flowRuns()).toBe(1);
    await stopBot(bot);
    // Nothing was echoed while the flow ran: the flow saw the answers first.
    expect(ada.messages().map((m) => m.text)).not.toContain("Echo: Ada");
  });

  it("exits a flow entered before a restart, and what follows goes to the features", async () => {
    const file = join(folder, "exit.sqlite");
    const bob = double.user(102);

    let bot = await startBot(double, file);
    await bob.send("/greet");
    await bob.waitForReply("Your name?");
    await stopBot(bot);

    bot = await startBot(double, file);
    await bob.send("/cancel");
    await bob.waitForReply("Cancelled.");
    await stopBot(bot);

    bot = await startBot(double, file);
    await bob.send("Bob");
    await bob.waitForReply("Echo: Bob");
    expect(bot.flowRuns()).toBe(0);
    // Entered again from scratch: the old flow left nothing behind.
    await bob.send("/greet");
    await bob.waitForReply("Your name?");
    await stopBot(bot);
  });
});

describe("what flows on demand relies on in @grammyjs/conversations", () => {
  async function handle(build: (bot: Bot<BotContext>, seen: string[]) => void): Promise<string[]> {
    const double = await startBotApiDouble();
    const store = await openStore("memory://");
    try {
      const bot = new Bot<BotContext>(double.token, {
        client: { apiRoot: double.apiRoot },
        botInfo: double.botInfo,
      });
      bot.use(
        conversations<BotContext, FlowContext>({
          storage: { type: "key", adapter: storageAdapter(store, "c:") },
        }),
      );
      const seen: string[] = [];
      build(bot, seen);
      const chat = { id: 103, type: "private" as const, first_name: "C" };
      const from = { id: 103, is_bot: false, first_name: "C" };
      const text = "/go";
      const entities = [{ type: "bot_command" as const, offset: 0, length: text.length }];
      const update = { update_id: 1, message: { message_id: 1, date: 0, chat, from, text, entities } };
      await bot.handleUpdate(update).catch((error: unknown) => {
        seen.push(`error: ${(error as Error).message}`);
      });
      return seen;
    } finally {
      await store.close();
      await double.close();
    }
  }

  it("entering a conversation not registered on this update throws", async () => {
    const seen = await handle((bot, seen) => {
      bot.command("go", (ctx) => {
        seen.push(`active ${JSON.stringify(ctx.conversation.active())}`);
        return ctx.conversation.enter("greet");
      });
    });
    expect(seen[0]).toBe("active {}");
    expect(seen[1]).toMatch(/^error: .*greet/);
  });

  it("a conversation with nothing to resume registers itself and calls next once; enter can be replaced", async () => {
    const seen = await handle((bot, seen) => {
      const greet = createConversation<BotContext, FlowContext>(async (conversation) => {
        await conversation.wait();
      }, "greet");
      bot.command("go", async (ctx) => {
        const enter = ctx.conversation.enter;
        const replaced: typeof enter = (name, ...args) => enter(name, ...args);
        ctx.conversation.enter = replaced;
        seen.push(`replaced ${ctx.conversation.enter === replaced}`);
        await greet(ctx, async () => {
          seen.push("next");
        });
        await ctx.conversation.enter("greet");
        seen.push(`active ${JSON.stringify(ctx.conversation.active())}`);
      });
    });
    expect(seen).toEqual(["replaced true", "next", 'active {"greet":1}']);
  });
});
