/**
 * The contract between `Chain` (src/bot/runtime/middleware-chain.ts) and grammY's Composer: the same middleware
 * tree, built once on a `Chain` and once on a `Composer`, runs the same handlers in the same order
 * with the same `ctx.match` for every update of a table. `Chain` overrides `use`, `filter` and
 * `errorBoundary` and inherits the rest (`on`, `hears`, `drop`, `fork`, `route`, `lazy`, `branch`,
 * `command`, `callbackQuery`, `chatType`) from grammY, built on those three: a grammY upgrade that
 * builds them differently fails here.
 *
 * Where `Chain` differs on purpose, a test below says so: a synchronous filter decides in the same
 * tick (grammY's `filter` always awaits), so a `fork` interleaves differently with what follows
 * it; and `next()` hands back the promise of the step after it, not a fresh `Promise<void>`.
 */
import { Api, type Composer, Context, Composer as GrammyComposer, type MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { Feature } from "../../src/bot/runtime/feature-router.ts";
import { Chain } from "../../src/bot/runtime/middleware-chain.ts";
import { BotApiDouble } from "../../src/telegram-double/double.ts";

// Only its bot info: the double is not started.
const me = new BotApiDouble({ botInfo: { username: "the_bot" } }).botInfo;
const user = { id: 7, is_bot: false, first_name: "U" };
const privateChat = { id: 7, type: "private" as const, first_name: "U" };
const group = { id: -5, type: "group" as const, title: "G" };
const channel = { id: -100, type: "channel" as const, title: "C" };

function message(text: string, chat: typeof privateChat | typeof group = privateChat): Update {
  const entities = text.startsWith("/")
    ? [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]?.length ?? 0 }]
    : undefined;
  return {
    update_id: 1,
    message: { message_id: 1, date: 0, chat, from: user, text, ...(entities ? { entities } : {}) },
  };
}

const UPDATES: Array<[string, Update]> = [
  ["text in private", message("hello")],
  ["text in a group", message("hello", group)],
  ["text hears matches", message("hi there")],
  ["a command", message("/start now")],
  ["a command that throws", message("/boom")],
  ["a command in a group", message("/start", group)],
  ["lazy picks a list", message("lazy")],
  [
    "a tap routed to a",
    { update_id: 1, callback_query: { id: "q", from: user, chat_instance: "c", data: "a:12" } },
  ],
  [
    "a tap routed to b",
    { update_id: 1, callback_query: { id: "q", from: user, chat_instance: "c", data: "b:x" } },
  ],
  [
    "a tap no route takes",
    { update_id: 1, callback_query: { id: "q", from: user, chat_instance: "c", data: "z" } },
  ],
  [
    "an edited message",
    {
      update_id: 1,
      edited_message: {
        message_id: 1,
        date: 0,
        edit_date: 1,
        chat: privateChat,
        from: user,
        text: "hi edit",
      },
    },
  ],
  [
    "a channel post",
    { update_id: 1, channel_post: { message_id: 1, date: 0, chat: channel, text: "hi all" } },
  ],
  ["an inline query", { update_id: 1, inline_query: { id: "i", from: user, query: "btc", offset: "" } }],
];

/** Logs what each middleware saw; `forked` gets what the fork ran (it runs beside the rest). */
function build(root: Composer<Context>, seen: string[], forked: string[]): void {
  const step =
    (name: string): MiddlewareFn<Context> =>
    async (ctx, next) => {
      seen.push(ctx.match === undefined || ctx.match === "" ? name : `${name} ${String(ctx.match)}`);
      await next();
    };
  root.use(async (_ctx, next) => {
    seen.push("outer in");
    await next();
    seen.push("outer out");
  });
  const guarded = root.errorBoundary(async (error, next) => {
    seen.push(`boundary ${(error.error as Error).message}`);
    await next();
  });
  guarded.on("message:text", step("on text"));
  guarded.on(["callback_query:data", "edited_message"], step("on tap or edit"));
  guarded.on("channel_post").use(step("on channel post"));
  guarded.hears(/^hi (\w+)/, async (ctx, next) => {
    seen.push(`hears ${ctx.match[1]}`);
    await next();
  });
  guarded.drop((ctx) => ctx.chat?.type === "private", step("dropped private"));
  guarded.drop(async (ctx) => ctx.inlineQuery !== undefined, step("dropped inline"));
  guarded.fork((ctx) => void forked.push(`fork ${ctx.update.update_id}`));
  guarded.route(
    (ctx) => {
      const head = ctx.callbackQuery?.data?.split(":")[0];
      return head === "a" || head === "b" ? head : undefined;
    },
    { a: step("route a"), b: new GrammyComposer(step("route b1"), step("route b2")) },
    step("route fallback"),
  );
  guarded.route(async (ctx) => (ctx.inlineQuery ? "inline" : undefined), { inline: step("route inline") });
  guarded.lazy((ctx) => (ctx.msg?.text === "lazy" ? [step("lazy 1"), step("lazy 2")] : step("lazy one")));
  guarded.lazy(async () => []);
  guarded.command("boom", () => {
    throw new Error("boom");
  });
  guarded.command("start", step("start"));
  guarded.callbackQuery(/^a:(\d+)/, async (ctx, next) => {
    seen.push(`tap ${ctx.match[1]}`);
    await next();
  });
  guarded.chatType("group", step("in group"));
  guarded.branch((ctx) => ctx.from?.id === 7, step("branch yes"), step("branch no"));
  guarded.filter(async (ctx) => ctx.has("message"), step("async filter"));
  const later = guarded.filter((ctx) => ctx.has("message"));
  root.use(step("after"));
  // Registered after everything else was built: a filter's composer still takes it.
  later.use(step("later"));
}

