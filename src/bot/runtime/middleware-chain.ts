/**
 * Middleware run one after the other with one plain `next` per step, and a Composer built on it.
 *
 * grammY's Composer joins middleware two at a time (`concat` in its composer.js): every level an
 * update passes is an async function plus an async `next` closure, two promises and their
 * closures; its `filter` (which `command`, `callbackQuery`, `on` and `hears` use) builds a Composer
 * and an async factory per update on top (`branch` → `lazy`), even when the filter says no. Under
 * load that was the largest single allocator of the bot process: about 19 KiB of the ~125 KiB a
 * /start or /help allocated (the inspector's heap sampling, 200 updates in flight), now ~4 KiB
 * with this. Here a step costs one closure.
 *
 * The order, what `next()` does and where errors go are grammY's: each middleware runs when the one
 * before calls `next()`, calling `next()` twice fails as in grammY, a middleware that throws (even
 * synchronously) rejects the promise of the step that called it, and `next()` always returns a
 * promise. A Composer in the list is asked for its middleware when the update reaches it, so one
 * that gets middleware after the chain was built (the flows, while the bot is built) still runs it.
 * test/bot/middleware-chain-contract.test.ts holds this against grammY's Composer, and names the
 * two places it differs on purpose (a synchronous filter decides in the same tick; `next()` hands
 * back the next step's promise).
 *
 * @example
 * const run = chain<BotContext>([floodLimit(), session(...), features]);
 * const inPrivate = new Chain<PrivateContext>(); // a Composer whose use/filter are flat
 */
import {
  type BotError,
  Composer,
  type Context,
  type Middleware,
  type MiddlewareFn,
  type NextFunction,
} from "grammy";

type MaybePromise<T> = T | Promise<T>;

const nothing = (): void => undefined;
const resolved: Promise<void> = Promise.resolve();

/** What a middleware returned, as the promise `next()` must be. */
function settled(result: unknown): Promise<void> {
  if (result instanceof Promise) return result;
  return result === undefined ? resolved : Promise.resolve(result).then(nothing);
}

/** The middleware in `list` (read when an update arrives: the array may still grow) as one. */
export function chain<C extends Context>(list: ReadonlyArray<Middleware<C>>): MiddlewareFn<C> {
  return (ctx, next) => step(list, 0, ctx, next);
}

/** Runs `list[i]` with a `next` that runs `list[i + 1]`, …, and after the last the caller's `next`. */
function step<C extends Context>(
  list: ReadonlyArray<Middleware<C>>,
  i: number,
  ctx: C,
  next: NextFunction,
): Promise<void> {
  const mw = list[i];
  if (mw === undefined) return next();
  let called = false;
  try {
    const fn = typeof mw === "function" ? mw : mw.middleware();
    return settled(
      fn(ctx, () => {
        if (called) return Promise.reject(new Error("`next` already called before!"));
        called = true;
        return step(list, i + 1, ctx, next);
      }),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A grammY Composer whose middleware runs through {@link chain}: `use` appends to one flat list,
 * `filter` (and so `command`, `callbackQuery`, `on`, `hears`, `chatType`) tests its predicate in
 * place, and `errorBoundary` guards a Chain. Everything else is grammY's, built on these.
 */
export class Chain<C extends Context> extends Composer<C> {
  readonly #list: Array<Middleware<C>> = [];
  readonly #run = chain(this.#list);

  constructor(...middleware: Array<Middleware<C>>) {
    super();
    this.#list.push(...middleware);
  }

  override middleware(): MiddlewareFn<C> {
    return this.#run;
  }

  override use(...middleware: Array<Middleware<C>>): Composer<C> {
    // grammY's Composer of one middleware is that middleware itself: nothing to run through.
    const composer = middleware.length === 1 ? new Composer<C>(...middleware) : new Chain<C>(...middleware);
    this.#list.push(composer);
    return composer;
  }

  override filter<D extends C>(
    predicate: (ctx: C) => ctx is D,
    ...middleware: Array<Middleware<D>>
  ): Composer<D>;
  override filter(
    predicate: (ctx: C) => MaybePromise<boolean>,
    ...middleware: Array<Middleware<C>>
  ): Composer<C>;
  override filter(
    predicate: (ctx: C) => MaybePromise<boolean>,
    ...middleware: Array<Middleware<C>>
  ): Composer<C> {
    const composer = new Chain<C>(...middleware);
    const run = composer.middleware();
    this.use((ctx, next) => {
      const ok = predicate(ctx);
      if (ok instanceof Promise) return ok.then((yes) => (yes ? run(ctx, next) : next()));
      return ok ? run(ctx, next) : next();
    });
    return composer;
  }

  override errorBoundary(
    errorHandler: (error: BotError<C>, next: NextFunction) => MaybePromise<unknown>,
    ...middleware: Array<Middleware<C>>
  ): Composer<C> {
    const guarded = new Chain<C>(...middleware);
    super.errorBoundary(errorHandler, guarded);
    return guarded;
  }
}
