/**
 * One alert tick: bring the in-memory index in step with the store, fetch the market ONCE
 * (`feed.snapshot()`), evaluate every currency through the index, record what fired or re-armed,
 * and hand each fired alert to `onFired` (which words it and queues it for delivery).
 *
 * The index is rebuilt from the store when this instance becomes the scheduler (takeover), every
 * `fullReloadMs`, and when the change log cannot say what changed; otherwise only the users named
 * in the change log since the last tick are reloaded (see book.ts). Alerts of users who blocked
 * the bot are left out of the index until they write again.
 *
 * Knows nothing of Telegram; the lease (who runs this) is the caller's business (jobs.ts).
 *
 * @example
 * const scheduler = new AlertScheduler({ book, feed, clock, log, onFired: (alert, at) => notify(alert, at) });
 * await scheduler.tick(); // { fired: 3, rearmed: 1, … }
 */
import Big from "big.js";
import type { MarketFeed, MarketPrice } from "../market/types.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import { type AlertEvent, AlertIndex } from "./alert-index.ts";
import type { AlertBook } from "./book.ts";
import type { Alert } from "./rules.ts";

/** What a fired alert is told with: the price and 24 h change that fired it. */
export interface FiredAt {
  price: Big;
  change: Big;
  /** When the exchange gave this price (ms, the feed's clock). */
  at: number;
  name: string;
}

export interface AlertSchedulerOptions {
  book: AlertBook;
  feed: MarketFeed;
  clock: Clock;
  log: Pick<Logger, "warn" | "error" | "debug">;
  onFired: (alert: Alert, at: FiredAt) => Promise<void>;
  /** Rebuild the whole index at least this often (default 10 minutes). */
  fullReloadMs?: number;
  /** How long a gap in the change log is waited for before a full rebuild (default 30 s). */
  gapGraceMs?: number;
}

export interface TickResult {
  fired: number;
  rearmed: number;
  /** True when the index was rebuilt from the store this tick. */
  reloaded: boolean;
  /** Why nothing was evaluated, when nothing was. */
  skipped?: "feed-failed" | "stale";
}

const WRITE_CHUNK = 200;

export class AlertScheduler {
  readonly index = new AlertIndex();
  readonly #options: AlertSchedulerOptions;
  #loaded = false;
  #seen = 0;
  #lastFullAt = 0;
  #gapSince: number | undefined;

  constructor(options: AlertSchedulerOptions) {
    this.#options = options;
  }

  /** Forgets the index (this instance stopped being the scheduler); the next tick rebuilds it. */
  drop(): void {
    this.index.clear();
    this.#loaded = false;
  }

  /** Rebuilds the index from the store. */
  async reload(): Promise<void> {
    const { book, clock } = this.#options;
    const version = await book.version();
    const all = await book.loadAll();
    this.index.load(
      all.alerts.filter((alert) => !all.paused.has(alert.userId)),
      all.disarmed,
    );
    this.#seen = version;
    this.#loaded = true;
    this.#lastFullAt = clock.now();
    this.#gapSince = undefined;
  }

  /** Applies the change log since the last tick; true when it had to rebuild everything. */
  async sync(): Promise<boolean> {
    const { book, clock } = this.#options;
    const now = clock.now();
    if (!this.#loaded || now - this.#lastFullAt >= (this.#options.fullReloadMs ?? 10 * 60_000)) {
      await this.reload();
      return true;
    }
    const changes = await book.changesSince(this.#seen);
    if (changes.kind === "reload") {
      await this.reload();
      return true;
    }
    if (changes.kind === "users") {
      for (const userId of changes.userIds) {
        const user = await book.loadUser(userId);
        this.index.replaceUser(userId, user.paused ? [] : user.alerts, user.disarmed);
      }
      this.#seen = changes.version;
    }
    // A record missing behind the version: its writer is between two writes, or died there.
    if ((await book.version()) > this.#seen) {
      this.#gapSince ??= now;
      if (now - this.#gapSince >= (this.#options.gapGraceMs ?? 30_000)) {
        await this.reload();
        return true;
      }
    } else {
      this.#gapSince = undefined;
    }
    return false;
  }

  async tick(): Promise<TickResult> {
    const { feed, book, clock, log } = this.#options;
    const reloaded = await this.sync();
    let snapshot: Awaited<ReturnType<MarketFeed["snapshot"]>>;
    try {
      snapshot = await feed.snapshot();
    } catch (error) {
      log.warn({ err: error }, "alert tick: no market data");
      return { fired: 0, rearmed: 0, reloaded, skipped: "feed-failed" };
    }
    // Old prices were evaluated when they were new; firing on them now would tell old news as new.
    if (snapshot.stale) return { fired: 0, rearmed: 0, reloaded, skipped: "stale" };

    const fired: Array<{ alert: Alert; at: FiredAt }> = [];
    const rearmed: AlertEvent[] = [];
    for (const item of snapshot.prices) {
      const values = decimals(item);
      if (!values) continue;
      for (const event of this.index.evaluate(item.currency, values.price, values.change)) {
        if (event.type === "fired") {
          fired.push({
            alert: event.alert,
            at: { ...values, at: snapshot.fetchedAt, name: item.name },
          });
        } else {
          rearmed.push(event);
        }
      }
    }

    const now = clock.now();
    for (let i = 0; i < rearmed.length; i += WRITE_CHUNK) {
      await Promise.all(rearmed.slice(i, i + WRITE_CHUNK).map((e) => book.setArmed(e.alert, true, now)));
    }
    for (let i = 0; i < fired.length; i += WRITE_CHUNK) {
      await Promise.all(
        fired.slice(i, i + WRITE_CHUNK).map(async ({ alert, at }) => {
          // Recorded before it is told: a crash after this loses one message, never repeats it.
          await book.setArmed(alert, false, now);
          try {
            await this.#options.onFired(alert, at);
          } catch (error) {
            log.error({ err: error, userId: alert.userId, alertId: alert.id }, "alert notice failed");
          }
        }),
      );
    }
    return { fired: fired.length, rearmed: rearmed.length, reloaded };
  }
}

function decimals(item: MarketPrice): { price: Big; change: Big } | undefined {
  try {
    return { price: new Big(item.price), change: new Big(item.change24h || "0") };
  } catch {
    return undefined;
  }
}
