/**
 * One update per private chat at a time across instances. `sequentialize` orders a chat's updates
 * within one process; behind a load balancer two instances can get two updates of one chat at once,
 * and both would replay the chat's conversation from the same stored state (the later write wins,
 * the other answer is lost). A short lease in the store (setIfAbsent with a TTL) puts them in a row.
 * Only needed with a shared store (Redis): createBot installs it when asked.
 *
 * The lease is renewed every third of its length while the update runs (extendIfEquals: only while
 * it is still ours), so a slow update keeps it and a crashed holder's runs out soon; it is released
 * (deleteIfEquals) when the update ends, and a shutdown that cannot wait for an update gives its
 * lease back at once (`releaseAll`), so the chat's next update does not wait for the lease to run
 * out. Time spent waiting for the chat is not charged to the update's exchange deadline
 * (exchange/deadline.ts): a wait must never turn into "the exchange did not answer in time".
 *
 * Releases are sent together: a lease given back waits up to `releaseBatchMs` (1 ms) for others,
 * then all go out at once (one write to Redis instead of one per update, under load). Its update
 * still ends only once its lease is given back, so the chat's next update in this process never
 * finds it taken; another instance's waits at most that much longer.
 *
 * With `reads` (Redis), the chat's per-update keys are read in the round trip that takes the lease
 * (setIfAbsentThenGetMany: read after the set, so they are what the previous holder left) and the
 * rest of the update runs in the read scope with them (store/update-reads.ts).
 *
 * @example
 * const lock = new ChatLock(store, log);
 * inPrivate.use(lock.middleware);
 * await lock.releaseAll(); // shutdown past its deadline
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { MiddlewareFn } from "grammy";
import { systemTimers, type Timers } from "../../clock.ts";
import { postponeDeadline } from "../../exchange/deadline.ts";
import type { Logger } from "../../logger.ts";
import type { Store } from "../../store/store.ts";
import type { ChatReads } from "../../store/update-reads.ts";
import type { BotContext } from "../context.ts";

export interface ChatLockOptions {
  /** A crashed holder's lease runs out after this; a live holder renews it every third of it. */
  leaseMs?: number;
  /** How long an update waits for the chat before it goes ahead anyway (logged). */
  waitMs?: number;
  pollMs?: number;
  /** What the renewals wait on (tests move it instead of waiting). */
  timers?: Timers;
  /** The chat's per-update reads: read with the lease, and the update run in their scope. */
  reads?: ChatReads;
  /** How long a release waits for others to go out with it (real time); 0: each at once. */
  releaseBatchMs?: number;
}

/** A lease waiting to be given back with others. */
interface Release {
  held: Held;
  done: PromiseWithResolvers<void>;
}

/** One lease held by this process: its key, its holder id, and how to stop renewing it. */
interface Held {
  key: string;
  holder: string;
  stopRenewing(): void;
}

export class ChatLock {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #leaseMs: number;
  readonly #waitMs: number;
  readonly #pollMs: number;
  readonly #timers: Timers;
  readonly #reads: ChatReads | undefined;
  readonly #held = new Set<Held>();
  readonly #releaseBatchMs: number;
  /** Releases waiting for the batch's timer (or releaseAll). */
  #releases: Release[] = [];
  #releaseTimer: NodeJS.Timeout | undefined;
  /** Holder ids: this lock's own random prefix and a counter (unique without a UUID per update). */
  readonly #holderPrefix = `${randomUUID()}:`;
  #holders = 0;

  constructor(store: Store, log: Logger, options: ChatLockOptions = {}) {
    this.#store = store;
    this.#log = log;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#waitMs = options.waitMs ?? 20_000;
    this.#pollMs = options.pollMs ?? 25;
    this.#timers = options.timers ?? systemTimers;
    this.#reads = options.reads;
    this.#releaseBatchMs = options.releaseBatchMs ?? 1;
  }

  /** How many chat leases this process holds now. */
  get heldCount(): number {
    return this.#held.size;
  }

  readonly middleware: MiddlewareFn<BotContext> = async (ctx, next) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    const key = `chat-lock:${chatId}`;
    const holder = this.#holderPrefix + this.#holders++;
    const id = String(chatId);
    const reads = this.#reads;
    const readKeys = reads ? reads.keysFor(id) : [];
    const started = performance.now();
    const deadline = started + this.#waitMs;
    // The values of readKeys when the lease was taken, undefined while it is not.
    let values = await this.#store.setIfAbsentThenGetMany(key, holder, this.#leaseMs, readKeys);
    while (values === undefined && performance.now() < deadline) {
      await delay(this.#pollMs);
      values = await this.#store.setIfAbsentThenGetMany(key, holder, this.#leaseMs, readKeys);
    }
    postponeDeadline(performance.now() - started);
    if (!values) this.#log.warn({ chatId }, "chat lock not obtained in time; handling the update anyway");
    const held = values ? this.#hold(key, holder, chatId) : undefined;
    try {
      // Not held: the scope reads the chat's keys itself, at its first read.
      if (reads) await reads.scope(next, values && { id, values });
      else await next();
    } finally {
      if (held) await this.#release(held);
    }
  };

  /**
   * Gives back every lease still held, at once: the process is about to exit under updates that did
   * not finish (their webhook requests go unanswered, so Telegram hands them to another instance).
   */
  async releaseAll(): Promise<void> {
    const pending = [...this.#held].map((held) => this.#release(held));
    this.#sendReleases();
    await Promise.all(pending);
  }

  #hold(key: string, holder: string, chatId: number): Held {
    let cancel: (() => void) | undefined;
    let stopped = false;
    const renew = () => {
      cancel = this.#timers.after(this.#leaseMs / 3, () => {
        if (stopped) return;
        this.#store.extendIfEquals(key, holder, this.#leaseMs).then(
          (ours) => {
            if (stopped) return;
            // Ran out (a stall longer than the lease) and maybe taken: the order is no longer kept.
            if (!ours) this.#log.warn({ chatId }, "chat lock lost while its update ran");
            else renew();
          },
          (error: unknown) => {
            // The store is down: try again; if it stays down the lease runs out as a crash's would.
            this.#log.warn({ err: error, chatId }, "chat lock renewal failed");
            if (!stopped) renew();
          },
        );
      });
    };
    renew();
    const held: Held = {
      key,
      holder,
      stopRenewing: () => {
        stopped = true;
        cancel?.();
      },
    };
    this.#held.add(held);
    return held;
  }

  async #release(held: Held): Promise<void> {
    if (!this.#held.delete(held)) return;
    held.stopRenewing();
    if (this.#releaseBatchMs <= 0) {
      await this.#store.deleteIfEquals(held.key, held.holder);
      return;
    }
    const done = Promise.withResolvers<void>();
    this.#releases.push({ held, done });
    this.#releaseTimer ??= setTimeout(() => this.#sendReleases(), this.#releaseBatchMs);
    await done.promise;
  }

  /** Sends every waiting release now, in one tick: the store's driver writes them together. */
  #sendReleases(): void {
    clearTimeout(this.#releaseTimer);
    this.#releaseTimer = undefined;
    const releases = this.#releases;
    this.#releases = [];
    for (const { held, done } of releases) {
      this.#store.deleteIfEquals(held.key, held.holder).then(() => done.resolve(), done.reject);
    }
  }
}
