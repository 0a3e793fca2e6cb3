import { Api, Composer, Context, type MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { Feature } from "../../src/bot/runtime/feature-router.ts";
import { Chain, chain } from "../../src/bot/runtime/middleware-chain.ts";
import { BotApiDouble } from "../../src/telegram-double/double.ts";

// Only its bot info: the double is not started.
const me = new BotApiDouble({ botInfo: { username: "the_bot" } }).botInfo;
const chat = { id: 7, type: "private" as const, first_name: "U" };
const from = { id: 7, is_bot: false, first_name: "U" };

function context(text = "hello"): Context {
  const entities = text.startsWith("/")
    ? [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]?.length ?? 0 }]
    : undefined;
  const update: Update = {
    update_id: 1,
    message: { message_id: 1, date: 0, chat, from, text, ...(entities ? { entities } : {}) },
  };
  return new Context(update, new Api("0:x"), me);
}

/** Runs `mw` on a context; `seen` gets "next" when the update leaves it through next(). */
async function run(mw: MiddlewareFn<Context>, seen: string[], ctx = context()): Promise<void> {
  await mw(ctx, async () => {
    seen.push("next");
  });
}

function mark(seen: string[], name: string): MiddlewareFn<Context> {
  return async (_ctx, next) => {
    seen.push(`${name} in`);
    await next();
    seen.push(`${name} out`);
  };
}

describe("chain", () => {
  it("runs the middleware in order, each around the rest, then the caller's next", async () => {
    const seen: string[] = [];
    await run(chain([mark(seen, "a"), mark(seen, "b")]), seen);
    expect(seen).toEqual(["a in", "b in", "next", "b out", "a out"]);
  });

  it("an empty chain passes straight on", async () => {
    const seen: string[] = [];
    await run(chain([]), seen);
    expect(seen).toEqual(["next"]);
  });

  it("stops where a middleware does not call next", async () => {
    const seen: string[] = [];
    const stop: MiddlewareFn<Context> = () => void seen.push("stop");
    await run(chain([mark(seen, "a"), stop, mark(seen, "b")]), seen);
    expect(seen).toEqual(["a in", "stop", "a out"]);
  });

  it("a synchronous middleware's next still returns a promise", async () => {
    const seen: string[] = [];
    let got: unknown;
    const outer: MiddlewareFn<Context> = (_ctx, next) => {
      const promise = next();
      got = promise;
      return promise;
    };
    const sync: MiddlewareFn<Context> = () => void seen.push("sync");
    await run(chain([outer, sync]), seen);
    expect(got).toBeInstanceOf(Promise);
    expect(seen).toEqual(["sync"]);
  });

  it("rejects with what a middleware throws, synchronously or not, and the one before sees it", async () => {
    for (const failing of [
      (): never => {
        throw new Error("boom");
      },
      async (): Promise<never> => {
        throw new Error("boom");
      },
    ]) {
      const seen: string[] = [];
      const catcher: MiddlewareFn<Context> = async (_ctx, next) => {
        try {
          await next();
        } catch (error) {
          seen.push(`caught ${(error as Error).message}`);
          throw error;
        }
      };
      const result = chain([catcher, failing, mark(seen, "never")])(context(), async () => {});
      await expect(result).rejects.toThrow("boom");
      expect(seen).toEqual(["caught boom"]);
    }
  });

  it("calling next twice fails, as in grammY", async () => {
    const twice: MiddlewareFn<Context> = async (_ctx, next) => {
      await next();
      await next();
    };
    const seen: string[] = [];
    await expect(run(chain([twice]), seen)).rejects.toThrow("`next` already called before!");
    expect(seen).toEqual(["next"]);
  });

  it("a Composer in the list runs what it got after the chain was built", async () => {
    const seen: string[] = [];
    const later = new Composer<Context>();
    const later2 = new Chain<Context>();
    const list = [later, later2];
    const mw = chain(list);
    later.use(mark(seen, "a"));
    later2.use(mark(seen, "b"));
    await run(mw, seen);
    expect(seen).toEqual(["a in", "b in", "next", "b out", "a out"]);
  });
});

