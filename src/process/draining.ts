/**
 * Whether this process is shutting down: set once, on SIGTERM or SIGINT, by main.ts. The HTTP
 * server answers new webhook requests 503 from then on (Telegram hands them to another instance),
 * and a readiness check reads it to say "not ready". Created by main.ts and handed to whatever
 * must know.
 *
 * @example
 * const draining = new Draining();
 * draining.onStart(() => server.closeIdleConnections());
 * draining.start(); // SIGTERM
 * draining.active; // true
 */
export class Draining {
  #since: number | undefined;
  readonly #listeners: Array<() => void> = [];

  /** True from the moment the shutdown began. */
  get active(): boolean {
    return this.#since !== undefined;
  }

  /** When the shutdown began (performance.now()), or undefined. */
  get since(): number | undefined {
    return this.#since;
  }

  /** Begins the shutdown (again: nothing); the listeners run now, once. */
  start(): void {
    if (this.#since !== undefined) return;
    this.#since = performance.now();
    for (const listener of this.#listeners.splice(0)) listener();
  }

  /** Runs `listener` when the shutdown begins (at once if it already has). */
  onStart(listener: () => void): void {
    if (this.active) listener();
    else this.#listeners.push(listener);
  }
}
