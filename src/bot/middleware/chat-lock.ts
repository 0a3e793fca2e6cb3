/**
 * One update per private chat at a time across instances. `sequentialize` orders a chat's updates
 * within one process; behind a load balancer two instances can get two updates of one chat at once,
 * and both would replay the chat's conversation from the same stored state (the later write wins,
 * the other answer is lost). A short lease in the store (setIfAbsent with a TTL) puts them in a row.
 * Only needed with a shared store (Redis): createBot installs it when asked.
 *
 * The lease is renewed while the update runs (extendIfEquals: only while it is still ours), first
 * between one and two thirds of its length after it was taken, then every third (one timer for
 * all leases held, not one per update), so a slow update keeps it and a crashed holder's runs out
 * soon; it is released
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
import { postponeDeadline } from "../../exchange/deadline.ts";
import type { Store } from "../../store/store.ts";
import type { ChatReads } from "../../store/update-reads.ts";
import { systemTimers, type Timers } from "../../support/clock.ts";
import type { Logger } from "../../support/logger.ts";
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

/** One lease held by this process. */
interface Held {
  key: string;
  holder: string;
  chatId: number;
  /** The renewal tick it was taken (or last renewed) in: renewed once a whole tick has passed. */
  tick: number;
  /** A renewal is on its way (never two at once). */
  renewing: boolean;
  /** Found run out and maybe taken: never renewed again. */
  lost: boolean;
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
  /** Resolved when the releases waiting now go out (the batch's timer, or releaseAll). */
  #releaseBatch: PromiseWithResolvers<void> | undefined;
  #releaseTimer: NodeJS.Timeout | undefined;
  /** Renewal ticks so far, and the next one's cancel while leases are held. */
  #tick = 0;
  #cancelTick: (() => void) | undefined;
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
    const held: Held = { key, holder, chatId, tick: this.#tick, renewing: false, lost: false };
    this.#held.add(held);
    this.#cancelTick ??= this.#timers.after(this.#leaseMs / 3, this.#onTick);
    return held;
  }

  /**
   * One timer for every lease held, every third of the lease (not one per update): each lease held
   * for a whole tick is renewed, so a lease is renewed between one and two thirds of its length
   * after it was taken, then every third.
   */
  readonly #onTick = (): void => {
    this.#cancelTick = undefined;
    const tick = ++this.#tick;
    for (const held of this.#held) {
      if (tick - held.tick >= 2 && !held.renewing && !held.lost) this.#renew(held, tick);
    }
    if (this.#held.size > 0) this.#cancelTick = this.#timers.after(this.#leaseMs / 3, this.#onTick);
  };

  #renew(held: Held, tick: number): void {
    held.renewing = true;
    this.#store.extendIfEquals(held.key, held.holder, this.#leaseMs).then(
      (ours) => {
        held.renewing = false;
        if (!this.#held.has(held)) return;
        // Renewed: again at the next tick. Ran out (a stall longer than the lease) and maybe taken:
        // the order is no longer kept.
        if (ours) held.tick = tick - 1;
        else {
          held.lost = true;
          this.#log.warn({ chatId: held.chatId }, "chat lock lost while its update ran");
        }
      },
      (error: unknown) => {
        held.renewing = false;
        // The store is down: tried again at the next tick; if it stays down the lease runs out as a crash's would.
        if (this.#held.has(held))
          this.#log.warn({ err: error, chatId: held.chatId }, "chat lock renewal failed");
      },
    );
  }

  async #release(held: Held): Promise<void> {
    if (!this.#held.delete(held)) return;
    if (this.#held.size === 0) {
      this.#cancelTick?.();
      this.#cancelTick = undefined;
    }
    // The releases of one batch go on in one turn once it is sent: the store's driver writes them together.
    if (this.#releaseBatchMs > 0) await this.#releaseBatchSent();
    await this.#store.deleteIfEquals(held.key, held.holder);
  }

  /** One promise per batch of releases (not one per release), resolved when the batch goes out. */
  #releaseBatchSent(): Promise<void> {
    if (this.#releaseBatch === undefined) {
      this.#releaseBatch = Promise.withResolvers<void>();
      this.#releaseTimer = setTimeout(this.#sendReleases, this.#releaseBatchMs);
    }
    return this.#releaseBatch.promise;
  }

  /** Sends every waiting release now. */
  readonly #sendReleases = (): void => {
    clearTimeout(this.#releaseTimer);
    this.#releaseTimer = undefined;
    const batch = this.#releaseBatch;
    this.#releaseBatch = undefined;
    batch?.resolve();
  };
}
