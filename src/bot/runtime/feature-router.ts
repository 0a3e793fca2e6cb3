/**
 * Runs each update through only the features that can take it, in their order.
 *
 * grammY runs a composer's middleware one after the other, and every `command()` or
 * `callbackQuery()` filter on the way builds a composer, closures and promises for the update
 * before it says no. With twenty features in a row that walk was most of what an update allocated
 * (bench/README.md). A {@link Feature} is a grammY Composer that also records what it listens to:
 * its commands, its callback data, or anything else (`use`, `on`, `hears`…). `routeFeatures` then
 * picks, per update, the features whose filters can match and runs them in the given order, so each
 * feature sees exactly what it saw before; the others would only have called `next()`.
 * Commands are read as grammY's own filter reads them; test/bot/feature-router.test.ts runs
 * captions, edited messages, channel posts, `/cmd@botname` and deep links through both.
 *
 * @example
 * const help = new Feature<PrivateContext>();
 * help.command("help", (ctx) => ctx.reply(ctx.t("help-text")));
 * inPrivate.use(routeFeatures([startFeature(deps), help]));
 */
import type {
  CallbackQueryContext,
  CallbackQueryMiddleware,
  CommandContext,
  CommandMiddleware,
  Composer,
  Context,
  Middleware,
  MiddlewareFn,
} from "grammy";
import { Chain, chain } from "./middleware-chain.ts";

type Trigger = string | RegExp;

/**
 * Features whose routes were copied (by routeFeatures, or by a Feature that took them in with
 * use()): what they would get afterwards grammY would run, the routes would not, so it throws.
 */
const routedFeatures = new WeakSet<object>();

function refuseIfRouted(feature: object, what: string): void {
  if (routedFeatures.has(feature))
    throw new Error(
      `A feature got ${what} after it was routed: register everything before routeFeatures or use().`,
    );
}

/**
 * A grammY Composer that knows which updates its middleware can take; its middleware and filters
 * run flat (middleware-chain.ts), not through grammY's per-update composers.
 */
export class Feature<C extends Context> extends Chain<C> {
  readonly commands = new Set<string>();
  readonly callbacks: Trigger[] = [];
  /** Some middleware may take any update (`use`, `on`, `hears`, …): routed every update. */
  takesAny = false;
  /** Inside command() / callbackQuery(): grammY builds them with use(), which is theirs. */
  #recording = 0;

  override command(
    command: Parameters<Composer<C>["command"]>[0],
    ...middleware: Array<CommandMiddleware<C>>
  ): Composer<CommandContext<C>> {
    refuseIfRouted(this, `the command ${String(command)}`);
    for (const name of Array.isArray(command) ? command : [command]) this.commands.add(name);
    return this.#record(() => super.command(command, ...middleware));
  }

  override callbackQuery(
    trigger: Trigger | Trigger[],
    ...middleware: Array<CallbackQueryMiddleware<C>>
  ): Composer<CallbackQueryContext<C>> {
    refuseIfRouted(this, `the callback data ${String(trigger)}`);
    this.callbacks.push(...(Array.isArray(trigger) ? trigger : [trigger]));
    return this.#record(() => super.callbackQuery(trigger, ...middleware));
  }

  override use(...middleware: Array<Middleware<C>>): Composer<C> {
    if (this.#recording === 0) {
      refuseIfRouted(this, "middleware");
      for (const mw of middleware) {
        if (mw instanceof Feature) {
          routedFeatures.add(mw);
          for (const name of mw.commands) this.commands.add(name);
          this.callbacks.push(...mw.callbacks);
          if (mw.takesAny) this.takesAny = true;
        } else {
          this.takesAny = true;
        }
      }
    }
    return super.use(...middleware);
  }

  #record<T>(register: () => T): T {
    this.#recording++;
    try {
      return register();
    } finally {
      this.#recording--;
    }
  }
}

/**
 * The commands `entries` register (the Features among them, in order, each once): what a mode
 * understands is what its features say they take, not a list kept beside them.
 */