async function runOn(root: Composer<Context>, update: Update): Promise<{ seen: string[]; forked: string[] }> {
  const seen: string[] = [];
  const forked: string[] = [];
  build(root, seen, forked);
  await root.middleware()(new Context(update, new Api("0:x"), me), async () => {
    seen.push("next");
  });
  return { seen, forked };
}

describe("Chain against grammY's Composer", () => {
  it.each(UPDATES)("%s: the same handlers in the same order, with the same match", async (_, update) => {
    const grammy = await runOn(new GrammyComposer<Context>(), update);
    const ours = await runOn(new Chain<Context>(), update);
    expect(ours).toEqual(grammy);
    // A Feature (runtime/feature-router.ts) is a Chain that records its commands and taps: the same.
    expect(await runOn(new Feature<Context>(), update)).toEqual(grammy);
    // The table is not empty of meaning: every update went in and came out.
    expect(grammy.seen[0]).toBe("outer in");
    expect(grammy.seen.at(-1)).toBe("outer out");
    expect(grammy.forked).toEqual(["fork 1"]);
  });

  it("the error boundary catches what a handler throws, and its next() goes on after the boundary", async () => {
    for (const root of [new GrammyComposer<Context>(), new Chain<Context>()]) {
      const { seen } = await runOn(root, message("/boom"));
      expect(seen.slice(seen.indexOf("boundary boom"))).toEqual([
        "boundary boom",
        "after",
        "next",
        "outer out",
      ]);
    }
  });

  it("an error outside any boundary rejects the update in both", async () => {
    for (const root of [new GrammyComposer<Context>(), new Chain<Context>()]) {
      root.on("message", () => {
        throw new Error("unguarded");
      });
      await expect(
        root.middleware()(new Context(message("x"), new Api("0:x"), me), async () => {}),
      ).rejects.toThrow("unguarded");
    }
  });
});

describe("where Chain differs from grammY on purpose", () => {
  /** A fork beside a synchronous filter: which of the two writes first. */
  async function interleaving(root: Composer<Context>): Promise<string[]> {
    const seen: string[] = [];
    root.fork(() => void seen.push("fork"));
    root.filter(
      () => true,
      () => void seen.push("filter"),
    );
    await root.middleware()(new Context(message("x"), new Api("0:x"), me), async () => {});
    return seen;
  }

  it("a synchronous filter decides in the same tick: a fork's work comes after the filter's, not before", async () => {
    // grammY's filter awaits its predicate (branch → lazy), so the fork started beside it runs first.
    expect(await interleaving(new GrammyComposer<Context>())).toEqual(["fork", "filter"]);
    // Chain runs the filter's middleware at once; nothing in the bot orders work across a fork.
    expect(await interleaving(new Chain<Context>())).toEqual(["filter", "fork"]);
  });

  it("next() hands back the promise of the step after it; grammY's resolves to undefined", async () => {
    const resolvedTo = async (root: Composer<Context>) => {
      let value: unknown = "not called";
      root.use(async (_ctx, next) => {
        value = await next();
      });
      root.use(() => Promise.resolve("a message"));
      await root.middleware()(new Context(message("x"), new Api("0:x"), me), async () => {});
      return value;
    };
    expect(await resolvedTo(new GrammyComposer<Context>())).toBeUndefined();
    // No promise per step to drop the value: no middleware of the bot reads what next() resolves to.
    expect(await resolvedTo(new Chain<Context>())).toBe("a message");
  });
});
