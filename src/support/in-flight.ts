/**
 * Counts pieces of work under way, so whoever must wait for them (a shutdown, a test) can.
 *
 * @example
 * const inFlight = new InFlight();
 * void inFlight.track(() => sendSomething());
 * await inFlight.drain();
 */
export class InFlight {
  #count = 0;
  #idle: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  /** Runs `work`, counted until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await work();
    } finally {
      this.#count--;
      if (this.#count === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** Resolves when nothing is under way. */
  drain(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