export function commandsOf(entries: Iterable<unknown>): string[] {
  const names = new Set<string>();
  for (const entry of entries)
    if (entry instanceof Feature) for (const name of entry.commands) names.add(name);
  return [...names];
}

/** What an update can match: a command (its name), callback data, or neither. */
type Route =
  | { kind: "command"; name: string }
  | { kind: "callback"; data: string }
  | { kind: "other" }
  | { kind: "all" };

const OTHER: Route = { kind: "other" };
const ALL: Route = { kind: "all" };

function routeOf(ctx: Context): Route {
  const data = ctx.callbackQuery?.data;
  if (data !== undefined) return { kind: "callback", data };
  const message = ctx.message;
  const first = message?.entities?.[0];
  if (message?.text !== undefined && first?.type === "bot_command" && first.offset === 0) {
    const command = message.text.substring(1, first.length);
    const at = command.indexOf("@");
    return { kind: "command", name: at === -1 ? command : command.substring(0, at) };
  }
  // A command anywhere else (a caption, an edited message, a channel post): let every filter look.
  const msg = ctx.msg;
  const entities = msg?.entities ?? msg?.caption_entities;
  if (entities?.some((e) => e.type === "bot_command")) return ALL;
  return OTHER;
}

function matches(trigger: Trigger, data: string): boolean {
  if (typeof trigger === "string") return trigger === data;
  trigger.lastIndex = 0;
  return trigger.test(data);
}

/** The features (or plain middleware, which may take anything) as one middleware that routes. */
export function routeFeatures<C extends Context>(entries: ReadonlyArray<Middleware<C>>): MiddlewareFn<C> {
  for (const entry of entries) if (entry instanceof Feature) routedFeatures.add(entry);
  const features = entries.map((entry) => ({
    entry,
    feature: entry instanceof Feature ? (entry as Feature<C>) : undefined,
  }));
  const routed = (pick: (feature: Feature<C>) => boolean): MiddlewareFn<C> =>
    chain(
      features
        .filter(({ feature }) => feature === undefined || feature.takesAny || pick(feature))
        .map((f) => f.entry),
    );

  const all = chain(entries);
  const other = routed(() => false);
  const byCommand = new Map<string, MiddlewareFn<C>>();
  for (const { feature } of features) {
    for (const name of feature?.commands ?? []) {
      // grammY also takes "name@bot" for a command registered as "name"; routeOf drops "@bot".
      const key = name.split("@")[0] ?? name;
      if (!byCommand.has(key))
        byCommand.set(
          key,
          routed((f) => [...f.commands].some((c) => c.split("@")[0] === key)),
        );
    }
  }
  // Callback data is open-ended: the chain is built per set of features that match, and kept.
  const byCallbackSet = new Map<string, MiddlewareFn<C>>();
  const forCallback = (data: string): MiddlewareFn<C> => {
    let key = "";
    for (let i = 0; i < features.length; i++) {
      const feature = features[i]?.feature;
      if (feature?.callbacks.some((t) => matches(t, data))) key += `${i},`;
    }
    let mw = byCallbackSet.get(key);
    if (mw === undefined) {
      mw = routed((f) => f.callbacks.some((t) => matches(t, data)));
      byCallbackSet.set(key, mw);
    }
    return mw;
  };

  return (ctx, next) => {
    const route = routeOf(ctx);
    switch (route.kind) {
      case "command":
        return (byCommand.get(route.name) ?? other)(ctx, next);
      case "callback":
        return forCallback(route.data)(ctx, next);
      case "other":
        return other(ctx, next);
      case "all":
        return all(ctx, next);
    }
  };
}

/**
 * `composer.filter(predicate, ...middleware)` without the composer, promise and closures grammY's
 * filter builds per update (its `lazy`): for the branches every update passes.
 *
 * @example
 * guarded.use(branchOn<BotContext, PrivateContext>(Context.has.chatType("private"), inPrivate));
 */
export function branchOn<C extends Context, D extends C>(
  predicate: (ctx: C) => ctx is D,
  ...middleware: Array<Middleware<D>>
): MiddlewareFn<C> {
  const run = chain(middleware);
  return (ctx, next) => (predicate(ctx) ? run(ctx, next) : next());
}
