/**
 * An append-only list that can be waited on: the call log and the bot's messages are both kept in
 * one, so a test can ask for "the next item after this point that matches" without racing the bot.
 *
 * @example
 * const log = new Log<string>();
 * const next = log.waitFor(0, (s) => s.startsWith("send"), 1000, () => "nothing was sent");
 * log.append("sendMessage");
 * await next; // { item: "sendMessage", index: 0 }
 */
export class Log<T> {
  readonly items: T[] = [];
  #waiters = new Set<{
    from: number;
    predicate: (item: T) => boolean;
    resolve: (hit: { item: T; index: number }) => void;
  }>();
  #listeners = new Set<(item: T) => void>();

  get length(): number {
    return this.items.length;
  }

  append(item: T): void {
    const index = this.items.push(item) - 1;
    for (const waiter of this.#waiters) {
      if (index >= waiter.from && waiter.predicate(item)) {
        this.#waiters.delete(waiter);
        waiter.resolve({ item, index });
      }
    }
    for (const listener of this.#listeners) listener(item);
  }

  subscribe(listener: (item: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The first item at or after `from` that matches, now or when it arrives; rejects after `timeoutMs`. */
  waitFor(
    from: number,
    predicate: (item: T) => boolean,
    timeoutMs: number,
    describeTimeout: () => string,
  ): Promise<{ item: T; index: number }> {
    for (let index = from; index < this.items.length; index++) {
      const item = this.items[index] as T;
      if (predicate(item)) return Promise.resolve({ item, index });
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        from,
        predicate,
        resolve: (hit: { item: T; index: number }) => {
          clearTimeout(timer);
          resolve(hit);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(describeTimeout()));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}