describe("Chain", () => {
  it("use() appends in order and returns a composer that can still be extended", async () => {
    const seen: string[] = [];
    const composer = new Chain<Context>();
    const first = composer.use(mark(seen, "a"));
    composer.use(mark(seen, "b"), mark(seen, "c"));
    first.use(mark(seen, "a2"));
    await run(composer.middleware(), seen);
    expect(seen).toEqual(["a in", "a2 in", "b in", "c in", "next", "c out", "b out", "a2 out", "a out"]);
  });

  it("filter runs its middleware only when the predicate holds, synchronous or async", async () => {
    for (const answer of [true, false]) {
      for (const predicate of [() => answer, async () => answer]) {
        const seen: string[] = [];
        const composer = new Chain<Context>();
        composer.filter(predicate, mark(seen, "in"));
        await run(composer.middleware(), seen);
        expect(seen).toEqual(answer ? ["in in", "next", "in out"] : ["next"]);
      }
    }
  });

  it("a predicate that throws or rejects rejects the update", async () => {
    for (const predicate of [
      (): boolean => {
        throw new Error("no");
      },
      async (): Promise<boolean> => {
        throw new Error("no");
      },
    ]) {
      const composer = new Chain<Context>();
      composer.filter(predicate, () => undefined);
      await expect(run(composer.middleware(), [])).rejects.toThrow("no");
    }
  });

  it("command() sets ctx.match and steps aside for other commands", async () => {
    const seen: string[] = [];
    const composer = new Chain<Context>();
    composer.command("price", (ctx) => void seen.push(`price ${ctx.match}`));
    await run(composer.middleware(), seen, context("/price btc"));
    await run(composer.middleware(), seen, context("/start"));
    expect(seen).toEqual(["price btc", "next"]);
  });

  it("errorBoundary: an error from inside reaches the handler, which may pass on", async () => {
    const seen: string[] = [];
    const composer = new Chain<Context>();
    const guarded = composer.errorBoundary(async (error, next) => {
      seen.push(`handled ${(error.error as Error).message}`);
      await next();
    });
    guarded.use(mark(seen, "a"));
    guarded.command("start", () => {
      throw new Error("boom");
    });
    composer.use(mark(seen, "after"));
    await run(composer.middleware(), seen, context("/start"));
    expect(seen).toEqual(["a in", "handled boom", "after in", "next", "after out"]);
  });
});

describe("Feature", () => {
  it("records commands, taps and what takes anything, and runs them as grammY's Composer would", async () => {
    const build = (composer: Composer<Context>, seen: string[]) => {
      composer.use(mark(seen, "any"));
      composer.command(["start", "go"], (ctx, next) => (ctx.match === "" ? next() : void seen.push("start")));
      composer.callbackQuery(/^x:/, () => void seen.push("tap"));
      composer.on("message:text", mark(seen, "text"));
      composer.hears(/^he/, async (_ctx, next) => {
        seen.push("hears");
        await next();
      });
    };
    const feature = new Feature<Context>();
    build(feature, []);
    expect([...feature.commands]).toEqual(["start", "go"]);
    expect(feature.callbacks).toEqual([/^x:/]);
    expect(feature.takesAny).toBe(true);

    for (const text of ["/start now", "/start", "hello", "other"]) {
      const flat: string[] = [];
      const plain: string[] = [];
      const f = new Feature<Context>();
      build(f, flat);
      const c = new Composer<Context>();
      build(c, plain);
      await run(f.middleware(), flat, context(text));
      await run(c.middleware(), plain, context(text));
      expect(flat).toEqual(plain);
    }
  });

  it("a command's own predicate only: no takesAny", () => {
    const feature = new Feature<Context>();
    feature.command("help", () => undefined);
    feature.callbackQuery("a", () => undefined);
    expect(feature.takesAny).toBe(false);
  });
});
