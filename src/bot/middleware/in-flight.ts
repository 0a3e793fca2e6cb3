/**
 * Counts updates being handled, so shutdown can wait for them. @grammyjs/runner's `stop()`
 * resolves once fetching has stopped, while updates it already handed to its sink may still
 * be running (and a conversation may still be writing its state): stopping the store under
 * them would lose that write.
 */
import type { MiddlewareFn } from "grammy";

export class InFlight {
  #count = 0;
  #idle: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  readonly middleware: MiddlewareFn = async (_ctx, next) => {
    this.#count++;
    try {
      await next();
    } finally {
      this.#count--;
      if (this.#count === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  };

  /** Resolves when no update is being handled. */
  drain(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
